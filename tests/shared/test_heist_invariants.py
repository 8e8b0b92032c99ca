# A seeded sample of random Meow Heist games, every invariant checked after
# every action. The same checkers run under hypothesis in
# tests/test_heist_properties.py over many more games.
from heist_check import Watch, check_refusals
from playout import play_randomly

from catnip.rules.heist import Heist


def setups():
    for players in range(2, 7):
        for variant in ("standard", "original"):
            if players == 2 and variant == "original":
                continue
            for gems in ("digital", "physical"):
                yield {"players": players, "variant": variant, "gems": gems,
                       "start": (players + len(gems)) % players}


def play_checked(config, seed):
    game = Heist(config, seed)
    watch = Watch(game)

    def each(game, player, action, events):
        watch(game, player, action, events)
        check_refusals(game)

    play_randomly(game, "chooser-" + seed, each=each)
    assert watch.secrecy_checks == len(game.log)
    return game


def test_every_setup_plays_to_a_checked_end():
    for i, config in enumerate(setups()):
        play_checked(config, "seeded-%d" % i)


def test_more_six_player_games():
    for i in range(3):
        play_checked({"players": 6}, "six-%d" % i)


def test_more_two_player_games():
    for i in range(3):
        play_checked({"players": 2, "start": i % 2}, "two-%d" % i)
