"""The same seed and the same choices give the same game on both interpreters.

A log written on the Pico must replay on the laptop, so every game is played
under MicroPython and CPython with identical seeds and its whole transcript
(log, events, public state, every view, result) compared."""

from __future__ import annotations

import json

import pytest

import mpunix
from crossplay import sensible, transcript, tray_events

GAMES = [
    ("heist", {"players": 2}),
    ("heist", {"players": 3}),
    ("heist", {"players": 5, "gems": "physical"}),
    ("heist", {"players": 6, "variant": "original"}),
    ("stack", {"players": 2}),
    ("stack", {"players": 5, "black_cat": True}),
    ("stack", {"players": 6, "mode": "patient", "black_cat": True, "draw": "physical"}),
    ("stack", {"players": 3, "mode": "clowder"}),
    ("purrfect", {"players": 4}),
    ("purrfect", {"players": 7}),
    ("purrfect", {"players": 5, "mode": "scorekeeper"}),
]
SEEDS = [("seed-a", "pick-a"), ("seed-b", "pick-b")]
CASES = [(n, c, s, p) for n, c in GAMES for s, p in SEEDS]

# The cases travel in a file: this micropython build aborts on a long argv.
SCRIPT = """
import gc, json, sys
from crossplay import sensible, transcript, tray_events
with open(sys.argv[1]) as f:
    cases = json.load(f)
for name, config, seed, pick in cases:
    print(json.dumps(transcript(name, config, seed, pick)))
    gc.collect()
"""


@pytest.fixture(scope="module")
def micropython_transcripts(tmp_path_factory) -> list[dict]:
    cases = tmp_path_factory.mktemp("cross") / "cases.json"
    cases.write_text(json.dumps(CASES))
    proc = mpunix.run(["-c", SCRIPT, str(cases)], path=[mpunix.SHARED_TESTS],
                       heap=16 * 1024 * 1024)  # transcripts are large; heap size is not the point
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{n}-{json.dumps(c)}-{s}" for n, c, s, _ in CASES])
def test_same_game_on_both_interpreters(index, micropython_transcripts):
    name, config, seed, pick = CASES[index]
    on_cpython = json.loads(json.dumps(transcript(name, config, seed, pick)))
    on_micropython = micropython_transcripts[index]
    for field in on_cpython:
        assert on_micropython[field] == on_cpython[field], f"{field} differs between interpreters"


# The sensible Purrfect players of the benches and tests: both interpreters
# must play the same game from the same seeds, or their figures compare
# different games. The first is the bench's own game.
SENSIBLE = [(7, "bench-purrfect-7", "bench", 0), (4, "sensible-4", "pick", 2),
            (6, "sensible-6", "pick", 0)]
SENSIBLE_SCRIPT = """
import json, sys
from crossplay import sensible
for players, seed, pick, noise in json.loads(sys.argv[1]):
    print(json.dumps(sensible(players, seed, pick, noise)))
"""


def test_sensible_players_play_the_same_game_on_both_interpreters():
    proc = mpunix.run(["-c", SENSIBLE_SCRIPT, json.dumps(SENSIBLE)], path=[mpunix.SHARED_TESTS],
                      heap=4 * 1024 * 1024)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    on_micropython = [json.loads(line) for line in proc.stdout.splitlines()]
    for case, theirs in zip(SENSIBLE, on_micropython, strict=True):
        mine = json.loads(json.dumps(sensible(*case)))
        assert theirs["log"]["count"] == mine["log"]["count"], case
        assert theirs == mine, case


TRAY_SCRIPTS = ["ppppppcpt", "ppcrpptpp"]
TRAY_SCRIPT = """
import json, sys
from crossplay import tray_events
for script in json.loads(sys.argv[1]):
    print(json.dumps(tray_events(script)))
"""


def test_the_tray_says_the_same_on_both_interpreters():
    proc = mpunix.run(["-c", TRAY_SCRIPT, json.dumps(TRAY_SCRIPTS)], path=[mpunix.SHARED_TESTS])
    assert proc.returncode == 0, proc.stderr + proc.stdout
    on_micropython = [json.loads(line) for line in proc.stdout.splitlines()]
    for script, theirs in zip(TRAY_SCRIPTS, on_micropython, strict=True):
        mine = json.loads(json.dumps(tray_events(script)))
        assert len(mine) > 10, (script, mine)
        assert theirs == mine, script
