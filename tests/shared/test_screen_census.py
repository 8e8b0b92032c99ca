# micropython-only: the screens draw into MicroPython's built-in framebuf.
#
# The screen census: every screen of every scene (setup, each game in play,
# the standings, the tray's calibration, the table's own pages), for every
# game, player count and setting, drawn at the size of every panel a
# shipped board has, on a canvas that checks the layout (screencheck). A
# line cut at the edge, a glyph over another or two strings that run
# together fail it, and so does a player's own hand that needs scrolling
# where the screen has room to show it whole, or a Purrfect station that
# hides its player's pawprints, hand, newest open offer or the three newest
# of the others' (4 to 7 players, under an announcement too). Every CHECK_EVERY-th picture
# also goes through each panel driver (SSD1306 and SH1106) to its chip's
# model, whose RAM behind the glass must then hold it exactly: what a board
# names as its panel shows the same screens. (The RAM, not the decoded
# glass: decoding costs 60 ms a picture under the unix port; that the glass
# shows that RAM as the picture the driver tests decode.)
import json
import os

import tablebot
from catnip.keys import BACK, OK, PRESS
from catnip.rules import RuleError, TITLES
from catnip.rules import new as new_game
from catnip.ui.end import End, standings
from catnip.ui.play import Play
from catnip.ui.setup import GAMES, Setup, choices, player_range, shown
from census_panels import Panel
from census_rows import purrfect_rows
from screencheck import Checked
from tablepolicy import choose

BOARDS = __file__.rsplit("/", 3)[0] + "/firmware/boards"  # from tests/shared/ up to the checkout
SHOWN = 40  # problems listed in a failure
CHECK_EVERY = 16  # pictures sent to the panels: one in 16 (each costs ms of model decoding)


def panel_sizes():
    """(width, height) of every panel on a shipped board."""
    sizes = []
    for name in sorted(os.listdir(BOARDS)):
        if not name.endswith(".json"):
            continue
        with open(BOARDS + "/" + name) as f:
            board = json.load(f)
        oleds = [s["oled"] for s in board["stations"]]
        if board.get("table"):
            oleds.append(board["table"])
        for oled in oleds:
            size = (128, oled.get("height", 64))
            if size not in sizes:
                sizes.append(size)
    return sizes


class Census:
    """Screens drawn on checking canvases, one per panel size; problems are
    kept with the name of the screen they were found on."""

    def __init__(self):
        self.canvases = [Checked(w, h) for w, h in panel_sizes()]
        from catnip.board import PANELS

        self.panels = [[Panel(kind, fb.height) for kind in sorted(PANELS)
                        if fb.height in PANELS[kind]] for fb in self.canvases]
        self.found = {}
        self.count = 0
        self.kinds = {}  # problems by kind: cut, over, touching, hand, panel
        self.screens = 0

    def look(self, name, paint, check=None):
        """Draw with paint(fb) on every canvas; check(fb) may name more problems."""
        for fb, panels in zip(self.canvases, self.panels):
            fb.begin()
            paint(fb)
            problems = fb.take()
            if check is not None:
                problems += check(fb)
            if self.screens % CHECK_EVERY == 0:
                for panel in panels:
                    problems += panel.check(fb)
            self.screens += 1
            for p in problems:
                self.count += 1
                kind = p.split(":")[0] if p[:3] in ("cut", "ove", "tou", "pan", "row") else "hand"
                self.kinds[kind] = self.kinds.get(kind, 0) + 1
                key = "".join("#" if c in "0123456789" else c for c in p)
                if key not in self.found:  # each kind once, with where it was first seen
                    self.found[key] = p + "\n    on " + "%s (%dx%d)  | %s" % (
                        name, fb.width, fb.height, " | ".join(s for s, _, _ in fb.strings()))

    def verdict(self):
        if self.count:
            lines = [self.found[k] for k in sorted(self.found)][:SHOWN]
            raise AssertionError("%d problems (%d distinct) over %d screens:\n%s" % (
                self.count, len(self.found), self.screens, "\n".join(lines)))


def combos(game):
    """Every combination of a game's settings that setup can show."""
    out = [{}]
    for o in choices(game):
        key, values = o["key"], o["choices"]
        grown = []
        for options in out:
            if not shown(game, key, options):
                grown.append(options)
                continue
            for value in values:
                o = dict(options)
                o[key] = value
                grown.append(o)
        out = grown
    return out


# ---- setup ------------------------------------------------------------------------


def _names():
    """Names from the laptop at their longest (catnip.wire.MAX_NAME), and none."""
    from catnip.wire import MAX_NAME

    return ["Wwwwwwwwwwwwwwww"[:MAX_NAME], "", "Mo", "Mmmmmmmmmmmmmmmm"[:MAX_NAME]] * 2


def _setup_screens(census, stations):
    resume = (7, {"game": "stack"}, 42)
    for game in GAMES:
        for options in combos(game):
            for res in (None, resume):
                s = Setup(stations, lambda: list(range(stations)), {"game": game,
                          "options": {game: options}}, res, tray=True, names=_names)
                for at in range(len(s.rows)):
                    s.cursor.at = at
                    for k in range(stations):
                        census.look("setup %s %r row %d S%d" % (game, options, at, k + 1),
                                    lambda fb, s=s, k=k: s.draw(k, fb))
            lo, hi = player_range(game, options)
            for n in (lo - 1, hi + 1):
                s.seats = list(range(max(0, n)))
                s.cursor.at = s.rows.index(("go",))
                s.key(0, OK, PRESS)
                if s.problem:
                    census.look("setup %s with %d seats" % (game, n), lambda fb, s=s: s.draw(0, fb))
                s.problem = None
    s = Setup(stations, lambda: list(range(stations - 1)), tray=True)
    s.cursor.at = s.rows.index(("seats",))
    s.key(0, OK, PRESS)
    for at in range(stations):
        s.choosing_seats.at = at
        census.look("setup seats at S%d" % (at + 1), lambda fb: s.draw(0, fb))
    s.choosing_seats = None
    s.menu = None
    from catnip.keys import LONG

    s.key(0, BACK, LONG)
    for at in range(2):
        s.menu.at = at
        census.look("setup menu %d" % at, lambda fb: s.draw(0, fb))


def setup_census():
    census = Census()
    for stations in (4, 8):
        _setup_screens(census, stations)
    return census


def test_every_setup_screen_fits():
    setup_census().verdict()


# ---- games in play -------------------------------------------------------------------


def _hand_check(scene, station):
    """The own hand must show whole where it could."""
    seat = scene.seat(station)

    def check(fb):
        if seat is None or scene.menu[station] is not None \
                or scene.error[station] or scene.viewing[station] is not None \
                or scene.ending[station]:
            return []
        if scene.name == "purrfect":
            return purrfect_rows(scene, station, fb)
        if scene.banner:
            return []
        v = scene.view(station)
        if scene.name == "heist" and v["phase"] == "play" and \
                not v["seats"][seat]["committed"]:
            cards = [s for s, _, y in fb.strings() if y in (32, 40) and s.isdigit()]
            if len(cards) != len(v["hand"]):
                return ["hand of %d shows as %r" % (len(v["hand"]), cards)]
        return []
    return check


def _look_all(census, scene, tag, stations):
    for k in range(stations):
        census.look("%s S%d" % (tag, k + 1), lambda fb, k=k: scene.draw(k, fb),
                    _hand_check(scene, k))
    census.look(tag + " table", scene.draw_table)


class _TraySide:
    """Stack O' Cats's side at the table, as its Play scene asks it: the
    tray's state, and a proposal for the seat it asks."""

    def __init__(self):
        self.tray = {"fault": None, "lean": [0, 200, 100]}
        self.proposal = None
        self.asked = None

    def view(self, seat):
        shown = dict(self.tray)
        if self.proposal is not None and seat == self.asked:
            shown["proposal"] = self.proposal
        return {"tray": shown}


def _stack_extras(census, scene, station, tag):
    """The tray's proposals and faults, on the station whose turn it is."""
    side = scene.side
    saved = dict(side.tray)
    side.asked = scene.seat(station)
    proposals = ({"kind": "place", "conf": 83, "value": 1},
                 {"kind": "place", "conf": 100, "value": 1},
                 {"kind": "collapse", "value": 1, "conf": 100},
                 {"kind": "collapse", "value": 12, "conf": 95},
                 {"kind": "collapse", "value": 3, "conf": 0},
                 {"kind": "collapse", "value": 0, "conf": 0},
                 {"kind": "cats", "value": 2, "lo": 0, "hi": 9, "conf": 0})
    for p in proposals:
        side.proposal = p
        census.look("%s tray %r" % (tag, p), lambda fb: scene.draw(station, fb))
    side.proposal = None
    for fault in ("not calibrated", "calibration unreadable: bad cells",
                  "no readings: check the load cell cable", "sensor stuck"):
        side.tray = {"fault": fault, "lean": [500, 900, -900]}
        for k in range(len(scene.local)):
            census.look("%s fault %r S%d" % (tag, fault, k + 1), lambda fb, k=k: scene.draw(k, fb))
    side.tray = saved


def _menus(census, scene, station, tag):
    """The long-BACK menu, the end question, a refusal, an announcement queue."""
    from catnip.keys import LONG

    scene.key(station, BACK, LONG)
    for at in range(len(scene.menu_items)):
        scene.menu[station].at = at
        census.look("%s menu %d" % (tag, at), lambda fb: scene.draw(station, fb))
    scene.menu[station] = None
    scene.ending[station] = True
    census.look(tag + " end?", lambda fb: scene.draw(station, fb))
    scene.ending[station] = False
    for why in _refusals(scene.name, scene.game.config):
        scene.error[station] = why
        census.look(tag + " refusal", lambda fb: scene.draw(station, fb))
    scene.error[station] = None


def _refusals(name, config):
    """What the rules say to actions a station could send at a wrong moment,
    at a game's start: every seat's legal actions tried by every other seat
    (the stations send only actions of the right shape)."""
    whys = []
    game = new_game(name, config, "refusals")
    n = game.players()
    for seat in range(n):
        tries = []
        for other in range(n):
            if other != seat:
                tries += game.legal(other)[:3]
        for action in tries:
            try:
                new_game(name, config, "refusals").act(seat, action)
            except RuleError as e:
                if str(e) not in whys:
                    whys.append(str(e))
    return whys


def _play_game(census, name, options, players, stations):
    seats = list(range(players))
    config = dict(options, players=players)
    game = new_game(name, config, "census %s %d" % (name, players))
    scene = Play(name, game, seats, stations, _TraySide() if name == "stack" else None)
    tag = "%s %dp %r" % (name, players, options)
    _look_all(census, scene, tag + " start", stations)
    _menus(census, scene, 0, tag)
    acts = 0
    last = None
    for presses in range(20000):
        if game.result() is not None:
            break
        seat, action = choose(game, name)
        station = seats[seat]
        out = scene.key(station, tablebot.press_for(scene, station, action), PRESS)
        census.look("%s press %d S%d" % (tag, presses, station + 1),
                    lambda fb, station=station: scene.draw(station, fb), _hand_check(scene, station))
        if out is None:
            continue
        try:
            events = game.act(out[1], out[2])
        except RuleError as e:
            scene.refused(out[1], str(e))
            continue
        acts += 1
        scene.announce(events, 0)
        while scene.banner:
            for k in range(stations if name == "purrfect" else 1):
                census.look("%s banner %r S%d" % (tag, scene.banner[0], k + 1),
                            lambda fb, k=k: scene.draw(k, fb), _hand_check(scene, k))
            scene.next_banner(0)
        phase = game.public().get("step") or game.public().get("phase")
        if acts % 5 == 0 or phase != last and acts % 2:
            _look_all(census, scene, "%s act %d" % (tag, acts), stations)
        if name == "stack" and phase == "place" and acts % 12 == 1:
            _stack_extras(census, scene, seats[game.public()["turn"]], tag)
        last = phase
    else:
        raise AssertionError("%s did not end" % tag)
    _look_all(census, scene, tag + " over", stations)
    return game


def title_census(name):
    census = Census()
    ends = []
    for options in combos(name):
        lo, hi = player_range(name, options)
        for players in range(lo, hi + 1):
            try:
                game = _play_game(census, name, options, players, max(4, players))
            except RuleError:
                continue  # a combination the rules refuse at setup (it says why)
            ends.append((options, players, game.result()))
    for options, players, result in ends:
        end = End(TITLES[name], standings(result), list(range(players)))
        for at in range(len(end.rows)):
            end.cursor.at = at
            census.look("%s end %dp row %d" % (name, players, at), lambda fb, end=end: end.draw(0, fb))
    return census


def test_every_meow_heist_screen_fits():
    title_census("heist").verdict()


def test_every_stack_screen_fits():
    title_census("stack").verdict()


def test_every_purrfect_screen_fits():
    title_census("purrfect").verdict()
