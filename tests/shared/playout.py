# Random legal play for property tests, under both interpreters. The choices
# come from catnip's own PRNG, so a failing (seed, chooser) pair reproduces
# exactly on CPython and MicroPython.
from catnip.rules.rng import Rng


def play_randomly(game, chooser_seed, max_actions=100000, each=None):
    """Play legal random actions until the game ends. `each(game, player,
    action, events)` runs after every action. Returns the game."""
    pick = Rng(chooser_seed)
    for _ in range(max_actions):
        if game.result() is not None:
            return game
        players = game.to_act()
        assert players, "nobody may act but the game is not over"
        player = pick.choice(players)
        options = game.legal(player)
        assert options, "player %s may act but has no legal action" % player
        action = pick.choice(options)
        events = game.act(player, action)
        if each is not None:
            each(game, player, action, events)
    raise AssertionError("game did not end within %d actions" % max_actions)
