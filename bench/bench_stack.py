"""Stack O' Cats: heap for a whole 6-player game, and engine speed."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

from bench.mpheap import compile_firmware, min_heap, mpunix

AREA = "stack"
CONFIG = {"players": 6, "black_cat": True}
SEED = "0123456789abcdef0123456789abcdef"

_GAME = """
from catnip.rules import new
from catnip.rules.rng import Rng
game = new("stack", %r, %r)
pick = Rng("bench choices")
""" % (CONFIG, SEED)

# The device's path: a station asks for each number within limits() and the
# confirmed report goes to act(). A held cat stands three times in four.
DEVICE_GAME = _GAME + """
def number(limits):
    return limits[0] + pick.below(limits[1] - limits[0] + 1)
while game.result() is None:
    player = game.to_act()[0]
    step = game.public()["step"]
    if step == "draw":
        action = ("draw",)
    else:
        lim = game.limits()
        if lim["fallen"][1] and not pick.below(4):
            fallen = number(lim["fallen"])
            action = ("collapse", fallen, number(game.black_fallen_limits(fallen)))
        else:
            action = ("place", number(lim["height"]), number(lim["black_touched"]))
    game.act(player, action)
"""

# The same kind of game choosing from legal(), whose list grows with the tower.
LEGAL_GAME = _GAME + """
while game.result() is None:
    player = game.to_act()[0]
    options = game.legal(player)
    places = len([a for a in options if a[0] == "place"])
    if places and places < len(options) and pick.below(4):
        action = options[pick.below(places)]
    else:
        action = options[pick.below(len(options))]
    game.act(player, action)
"""

# Actions per second: a recorded game replayed through act(), setup included.
SPEED = """
try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1e6)

    def ticks_diff(a, b):
        return a - b
from catnip.rules import new
LOG = %r
ROUNDS = %d
start = ticks_us()
for _ in range(ROUNDS):
    game = new("stack", %r, %r)
    for player, action in LOG:
        game.act(player, action)
rate = len(LOG) * ROUNDS * 1000000 // ticks_diff(ticks_us(), start)
"""
ROUNDS = 200

OK = 'print(len(game.log))\nprint("OK")\n'


def _micropython(script: str) -> list[str]:
    proc = mpunix.run(["-c", script], timeout=300)
    if proc.returncode:
        raise RuntimeError(proc.stderr or proc.stdout)
    return proc.stdout.split()


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    scope: dict = {}
    exec(DEVICE_GAME, scope)
    log = scope["game"].log
    played = int(_micropython(DEVICE_GAME + OK)[0])
    if played != len(log):
        raise RuntimeError(f"MicroPython played {played} actions, CPython {len(log)}")
    note = f"6 players, Black Cat, {played} actions; unix port, about half on the Pico"
    with tempfile.TemporaryDirectory() as tmp:
        mpy = compile_firmware(Path(tmp))
        yield (AREA, "min heap, whole game, limits() + act(), .mpy",
               min_heap(mpy + DEVICE_GAME + OK), "B", note)
        yield (AREA, "min heap, whole game, choosing from legal(), .mpy",
               min_heap(mpy + LEGAL_GAME + OK), "B",
               "legal() lists ~500 reports on a tall tower (stations use limits()); unix port")
    yield (AREA, "min heap, whole game, limits() + act(), .py source",
           min_heap(DEVICE_GAME + OK), "B", "compiling the modules dominates (ship .mpy); unix port")
    speed = SPEED % (list(log), ROUNDS, CONFIG, SEED)
    note = f"act() replaying that game {ROUNDS} times, setup included"
    yield (AREA, "actions/s, MicroPython unix port", int(_micropython(speed + "print(rate)")[-1]),
           "1/s", note + "; the Pico is roughly 60-90x slower")
    scope = {}
    exec(speed, scope)
    yield AREA, "actions/s, CPython", scope["rate"], "1/s", note
