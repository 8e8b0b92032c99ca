"""Whole games with phone seats (tests/phoneplay.py, on the MicroPython unix
port): each title at the most players it seats, at least half of them on
phones of the 4-station direct board, played to the end over the line (the
phone seats claimed and pressed as the laptop does), end with the standings
of the same seed played on the 8-station mux board with every seat at a
station. The views went to the phone seats only."""

from __future__ import annotations

import json

import pytest

import mpunix

# title: (players, phone seats on the direct board)
TITLES = {"heist": (6, 3), "stack": (8, 4), "purrfect": (7, 4)}


def _play(board: str, name: str, phones: int) -> dict:
    proc = mpunix.run([str(mpunix.ROOT / "tests" / "phoneplay.py"), board, name, str(phones)],
                      path=[mpunix.SHARED_TESTS, mpunix.ROOT / "tests"], timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_game_on_phones_ends_as_it_does_on_stations(name):
    players, phones = TITLES[name]
    assert 2 * phones >= players
    on_phones = _play("direct", name, phones)
    on_stations = _play("mux", name, 0)
    assert on_phones["standings"] == on_stations["standings"]
    assert on_phones["actions"] == on_stations["actions"] > players
    seats = list(range(players - phones, players))
    assert on_phones["phones"] == seats and on_stations["phones"] == []
    assert on_phones["views"] == seats  # each phone seat's screen reached it, no other
    assert "view" not in on_stations["kinds"]
    assert on_phones["kinds"]["pressed"] > on_phones["actions"] // 2
