# How the simulated table's players choose, under both interpreters: a
# seeded policy that depends only on the game state, so the same game
# always goes the same way. tablebot presses these choices in through the
# stations; the replay --verify bench plays them straight into the rules.
from catnip.rules.rng import Rng
from playout import any_legal
from purrfect_play import sensible_action


def choose(game, name):
    """(seat, action) the policy takes now."""
    rng = Rng("bot %d" % len(game.log))
    players = game.to_act()
    if name == "purrfect" and game.config["mode"] == "stations":
        start = rng.below(len(players))
        for p in players[start:] + players[:start]:
            action = sensible_action(game, p, rng)
            if action is not None:
                return p, action
        p = players[start]
        return p, any_legal(game, p, rng)
    if name == "stack":
        p = players[0]
        if game.public()["step"] == "place":
            lim = game.limits()
            if game.tower and rng.below(6) == 0:
                f = 1 + rng.below(min(2, lim["fallen"][1]))
                lo, hi = game.black_fallen_limits(f)
                return p, ("collapse", f, lo)
            h = lim["height"][1] - rng.below(2) if lim["height"][1] > 1 else 1
            return p, ("place", max(1, h), 0)
        return p, game.legal(p)[0]
    p = players[rng.below(len(players))]
    return p, any_legal(game, p, rng)
