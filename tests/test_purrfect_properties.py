"""Purrfect properties over many random games (CPython, hypothesis).

The checkers live in tests/shared/purrfect_checks.py, so the seeded sample in
tests/shared/test_purrfect_properties_seeded.py checks the same properties
under MicroPython. Every game is played to its end by seeded sensible players
with a share of uniformly random legal actions; after each action the table,
the swap and the events are checked, and the relabelled twin must announce
the same events; at random moments public() and every view() are compared
with the twin, each player is checked blind to the others' cards, and legal()
is checked exact. Each game ends with replay(record) == game.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playout import play_randomly
from purrfect_checks import check_replay, checked_game

from catnip import rules

seeds = st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)


# One item per player count so pytest-xdist spreads them; bigger tables play
# longer games, so they get fewer (1,100 whole games in all).
@pytest.mark.parametrize(("players", "count"), [(4, 450), (5, 300), (6, 200), (7, 150)])
def test_played_games_keep_hands_conserved_secret_and_replayable(players, count):
    @settings(max_examples=count, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=seeds, chooser=seeds, noise=st.integers(0, 2))
    def games(seed, chooser, noise):
        game, _ = checked_game(players, seed, chooser, noise=noise, deep=16)
        result = game.result()
        assert result["ranks"][result["winner"]] == 1
        assert max(result["pawprints"]) >= 5

    games()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(players=st.integers(4, 7), seed=seeds, chooser=seeds)
def test_scorekeeper_games_end_by_the_same_rule(players, seed, chooser):
    game = rules.new("purrfect", {"players": players, "mode": "scorekeeper"}, seed)
    play_randomly(game, chooser)
    result = game.result()
    top = max(result["pawprints"])
    assert top >= 5
    leaders = [p for p, n in enumerate(result["pawprints"]) if n == top]
    declarer = game.public()["rounds"][-1][0]
    assert result["winner"] == (leaders[0] if len(leaders) == 1 else declarer)
    check_replay(game)
