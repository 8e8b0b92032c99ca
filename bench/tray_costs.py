"""The tray estimator's cost on the MicroPython unix port, for bench_tray:
CPU per reading (a game, the worst path, four cells), the heap a reading
allocates and a four-cell Tray holds, and the heap importing catnip.tray takes;
each with its Pico estimate (design.md: 1 ms here is 60-90 ms there)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


COST_SCRIPT = """
import gc, time
from devsim.sessions import Session
from catnip.tray import Tray, Calibration

def per_reading(cal, readings, four=False):
    best = None
    for _ in range(3):
        tray = Tray(cal, wedged=4)
        tray.tare()
        feed = tray.feed4 if four else tray.feed
        t0 = time.ticks_us()
        if four:
            for r in readings:
                feed(r[0], r[1], r[2], r[3])
        else:
            for r in readings:
                feed(r)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None or dt < best else best
    return best / len(readings)

s = Session('cost', rate_hz=80, noise=86, per_cat=4300)
s.game(bag=12)
tr = s.trace
game = [tr.counts_at(k * tr.period) for k in range(s.t // tr.period)]
cal = Calibration(80, [game[0]], [1], 4300, 215, 86, 5)
print('game', per_reading(cal, game))
# A slow slide: the short window stays flat, the long one never does, so
# every reading scans the whole long window. The slowest path there is.
slide = game[:200] + [game[199] + 86 * k for k in range(4000)]
print('slide', per_reading(cal, slide))
del game, slide
gc.collect()
s4 = Session('cost4', rate_hz=80, cells=4, noise=86, per_cat=4300)
s4.game(bag=12)
tr = s4.trace
game4 = [tr.counts4_at(k * tr.period) for k in range(s4.t // tr.period)]
cal4 = Calibration(80, list(game4[0]), [1, 1, 1, 1], 4300, 215, 172, 5)
print('four', per_reading(cal4, game4, True))


# Bytes allocated by the readings that returned no event, over a game with
# an attempt open now and then (gc off, so nothing is freed).
def quiet_alloc(cal, readings, four):
    tray = Tray(cal, wedged=4, in_play=40)
    tray.tare()
    feed = tray.feed4 if four else tray.feed
    total = n = 0
    gc.collect()
    gc.disable()
    for k in range(len(readings)):
        r = readings[k]
        if k % 300 == 0:
            tray.begin_attempt()
        before = gc.mem_alloc()
        ev = feed(r[0], r[1], r[2], r[3]) if four else feed(r)
        used = gc.mem_alloc() - before
        if ev is None:
            total += used
            n += 1
    gc.enable()
    return total, n


print('alloc4', *quiet_alloc(cal4, game4, True))
gc.collect()
before = gc.mem_alloc()
tray = Tray(cal4, wedged=4)
gc.collect()
print('ram', gc.mem_alloc() - before)
print('OK')
"""


def unix_costs() -> dict[str, Any]:
    """Per-reading cost (us) on the MicroPython unix port, with the traces
    generated first so only the tray runs inside the timed loops; and the
    heap a four-cell Tray takes (bytes): a float for each, but "alloc4", the
    bytes a reading allocates as a pair of figures."""
    sys.path.insert(0, str(ROOT / "tests"))
    import mpunix

    proc = mpunix.run(["-c", COST_SCRIPT], heap=16 * 1024 * 1024)
    lines = proc.stdout.split("\n")
    if proc.returncode != 0 or "OK" not in lines:
        raise RuntimeError(f"micropython failed: {proc.stdout}{proc.stderr}")
    return {line.split()[0]: [float(v) for v in line.split()[1:]] if len(line.split()) > 2
            else float(line.split()[1]) for line in lines if line and line != "OK"}


def unix_import_heap() -> int:
    """Heap that importing catnip.tray takes on the unix port (bytes)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import mpunix

    script = ("import gc\ngc.collect()\nbefore = gc.mem_alloc()\nimport catnip.tray\n"
              "gc.collect()\nprint(gc.mem_alloc() - before)\nprint('OK')\n")
    proc = mpunix.run(["-c", script])
    lines = proc.stdout.split()
    if proc.returncode != 0 or lines[-1:] != ["OK"]:
        raise RuntimeError(f"micropython failed: {proc.stdout}{proc.stderr}")
    return int(lines[-2])


def pico(us: float) -> str:
    """The Pico estimate from design.md: 1 ms of unix-port compute is 60-90 ms."""
    lo, hi = us * 60 / 1000, us * 90 / 1000
    return (f"Pico ~{lo:.2f}-{hi:.2f} ms per reading, {lo * 80 / 10:.1f}-{hi * 80 / 10:.1f}% "
            f"of the CPU at 80/s")



def rows():
    cost = unix_costs()
    yield ("tray", "per reading, a game (unix port)", cost["game"], "us", pico(cost["game"]))
    yield ("tray", "per reading, worst path (unix port)", cost["slide"], "us",
           pico(cost["slide"]) + "; a slow slide scans the whole long window")
    yield ("tray", "per reading, four cells (unix port)", cost["four"], "us", pico(cost["four"]))
    alloc, quiet = cost["alloc4"]
    yield ("tray", "heap allocated per reading, four cells (unix port)", int(alloc), "bytes",
           f"over the {int(quiet):,} readings of a game that returned no event, attempts open "
           f"and closed (gc off, measured around each feed4)")
    yield ("tray", "heap of a four-cell Tray (unix port)", int(cost["ram"]), "bytes",
           f"about {int(cost['ram']) // 2:,} bytes on the Pico (unix objects are twice the size)")
    imported = unix_import_heap()
    yield ("tray", "heap to import catnip.tray (unix port)", imported, "bytes",
           f"about {imported // 2:,} bytes on the Pico; frozen into the firmware, the "
           f"bytecode would stay in flash")
