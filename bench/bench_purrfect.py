"""Purrfect: memory for a whole 7-player game, engine speed, and legal() size.

Games are played by the seeded sensible players of tests/shared/purrfect_play.py.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / "tests" / "shared"
sys.path.insert(0, str(SHARED))
sys.path.insert(0, str(ROOT / "tests"))

import mpunix  # noqa: E402
from purrfect_play import play_sensibly  # noqa: E402

from bench.mpheap import completes, min_heap  # noqa: E402
from catnip import rules  # noqa: E402
from catnip.rules.purrfect import Purrfect  # noqa: E402

Row = tuple[str, str, object, str, str]
SEED, CHOOSER = "bench-purrfect-7", "bench"

# Plays the whole game (the sensible players' legal() lists included) and, if
# RECORD, builds its record as one JSON-ready structure at the end. COLLECT
# says whether to gc.collect() after every action, as the device's loop does.
FULL_GAME = f"""
from catnip import rules
from purrfect_play import play_sensibly
game = rules.new("purrfect", {{"players": 7}}, "{SEED}")
play_sensibly(game, "{CHOOSER}", collect=COLLECT)
if RECORD:
    record = game.record()
print("OK")
"""
PICO_HEAP = 231_680  # free after boot, MicroPython 1.29 (docs: shared/design.md)

# Heap in use at each stage, and act() speed by replaying the game's own log.
REPLAYS = 5
STAGES = f"""
import gc, time
REPLAYS = {REPLAYS}
from purrfect_play import play_sensibly
from catnip import rules
gc.collect(); base = gc.mem_alloc()
import catnip.rules.purrfect
gc.collect(); print("import", gc.mem_alloc() - base)
game = rules.new("purrfect", {{"players": 7}}, "{SEED}")
gc.collect(); print("setup", gc.mem_alloc() - base)
play_sensibly(game, "{CHOOSER}", collect=True)
gc.collect(); print("played", gc.mem_alloc() - base)
record = game.record()
gc.collect(); print("with_record", gc.mem_alloc() - base)
log, game.log = game.log, []
actions = len(log)
log = None  # (a print() here would leave a stale pointer the GC keeps alive)
gc.collect(); print("without_log", gc.mem_alloc() - base)
print("actions", actions)
t = time.ticks_us()
for _ in range(REPLAYS):
    again = rules.replay(record)
print("replay_us", time.ticks_diff(time.ticks_us(), t) // REPLAYS)
print("OK")
"""


# legal() at the worst table we could build: its size, heap and time.
WORST = f"""
import gc, time
from catnip import rules
from purrfect_checks import rig
cats = list(range(7))
hands = [list(range(9))]
for p in range(1, 7):
    hands.append([p * 9 + pose for pose in range(8)] + [(p % 6 + 1) * 9 + 8])
game = rig(rules.new("purrfect", {{"players": 7}}, "{SEED}"), cats, hands)
for p in range(1, 7):
    own = hands[p][:8]
    game.act(p, ("offer",) + tuple(own[:4]))
    game.act(p, ("offer",) + tuple(own[4:]))
    game.act(p, ("offer", hands[p][8]))
gc.collect(); base = gc.mem_alloc()
t = time.ticks_us()
legal = game.legal(0)
us = time.ticks_diff(time.ticks_us(), t)
gc.collect(); print("bytes", gc.mem_alloc() - base)
print("size", len(legal))
print("us", us)
print("OK")
"""


def rows() -> Iterator[Row]:
    st = _micropython(STAGES)
    actions = st["actions"]
    log = st["with_record"] - st["without_log"]
    record = st["with_record"] - st["played"]
    yield ("purrfect", "import purrfect (with the engine)", st["import"], "B",
           "unix-port heap, as every B row here; the Pico needs about half")
    yield ("purrfect", "7-player game: state after setup", st["setup"] - st["import"], "B",
           "the hands are one 63-byte array")
    yield ("purrfect", "7-player game: state at the end, without log",
           st["played"] - st["import"] - log, "B", "")
    yield ("purrfect", f"7-player game: log of {actions} actions", log, "B",
           f"{log / actions:.0f} B an action (the engine's packed log)")
    yield ("purrfect", "7-player game: record() at the end", record, "B",
           "the packed log in base64 with its word table, seed and config")
    for record, how in ((False, "play it"), (True, "play it, then build record()")):
        heap = min_heap(f"COLLECT = True\nRECORD = {record}" + FULL_GAME, path=[SHARED],
                        hi=1024 * 1024)
        yield ("purrfect", f"7-player game: smallest heap to {how}", heap, "B",
               f"-X heapsize; {actions} actions, gc after each; Pico ~{heap // 2:,} B")
    for collect, how in ((True, "gc after each action"), (False, "no gc between actions")):
        fits = completes(f"COLLECT = {collect}\nRECORD = True" + FULL_GAME, 2 * PICO_HEAP,
                         path=[SHARED])
        yield ("purrfect", f"7-player game fits a Pico-sized heap, {how}",
               "yes" if fits else "no", "", f"unix heap {2 * PICO_HEAP:,} B = 2 x the Pico's")
    yield ("purrfect", "act() via replay, unix port", actions / st["replay_us"] * 1e6,
           "actions/s", "MicroPython unix port; the Pico is 60-90x slower")
    yield ("purrfect", "act() via replay, CPython", _cpython_rate(), "actions/s", "CPython")
    largest, mean = _legal_sizes()
    yield ("purrfect", "legal() size in play, largest", largest, "actions",
           f"mean {mean:.0f}; 7 players, 1 action in 8 random, every state")
    worst = _micropython(WORST)
    yield ("purrfect", "legal() at the worst table built", worst["size"], "actions",
           f"9 of a cat facing twelve 4-card offers; {worst['bytes']:,} B and "
           f"{worst['us'] / 1e3:.1f} ms on the unix port")


def _micropython(script: str) -> dict[str, int]:
    proc = mpunix.run(["-c", script], path=[SHARED])
    if not proc.stdout.rstrip().endswith("OK"):
        raise RuntimeError(f"micropython failed:\n{proc.stdout}\n{proc.stderr}")
    values = {}
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(" ")
        if value:
            values[key] = int(value)
    return values


def _cpython_rate() -> float:
    game = play_sensibly(rules.new("purrfect", {"players": 7}, SEED), CHOOSER)
    record = game.record()
    start = time.perf_counter()
    for _ in range(REPLAYS):
        rules.replay(record)
    return REPLAYS * record["log"]["count"] / (time.perf_counter() - start)


def _legal_sizes() -> tuple[int, float]:
    sizes: list[int] = []

    def each(game: Purrfect, player: int, action: tuple, events: list[dict]) -> None:
        if game.result() is None:
            sizes.extend(len(game.legal(p)) for p in range(game.players()))

    for i in range(5):
        play_sensibly(rules.new("purrfect", {"players": 7}, f"{SEED}-{i}"), CHOOSER,
                      noise=2, each=each)
    return max(sizes), sum(sizes) / len(sizes)
