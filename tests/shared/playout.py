# Random legal play for property tests, under both interpreters. The choices
# come from catnip's own PRNG, so a failing (seed, chooser) pair reproduces
# exactly on CPython and MicroPython.
import gc

from catnip.rules.rng import Rng


def any_legal(game, player, pick):
    """A uniformly random legal action."""
    options = game.legal(player)
    assert options, "player %s may act but has no legal action" % player
    return pick.choice(options)


def play_randomly(game, chooser_seed, max_actions=100000, each=None, choose=any_legal,
                  collect=False):
    """Play until the game ends: each step a random player who may act takes
    `choose(game, player, pick)` (None: that player waits). `each(game,
    player, action, events)` runs after every action; `collect` runs the GC
    after each, as the device's main loop does. Returns the game."""
    pick = Rng(chooser_seed)
    for _ in range(max_actions):
        if game.result() is not None:
            return game
        players = game.to_act()
        assert players, "nobody may act but the game is not over"
        player = pick.choice(players)
        action = choose(game, player, pick)
        if action is None:
            continue
        events = game.act(player, action)
        if collect:
            gc.collect()
        if each is not None:
            each(game, player, action, events)
    raise AssertionError("game did not end within %d steps" % max_actions)
