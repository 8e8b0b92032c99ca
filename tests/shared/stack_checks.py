# Invariants of Stack O' Cats, recomputed without the engine's own scoring,
# and small helpers for scenarios. Used by the seeded tests here (CPython and
# MicroPython) and by the hypothesis properties in tests/test_stack_properties.py.
import json

from catnip.rules import new, replay
from catnip.rules.rng import Rng

BASE_CATS = 4


def physical(config, base, out=(), seed="scenario"):
    """A physical-mode game whose setup reports `base` and `out` colours in
    whatever order the setup asks for them."""
    config = dict(config)
    config["draw"] = "physical"
    game = new("stack", config, seed)
    report_setup(game, list(base), list(out))
    return game


def report_setup(game, base, out):
    wanted = {"base": base, "out": out}
    while game.public()["phase"] == "setup":
        step = game.public()["step"]
        colour = wanted[step].pop(0)
        game.act(game.to_act()[0], (step, colour))
    assert not base and not out, "setup did not ask for %r %r" % (base, out)


def turn(game, colour, *reports):
    """One turn of a physical game: report the draw (or the table cat in the
    Clowder), then each ('collapse', f, b) and the final ('place', h, b).
    Returns the events of the reports."""
    player = game.to_act()[0]
    source = "take" if game.public()["step"] == "take" else "drew"
    events = game.act(player, (source, colour))
    for report in reports:
        events = events + game.act(player, report)
    return events


# ---- independent recomputation from the log -----------------------------


def scores_from_log(config, log):
    """(per-player scores, team score) computed from the actions alone."""
    mode = config["mode"]
    scores = [0] * config["players"]
    team = 0
    from_table = False
    for player, action in log:
        name = action[0]
        if name == "take":
            from_table = True
        elif name in ("draw", "drew"):
            from_table = False
        elif name == "place" and mode == "clowder":
            team += 0 if from_table else 1
        elif name == "place":
            height, touched = action[1], action[2]
            black = 0
            if config["black_cat"] and touched:
                black = 2 * touched if config["black_touch"] == "each" else 2
            if mode == "composure":
                scores[player] += 2 * height - black
            else:
                scores[player] += height + black
        elif name == "collapse" and mode != "clowder":
            scores[player] += -action[1] if mode == "composure" else action[1]
    return scores, team


def tower_from_log(log):
    tower = BASE_CATS
    for _, action in log:
        if action[0] == "place":
            tower += 1
        elif action[0] == "collapse":
            tower -= action[1]
    return tower


def ranks_of(scores, most):
    return [1 + len([q for q in scores if (q > s if most else q < s)]) for s in scores]


# ---- checkers -------------------------------------------------------------


def check_scores(game):
    scores, team = scores_from_log(game.config, game.log)
    pub = game.public()
    if game.config["mode"] == "clowder":
        assert pub["team"] == team, (pub["team"], team)
    else:
        assert pub["scores"] == scores, (pub["scores"], scores)
    result = game.result()
    if result is not None and game.config["mode"] != "clowder":
        assert result["ranks"] == ranks_of(scores, game.config["mode"] == "composure")
        for rank in result["ranks"]:
            shared = result["ranks"].count(rank) > 1
            assert shared == any(r.get("rank") == rank for r in result["reasons"])


def check_cats(game):
    """Every cat of the box is in exactly one place."""
    c = game.config
    kinds = len(c["colours"])
    places = (game.bag, game.box, game.table, game.removed, game.base, game.placed)
    for counts in places:
        assert min(counts) >= 0, counts
    for i in range(kinds + 1):
        owned = c["per_colour"] if i < kinds else c["black_cats"]
        here = sum(counts[i] for counts in places) + (1 if game.hand == i else 0)
        assert here == owned, (game.colours[i], here, owned)
    assert game.tower >= 0 and game.fallen >= 0
    assert game.tower + game.fallen == sum(game.base) + sum(game.placed)
    if game.public()["phase"] != "setup":
        assert game.tower == tower_from_log(game.log), (game.tower, tower_from_log(game.log))
    if c["black_cat"]:
        assert 0 <= game.tower_black <= game.tower
        assert game.tower_black + game.fallen_black == game.base[kinds] + game.placed[kinds]
    else:
        assert game.tower_black == 0 and game.fallen_black == 0
    pub = game.public()
    assert pub["bag_left"] == sum(pub["bag"].values()) == sum(game.bag)


def check_turns(game):
    """Placements go round the table from the start player; the game ends
    exactly when the bag (and the Clowder's table) is empty or, in the
    Clowder, at the first collapse."""
    c = game.config
    placers = [p for p, a in game.log if a[0] == "place"]
    expected = [(c["start"] + k) % c["players"] for k in range(len(placers))]
    assert placers == expected, (placers, expected)
    collapsed = any(a[0] == "collapse" for _, a in game.log)
    if c["mode"] == "clowder" and collapsed:
        assert game.result() is not None and game.log[-1][1][0] == "collapse"
    elif game.result() is not None:
        assert sum(game.bag) == 0 and sum(game.table) == 0 and game.hand == -1


def check_public(game):
    pub = game.public()
    text = json.dumps(pub)
    # A short test seed may appear by chance; the device's are 32 hex digits.
    assert len(game.seed) < 16 or game.seed not in text
    for player in range(game.players()):
        view = game.view(player)
        assert view.pop("you") == player
        assert view == pub


def check_replay(game):
    assert replay(game.journal()) == game


def check_all(game, player=None, action=None, events=None):
    check_cats(game)
    check_scores(game)
    check_turns(game)
    check_public(game)


# ---- secrecy: public() follows from what is public ------------------------


def physical_twin(game):
    """A physical-mode copy of a digital game, told only what the digital
    game has made public about its setup, with a different seed."""
    config = dict(game.config)
    config["draw"] = "physical"
    twin = new("stack", config, "twin of another seed")
    pub = game.public()
    wanted = {"base": _expand(pub["base"]), "out": _expand(pub["removed"])}
    while twin.public()["phase"] == "setup":
        step = twin.public()["step"]
        choosable = [a[1] for a in twin.legal(twin.to_act()[0])]
        colour = [c for c in wanted[step] if c in choosable][0]
        wanted[step].remove(colour)
        twin.act(twin.to_act()[0], (step, colour))
    return twin


def _expand(counts):
    cats = []
    for colour in counts:
        cats += [colour] * counts[colour]
    return cats


def mirror(twin, player, action, events):
    """Carry a digital game's action over to its twin, using only its events."""
    if action[0] == "draw":
        action = ("drew", events[0]["colour"])
    twin.act(player, action)


def same_public(game, twin):
    a, b = game.public(), twin.public()
    if a["step"] == "draw":
        a["step"] = "drew"
    assert a == b, (a, b)


# ---- checked playouts -------------------------------------------------------


def steady_chooser(seed, steadiness=3):
    """Picks a legal action; a held cat stands `steadiness` times in
    steadiness + 1, so towers grow tall and collapses still come."""
    pick = Rng(seed)

    def choose(options):
        places = [a for a in options if a[0] == "place"]
        if places and len(places) < len(options) and pick.below(steadiness + 1):
            return pick.choice(places)
        return pick.choice(options)

    return choose


def play_checked(game, choose, replay_every=8, max_actions=5000):
    """Play `game` to its end with `choose(options)`, checking every invariant
    after each action; a digital game is shadowed by its physical twin."""
    twin = physical_twin(game) if game.config["draw"] == "digital" else None
    check_all(game)
    for _ in range(max_actions):
        if twin is not None:
            same_public(game, twin)
        if game.result() is not None:
            break
        player = game.to_act()[0]
        action = choose(game.legal(player))
        events = game.act(player, action)
        check_all(game)
        if twin is not None:
            mirror(twin, player, action, events)
        if len(game.log) % replay_every == 0:
            check_replay(game)
    assert game.result() is not None, "game did not end within %d actions" % max_actions
    assert replay(game.record()) == game
    return game
