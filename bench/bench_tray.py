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
    yield (area, f"settled counts right, {where}", 100 * score.right / score.turns, "%",
           f"{score.turns:,} turns, {score.placements:,} placements, {score.collapses:,} collapses")
    yield (area, f"false placements, {where}", score.per_1000(score.false_placed), "/1000 turns",
           f"missed placements {score.missed_placed}")
    yield (area, f"false collapses, {where}", score.per_1000(score.false_collapse), "/1000 turns",
           f"missed collapses {score.missed_collapse} of {score.collapses}")
    yield (area, f"questions asked, {where}", score.per_1000(score.asks), "/1000 turns",
           "'how many cats?' when the change is not whole cats")
    period = 1000 / score.rate
    yield (area, f"latency median, {where}", score.latency(0.5), "ms",
           f"{score.latency(0.5) / period:+.1f} samples after the load settles")
    yield (area, f"latency p95, {where}", score.latency(0.95), "ms",
           f"{score.latency(0.95) / period:+.1f} samples")


def unix_cost() -> float:
    """Microseconds per reading on the MicroPython unix port, over a recorded
    game at 80 samples/s (the trace is generated first, then only the tray
    runs inside the timed loop)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import mpunix

    script = (
        "import time\n"
        "from devsim.traces import Session\n"
        "from catnip.tray import Tray, Calibration\n"
        "s = Session('cost', rate_hz=80, noise=86, per_cat=4300)\n"
        "s.game(bag=12)\n"
        "tr = s.trace\n"
        "raws = [tr.counts_at(k * tr.period) for k in range(s.t // tr.period)]\n"
        "cal = Calibration(80, [raws[0]], [1], 4300, 215, 86, 5)\n"
        "best = None\n"
        "for _ in range(3):\n"
        "    tray = Tray(cal, wedged=4)\n"
        "    tray.tare()\n"
        "    feed = tray.feed\n"
        "    t0 = time.ticks_us()\n"
        "    for r in raws:\n"
        "        feed(r)\n"
        "    dt = time.ticks_diff(time.ticks_us(), t0)\n"
        "    best = dt if best is None or dt < best else best\n"
        "print(best / len(raws))\n"
        "print('OK')\n"
    )
    proc = mpunix.run(["-c", script])
    lines = proc.stdout.split()
    if proc.returncode != 0 or not lines or lines[-1] != "OK":
        raise RuntimeError(f"micropython failed: {proc.stdout}{proc.stderr}")
    return float(lines[-2])


def rows():
    started = time.perf_counter()
    for rate in (10, 80):
        for pct in NOISE_PCT:
            yield from table_rows(evaluate(rate, pct))
    cost = unix_cost()
    yield ("tray", "per reading, MicroPython unix port", cost, "us",
           f"Pico estimate {cost * 60 / 1000:.1f}-{cost * 90 / 1000:.1f} ms per reading "
           f"(x60-90); at 80/s that is {cost * 60 * 80 / 10000:.1f}-"
           f"{cost * 90 * 80 / 10000:.1f}% of the CPU")
    yield ("tray", "benchmark wall time, CPython", time.perf_counter() - started, "s",
           f"{PLACEMENTS:,} placements per row")
