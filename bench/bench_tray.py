"""Tray estimator against synthetic games with ground truth.

For each data rate and noise level: calibrate the way a maker would (tare,
then five cats one at a time), then play whole games of Stack O' Cats onto
fresh traces until at least PLACEMENTS cats have been placed, feeding every
reading to catnip.tray.Tray. A simulated player answers the tray's "how many
cats?" questions truthfully after each turn, as a person at the table would.

Per configuration it reports: settled counts right (the tray's count at the
end of each turn against the truth), false placements and false collapses per
1,000 turns, missed collapses, questions asked per 1,000 turns, and the
detection latency of placements (ms from the moment the load physically
settles to the tray's verdict; negative means it called the placement while
the last wobble was still dying away). One more row: the per-reading cost on
the MicroPython unix port.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))

from catnip.tray import Calibrator, Tray  # noqa: E402
from devsim.traces import Session  # noqa: E402

PER_CAT = 4300  # a 10 g cat on a 5 kg cell through an HX711 at gain 128
NOISE_PCT = (0.5, 2.0, 5.0, 10.0)  # reading noise, percent of a cat
REALISTIC_PCT = 2.0
PLACEMENTS = int(os.environ.get("CATNIP_BENCH_PLACEMENTS", "10000"))


@dataclass
class Score:
    rate: int
    noise_pct: float
    turns: int = 0
    placements: int = 0
    collapses: int = 0
    right: int = 0
    false_placed: int = 0
    placed_then_collapse: int = 0
    missed_placed: int = 0
    false_collapse: int = 0
    missed_collapse: int = 0
    struck: int = 0  # collapses in which a cat struck the tray
    missed_struck: int = 0
    asks: int = 0
    samples: int = 0
    latency_ms: list[float] = field(default_factory=list)
    wrong: list[dict] = field(default_factory=list)

    def per_1000(self, count: int) -> float:
        return 1000 * count / max(1, self.turns)

    def latency(self, q: float) -> float:
        xs = sorted(self.latency_ms)
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def calibrate(rate: int, noise: int, cells: int = 1, seed: str = "bench-cal"):
    session = Session(seed, rate_hz=rate, cells=cells, noise=noise, per_cat=PER_CAT)
    marks = session.calibrate(5)
    cal = Calibrator(rate, cells)
    trace = session.trace
    k, mark = 0, 0
    while k * trace.period < session.t + 2_000_000:
        t = k * trace.period
        if mark < len(marks) and t >= marks[mark][0]:
            cal.capture(marks[mark][1])
            mark += 1
        if cells == 1:
            done = cal.feed(trace.counts_at(t))
        else:
            done = cal.feed4(*trace.counts4_at(t))
        if done and not done["ok"]:
            raise RuntimeError(f"calibration refused: {done['why']}")
        k += 1
    return cal.result()


def play(score: Score, cal, seed: str, noise: int, cells: int = 1) -> None:
    session = Session(seed, rate_hz=score.rate, cells=cells, noise=noise, per_cat=PER_CAT)
    truth = session.game()
    trace = session.trace
    tray = Tray(cal, wedged=Session.WEDGED)
    tray.tare()
    bounds = [rec["start"] for rec in truth[1:]] + [session.t]
    turn = 0
    events: list[tuple[int, dict]] = []
    k = 0
    while k * trace.period < session.t:
        t = k * trace.period
        while turn < len(truth) and t >= bounds[turn]:
            judge(score, truth[turn], events, tray, seed)
            events = []
            turn += 1
        ev = tray.feed(trace.counts_at(t)) if cells == 1 else tray.feed4(*trace.counts4_at(t))
        if ev is not None:
            events.append((t, ev))
        k += 1
    score.samples += k
    if turn < len(truth):
        judge(score, truth[turn], events, tray, seed)


def judge(score: Score, rec: dict, events: list[tuple[int, dict]], tray: Tray,
          seed: str) -> None:
    kind = rec["kind"]
    score.turns += 1
    placed = [(t, e) for t, e in events if e["ev"] == "placed"]
    collapses = [e for _, e in events if e["ev"] == "collapse"]
    asks = [e["ask"] for _, e in events if e.get("ask", {}).get("ask") == "cats"]
    if kind == "placed":
        score.placements += 1
        if placed:
            score.latency_ms.append((placed[-1][0] - rec["settle"]) / 1000)
        else:
            score.missed_placed += 1
    if kind == "collapse":
        score.placed_then_collapse += len(placed)
    else:
        score.false_placed += max(0, len(placed) - (kind == "placed"))
    if kind == "collapse":
        score.collapses += 1
        score.missed_collapse += not collapses
        if rec["hit"]:
            score.struck += 1
            score.missed_struck += not collapses
    else:
        score.false_collapse += len(collapses)
    score.asks += len(asks)
    if tray.cats == rec["cats"]:
        score.right += 1
    elif len(score.wrong) < 20:
        score.wrong.append({"seed": seed, "truth": rec, "tray": tray.cats,
                            "events": [(t // 1000, e) for t, e in events]})
    # The person at the table answers the tray's questions.
    for ask in asks:
        if ask["id"] in tray.pending:
            tray.confirm(ask["id"], max(ask["min"], min(ask["max"], rec["cats"])))


def evaluate(rate: int, noise_pct: float, placements: int = PLACEMENTS, cells: int = 1,
             seed: str = "bench") -> Score:
    noise = round(PER_CAT * noise_pct / 100)
    cal = calibrate(rate, noise, cells)
    score = Score(rate, noise_pct)
    game = 0
    while score.placements < placements:
        play(score, cal, f"{seed}-{rate}-{noise_pct:g}-{game}", noise, cells)
        game += 1
    return score


def table_rows(score: Score):
    area = "tray"
    where = f"{score.rate}/s, noise {score.noise_pct:g}% of a cat"
    yield (area, f"settled counts right, {where}", f"{100 * score.right / score.turns:.2f}", "%",
           f"{score.turns:,} turns, {score.placements:,} placements, {score.collapses:,} "
           f"collapses; {score.turns - score.right} wrong")
    yield (area, f"false placements, {where}", score.per_1000(score.false_placed), "/1000 turns",
           f"missed placements {score.missed_placed}; {score.placed_then_collapse} called "
           f"just before the tower fell in the same turn")
    yield (area, f"false collapses, {where}", score.per_1000(score.false_collapse), "/1000 turns",
           f"missed {score.missed_collapse} of {score.collapses} collapses, "
           f"{score.missed_struck} of the {score.struck} where a cat struck the tray")
    yield (area, f"questions asked, {where}", score.per_1000(score.asks), "/1000 turns",
           "'how many cats?' when the change is not whole cats")
    period = 1000 / score.rate
    yield (area, f"latency median, {where}", score.latency(0.5), "ms",
           f"{score.latency(0.5) / period:+.1f} samples after the load settles")
    yield (area, f"latency p95, {where}", score.latency(0.95), "ms",
           f"{score.latency(0.95) / period:+.1f} samples")


COST_SCRIPT = """
import gc, time
from devsim.traces import Session
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
gc.collect()
before = gc.mem_alloc()
tray = Tray(cal4, wedged=4)
gc.collect()
print('ram', gc.mem_alloc() - before)
print('OK')
"""


def unix_costs() -> dict[str, float]:
    """Per-reading cost (us) on the MicroPython unix port, with the traces
    generated first so only the tray runs inside the timed loops; and the
    heap a four-cell Tray takes (bytes)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import mpunix

    proc = mpunix.run(["-c", COST_SCRIPT], heap=16 * 1024 * 1024)
    lines = proc.stdout.split("\n")
    if proc.returncode != 0 or "OK" not in lines:
        raise RuntimeError(f"micropython failed: {proc.stdout}{proc.stderr}")
    return {name: float(value) for name, value in
            (line.split() for line in lines if line and line != "OK")}


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
    started = time.perf_counter()
    for rate in (10, 80):
        for pct in NOISE_PCT:
            yield from table_rows(evaluate(rate, pct))
    cost = unix_costs()
    yield ("tray", "per reading, a game (unix port)", cost["game"], "us", pico(cost["game"]))
    yield ("tray", "per reading, worst path (unix port)", cost["slide"], "us",
           pico(cost["slide"]) + "; a slow slide scans the whole long window")
    yield ("tray", "per reading, four cells (unix port)", cost["four"], "us", pico(cost["four"]))
    yield ("tray", "heap of a four-cell Tray (unix port)", int(cost["ram"]), "bytes",
           f"about {int(cost['ram']) // 2:,} bytes on the Pico (unix objects are twice the size)")
    imported = unix_import_heap()
    yield ("tray", "heap to import catnip.tray (unix port)", imported, "bytes",
           f"about {imported // 2:,} bytes on the Pico; frozen into the firmware, the "
           f"bytecode would stay in flash")
    yield ("tray", "benchmark wall time, CPython", time.perf_counter() - started, "s",
           f"{PLACEMENTS:,} placements per row")
