# micropython-only: drives the table app, which draws into framebuf.
#
# A player at the simulated table: it picks an action the way a seeded
# policy would (from the game state, the same policy whatever happened
# before), then carries it out by pressing the station's buttons, one press
# at a time, reading the station's UI state to know where its cursor is.
# Nothing reaches the game but button presses.
from catnip.keys import BACK, DOWN, OK, UP
from catnip.ui import purrfect as purrfect_ui
from catnip.ui import stack as stack_ui
from catnip.ui.widgets import Picker
from tablepolicy import choose

NAMES = ("up", "down", "ok", "back")


def toward(at, target):
    return OK if at == target else (DOWN if at < target else UP)


def adjust(picker, value):
    if picker.value is None:  # nothing chosen yet: the nearer end first
        return UP if value - picker.lo <= picker.hi - value else DOWN
    return OK if picker.value == value else (UP if picker.value < value else DOWN)


# ---- setup ------------------------------------------------------------------


def setup_press(setup, game, options, seats):
    """The next button that brings the setup menu to `game` with `options`
    and the stations `seats`, then starts it; None when nothing is left."""
    if setup.choosing_seats is not None:
        c = setup.choosing_seats
        wrong = [k for k in range(c.n) if (k in seats) != (k in setup.seats)]
        return BACK if not wrong else toward(c.at, wrong[0])
    rows = setup.rows
    if rows[0][0] == "resume":
        return toward(setup.cursor.at, 0)
    for i, row in enumerate(rows):
        kind = row[0]
        bad = (kind == "game" and setup.game != game) or \
            (kind == "seats" and setup.seats != seats) or \
            (kind == "option" and row[2] in options and setup.options[row[2]] != options[row[2]]) or \
            (kind == "start" and setup.start != options.get("start", 0))
        if bad:
            return toward(setup.cursor.at, i)
    return toward(setup.cursor.at, rows.index(("go",)))


# ---- pressing it in -------------------------------------------------------------


def press_for(scene, station, action):
    """The next button on `station` towards submitting `action`."""
    v = scene.view(station)
    local = scene.local[station]
    return PLANNERS[scene.name](v, local, action)


def _heist(v, local, action):
    if local.gems is not None or action[0] == "gems":
        if local.confirm is not None:
            return OK
        pickers = local.gems
        if pickers is None:
            return adjust(Picker("", 0, 99, 0), action[1]) if action[1] == 0 else UP
        return adjust(pickers[-1], action[len(pickers)])
    if action[0] == "reveal":
        if local.confirm is not None:  # "Reveal your 3?"
            return OK
        return toward(local.cursor.at, v["face_down"].index(action[1]))
    hand = v["hand"]
    cards = list(action[1:])
    if len(cards) == 1 and v["cards_per_round"] == 1:
        return toward(local.cursor.at, hand.index(cards[0]))
    wanted = []
    for c in cards:
        i = hand.index(c)
        while i in wanted:
            i = hand.index(c, i + 1)
        wanted.append(i)
    for i in range(len(hand)):
        if (i in wanted) != (i in local.picks):
            return toward(local.cursor.at, i)
    return toward(local.cursor.at, len(hand))


def _stack(v, local, action):
    if local.confirm is not None:  # a report that ends the game, asked first
        return OK
    if local.asking:
        picker = local.asking[-1]
        if len(local.asking) == 1:
            return adjust(picker, action[1])
        return adjust(picker, action[2])
    if action[0] == "draw":
        return OK
    if action[0] in ("place", "collapse"):
        labels = stack_ui._menu(v, local)
        return toward(local.cursor.at, labels.index("Placed" if action[0] == "place"
                                                   else "Collapsed"))
    return toward(local.cursor.at, stack_ui._choices(v).index(action[1]))


def _purrfect(v, local, action):
    kind = action[0]
    if local.doing is not None:
        doing = local.doing[0]
        if doing in ("withdraw", "declare", "answer", "record"):
            return OK
        if doing == "offer":
            return adjust(local.sub, len(action) - 1)
        if doing == "accept":
            from catnip.rules.purrfect import cat_of

            return toward(local.sub.at, purrfect_ui._answers(v, local.doing[1]).index(
                cat_of(action[2])))
        if isinstance(local.sub, Picker):
            return adjust(local.sub, action[1])
        others = [p for p in range(v["players"]) if p != local.declarer]
        for i, p in enumerate(others):
            if (p in action[2:]) != (p in local.ticks):
                return toward(local.sub.at, i)
        return toward(local.sub.at, len(others))
    items = purrfect_ui._items(v)
    for i, (_, what) in enumerate(items):
        if what[0] != kind:
            continue
        if kind == "offer":
            from catnip.rules.purrfect import cat_of

            if what[1] != cat_of(action[1]):
                continue
        elif kind == "accept" and what[1]["offer"] != action[1]:
            continue
        elif kind == "withdraw" and what[1] != action[1]:
            continue
        return toward(local.cursor.at, i)
    raise AssertionError("no item on the station for %r" % (action,))


PLANNERS = {"heist": _heist, "stack": _stack, "purrfect": _purrfect}


# ---- a whole game -----------------------------------------------------------------


def next_press(app, game_name, options, seats):
    """(station, button) a player presses now, or None when the game is over.
    A phone seat's turn (its place is after the stations) is (place, None):
    its player presses on the phone, over the line."""
    scene = app.scene
    if scene.kind == "setup":
        return 0, setup_press(scene, game_name, options, seats)
    if scene.kind != "play":
        return None
    if scene.banner and app.game.result() is not None:
        return 0, OK  # the game is over: OK moves its announcements on
    seat, action = choose(app.game, scene.name)
    station = app.seats[seat]
    if station >= app.stations:
        return station, None
    return station, press_for(scene, station, action)


def read_out(app):
    """The announcements showing are read (OK, as at the table) and the
    scene moves on: after a game's last move, to the standings."""
    while app.scene.kind == "play" and app.scene.banner:
        app.scene.next_banner(None)
    app.tick(app.loop.now)


def play(rig, game_name, options, seats, limit=20000):
    """Play from setup to the standings; returns the presses made."""
    presses = 0
    while presses < limit:
        step = next_press(rig.app, game_name, options, seats)
        if step is None:
            return presses
        station, button = step
        rig.tap(station, NAMES[button])
        presses += 1
    raise AssertionError("the game did not end in %d presses" % limit)


def do(rig, seat, action, limit=200):
    """Carry out one action at its player's station by pressing buttons."""
    app = rig.app
    before = len(app.game.log)
    station = app.seats[seat]
    for _ in range(limit):
        if len(app.game.log) > before:
            return
        scene = app.scene
        rig.tap(station, NAMES[press_for(scene, station, action)])
    raise AssertionError("%r did not go through in %d presses" % (action, limit))


def start(rig, game_name, options, seats, limit=200):
    """From setup to the first screen of the game."""
    for _ in range(limit):
        if rig.app.scene.kind != "setup":
            return
        rig.tap(0, NAMES[setup_press(rig.app.scene, game_name, options, seats)])
    raise AssertionError("setup did not start %s" % game_name)
