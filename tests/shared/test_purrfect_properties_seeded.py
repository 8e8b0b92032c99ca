# A seeded sample of the Purrfect properties that tests/test_purrfect_properties.py
# explores with hypothesis; small enough to run under MicroPython too.
from purrfect_checks import checked_game


def test_whole_games_keep_every_invariant_at_every_player_count():
    for players in range(4, 8):
        for i in range(2):
            game, largest = checked_game(players, "seeded-%d-%d" % (players, i), "c%d" % i,
                                         noise=2, deep=3)
            assert game.result() is not None and largest > 0


def test_quiet_games_of_sensible_players_end_too():
    for players in range(4, 8):
        game, _ = checked_game(players, "quiet-%d" % players, "q", noise=0, deep=20)
        assert max(game.public()["pawprints"]) >= 4
