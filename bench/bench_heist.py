"""Meow Heist: the heap a whole 6-player game needs, and how fast the rules run."""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench.mpheap import compile_firmware, min_heap

import mpunix  # on sys.path through bench.mpheap

sys.path.insert(0, str(mpunix.SHARED_TESTS))

from playout import play_randomly  # noqa: E402

from catnip.rules.heist import Heist  # noqa: E402

GAMES = 40

# A whole 6-player game with random legal choices, start to result.
FULL_GAME = """from catnip.rules.heist import Heist
from playout import play_randomly
game = play_randomly(Heist({"players": 6}, "0123456789abcdef0123456789abcdef"), "chooser")
assert game.result() is not None
print("OK")
"""

# Full random games timed on the unix port; prints actions and microseconds.
SPEED = """import time
from catnip.rules.heist import Heist
from playout import play_randomly
actions = 0
t0 = time.ticks_us()
for i in range(%d):
    game = play_randomly(Heist({"players": 6}, "speed-%%d" %% i), "chooser-%%d" %% i)
    actions += len(game.log)
print(actions, time.ticks_diff(time.ticks_us(), t0))
""" % GAMES


def _cpython_rate() -> float:
    actions = 0
    t0 = time.perf_counter()
    for i in range(GAMES):
        game = play_randomly(Heist({"players": 6}, f"speed-{i}"), f"chooser-{i}")
        actions += len(game.log)
    return actions / (time.perf_counter() - t0)


def _unix_rate() -> float:
    proc = mpunix.run(["-c", SPEED], path=[mpunix.SHARED_TESTS])
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    actions, micros = map(int, proc.stdout.split())
    return actions * 1_000_000 / micros


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        ahead = compile_firmware(Path(tmp), [mpunix.SHARED_TESTS / "playout.py"])
        heap = min_heap(ahead + FULL_GAME, path=[mpunix.SHARED_TESTS], step=64)
    yield ("heist", "smallest heap, full 6-player game (.mpy)", heap, "bytes",
           "micropython unix port -X heapsize, modules precompiled; the Pico needs about half")
    heap = min_heap(FULL_GAME, path=[mpunix.SHARED_TESTS], step=64)
    yield ("heist", "smallest heap, full 6-player game (.py)", heap, "bytes",
           "the same, compiling heist.py on the device: the compiler's peak dominates")
    yield ("heist", "actions/s, 6-player games, unix port", _unix_rate(), "actions/s",
           f"{GAMES} full random games, legal() each step; the Pico is ~60-90x slower")
    yield ("heist", "actions/s, 6-player games, CPython", _cpython_rate(), "actions/s",
           f"{GAMES} full random games, legal() each step")
