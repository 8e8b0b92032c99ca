# A player's move at the virtual table, for tests/simplay.py: the action a
# seeded policy picks from what the rules allow, and the presses that make
# that player's station submit it, worked out from the station's screen state.
# Runs under MicroPython (micropython-only: the screens' framebuf).
from catnip.ui import purrfect as purrfect_ui
from catnip.ui import stack as stack_ui
from purrfect_play import sensible_action


# ---- the presses for one action, per game -------------------------------------


def heist_presses(rec, station, seat, action):
    scene = rec.app.scene
    v = scene.view(station - 1)
    local = scene.local[station - 1]
    if action[0] == "reveal":
        cards = v["face_down"]
        rec.move(station, local.cursor.at, cards.index(action[1]), len(cards))
        rec.press(station, "ok")
        confirm(rec, station)
        return
    hand = v["hand"]
    if v["cards_per_round"] == 1:
        rec.move(station, local.cursor.at, hand.index(action[1]), len(hand))
        rec.shot("choose", station)
        rec.press(station, "ok")
        return
    used = []
    for card in action[1:]:
        at = [i for i in range(len(hand)) if hand[i] == card and i not in used][0]
        used.append(at)
        rec.move(station, local.cursor.at, at, len(hand) + 1)
        rec.press(station, "ok")
    rec.move(station, local.cursor.at, len(hand), len(hand) + 1)
    rec.shot("choose", station)
    rec.press(station, "ok")


def stack_presses(rec, station, seat, action):
    scene = rec.app.scene
    v = scene.view(station - 1)
    local = scene.local[station - 1]
    kind = action[0]
    if kind == "draw":
        rec.press(station, "ok")
        return
    if kind not in ("place", "collapse"):
        choices = stack_ui._choices(v)
        rec.move(station, local.cursor.at, choices.index(action[1]), len(choices))
        rec.press(station, "ok")
        return
    labels = stack_ui._menu(v, local)
    label = "Placed" if kind == "place" else "Collapsed"
    rec.move(station, local.cursor.at, labels.index(label), len(labels))
    rec.press(station, "ok")
    for value in action[1:1 + (2 if v["black_cat"] else 1)]:
        rec.pick(station, local.asking[-1], value)
        if kind == "place":
            rec.shot("report", station)
        rec.press(station, "ok")
    confirm(rec, station)


def purrfect_presses(rec, station, seat, action):
    scene = rec.app.scene
    v = scene.view(station - 1)
    local = scene.local[station - 1]
    items = [what for _, what in purrfect_ui._items(v)]
    kind = action[0]
    if kind == "score":
        rec.move(station, local.cursor.at, 0, len(items))
        rec.press(station, "ok")
        rec.pick(station, local.sub, action[1])
        rec.press(station, "ok")
        others = [p for p in range(v["players"]) if p != action[1]]
        for p in action[2:]:
            rec.move(station, local.sub.at, others.index(p), len(others) + 1)
            rec.press(station, "ok")
        rec.move(station, local.sub.at, len(others), len(others) + 1)
        rec.shot("score", station)
        rec.press(station, "ok")
        confirm(rec, station)
        return
    if kind == "offer":
        target = ("offer", action[1] // 9)
    elif kind == "accept":
        target = [w for w in items if w[0] == "accept" and w[1]["offer"] == action[1]][0]
    elif kind == "withdraw":
        target = ("withdraw", action[1])
    else:
        target = ("declare",)
    rec.move(station, local.cursor.at, items.index(target), len(items))
    rec.shot("hand", station)
    rec.press(station, "ok")
    if kind == "offer":
        rec.pick(station, local.sub, len(action) - 1)
        rec.shot("offer", station)
    elif kind == "accept":
        cats = purrfect_ui._answers(v, target[1])
        rec.move(station, local.sub.at, cats.index(action[2] // 9), len(cats))
    rec.press(station, "ok")
    confirm(rec, station)


def confirm(rec, station):
    """OK once more where the station asks first (a reveal, an answer, a
    report that ends the game)."""
    local = rec.app.scene.local[station - 1] if rec.app.scene.kind == "play" else None
    doing = getattr(local, "doing", None)
    if getattr(local, "confirm", None) is not None or (
            doing is not None and doing[0] in ("answer", "record")):
        rec.press(station, "ok")


PRESSES = {"heist": heist_presses, "stack": stack_presses, "purrfect": purrfect_presses}


# ---- the policies ---------------------------------------------------------------


def canonical(action):
    """An action as the log keeps it: cards in ascending order."""
    kind = action[0]
    if kind in ("offer", "play"):
        return (kind,) + tuple(sorted(action[1:]))
    if kind == "accept":
        return (kind, action[1]) + tuple(sorted(action[2:]))
    return tuple(action)


def heist_action(game, seat, rng):
    return rng.choice(game.legal(seat))


def stack_action(game, seat, rng):
    moves = game.legal(seat)
    if moves[0][0] not in ("place", "collapse"):
        return rng.choice(moves)
    lim = game.limits()
    clowder = game.config["mode"] == "clowder"  # there a collapse ends the game
    if game.tower > (12 if clowder else 3) and rng.below(100) < (5 if clowder else 12):
        return ("collapse", 1 + rng.below(min(3, game.tower)), 0)
    return ("place", lim["height"][1] - rng.below(2) if lim["height"][1] > 1 else 1, 0)


def purrfect_action(game, seat, rng):
    if game.config["mode"] == "scorekeeper":
        n = game.players()
        declarer = rng.below(n)
        best = [p for p in range(n) if p != declarer and rng.below(3) == 0]
        return ("score", declarer) + tuple(best or [(declarer + 1) % n])
    return sensible_action(game, seat, rng)


POLICIES = {"heist": heist_action, "stack": stack_action, "purrfect": purrfect_action}
