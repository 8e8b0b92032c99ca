"""Tray estimator against synthetic games with ground truth, judged turn by turn.

For each data rate and noise level: calibrate the way a maker would (tare,
then five cats one at a time), then play whole games of Stack O' Cats onto
fresh traces until at least TURNS turns have been played, feeding every
reading to catnip.tray.Tray. A simulated app drives the tray as the device
does: begin_attempt() when a player's attempt starts, verdict() when the
next turn begins, a person who answers every proposal truthfully, and
agree() with the true tower after each attempt (the app agrees the rules'
tower after every report).

Per configuration it reports: turns judged right (the verdict's kind and the
tray's count), collapses called as collapses, removals called as removals,
false placements and questions per 1,000 turns, impossible answers (a count
or tower outside 0..in play, a question whose default is outside its range
or whose truthful answer confirm() refuses), and the latency of placements
in readings from the first reading that shows the settled load (and from
the physical settle moment). More rows: the per-reading cost on the
MicroPython unix port.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))

from catnip.tray import Tray, TrayError  # noqa: E402
from catnip.tray.calibrator import Calibrator  # noqa: E402
from devsim.sessions import Session  # noqa: E402

import bench  # noqa: E402
from bench import tray_costs  # noqa: E402

PER_CAT = 4300  # a 10 g cat on a 5 kg cell through an HX711 at gain 128
NOISE_PCT = (0.5, 2.0, 5.0, 10.0)  # reading noise, percent of a cat
TURNS = bench.sized("CATNIP_BENCH_TURNS", 2000, 10_000)
BAG = 36  # cats in the bag; with the wedged ones, every cat in play
IN_PLAY = BAG + Session.WEDGED
ATTEMPTS = ("placed", "collapse")  # truth turns that are a player's attempt


@dataclass
class Score:
    rate: int
    noise_pct: float
    turns: int = 0
    right: int = 0
    asked: int = 0  # turns whose verdict (or the tray between attempts) asked
    kinds: dict[str, list[int]] = field(default_factory=dict)  # kind -> [turns, right]
    collapses: int = 0
    collapses_called: int = 0
    struck: int = 0
    struck_called: int = 0
    removals: int = 0
    removals_called: int = 0
    false_placed: int = 0
    touch_collapses: int = 0  # touches called a collapse (events or the verdict)
    impossible: int = 0
    early: int = 0  # placements called before the first settled reading
    latency: list[float] = field(default_factory=list)  # readings after the first settled one
    physical: list[float] = field(default_factory=list)  # readings after the physical settle
    wrong: list[dict] = field(default_factory=list)

    def per_1000(self, count: int) -> float:
        return 1000 * count / max(1, self.turns)

    @staticmethod
    def quantile(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def calibrate(rate: int, noise: int, cells: int = 1, seed: str = "bench-cal"):
    session = Session(seed, rate_hz=rate, cells=cells, noise=noise, per_cat=PER_CAT)
    cal = Calibrator(rate, cells)
    for done in session.calibrated(cal, 5, after_us=2_000_000):
        if not done["ok"]:
            raise RuntimeError(f"calibration refused: {done['why']}")
    return cal.result()


def play(score: Score, cal, seed: str, noise: int, touch_pct: int = 5,
         attempts: tuple[str, ...] = ATTEMPTS) -> None:
    session = Session(seed, rate_hz=score.rate, noise=noise, per_cat=PER_CAT)
    truth = session.game(bag=BAG, touch_pct=touch_pct)
    trace = session.trace
    tray = Tray(cal, wedged=Session.WEDGED, in_play=IN_PLAY)
    tray.tare()
    turn = -1
    events: list[tuple[int, dict]] = []
    verdict = None
    k = 0
    while k * trace.period < session.t:
        t = k * trace.period
        while turn + 1 < len(truth) and t >= truth[turn + 1]["start"]:
            if turn >= 0:
                judge(score, truth[turn], events, verdict, tray, seed, trace.period)
            events, verdict = [], None
            turn += 1
            if truth[turn]["kind"] in attempts:
                tray.begin_attempt()
        ev = tray.feed(trace.counts_at(t))
        if ev is not None:
            events.append((t, ev))
            score.impossible += not possible(ev, tray)
            # The app asks for the attempt's verdict when the tray settles,
            # and again on a collapse (a tower can fall after its cat was
            # placed, before the player answered; more cats can fall).
            if ev["ev"] == "collapse" and tray.turn.attempt:
                verdict = None
            if ev["ev"] in ("settled", "collapse") and tray.turn.attempt and verdict is None:
                verdict = tray.verdict()
                if verdict is not None and verdict["kind"] == "none":
                    verdict = None  # nothing yet: the attempt goes on
        k += 1
    if turn >= 0:
        judge(score, truth[turn], events, verdict, tray, seed, trace.period)


def possible(ev: dict, tray: Tray) -> bool:
    """An answer the game allows: counts within 0..in play, a question with
    min <= default <= max (all whole numbers)."""
    ok = 0 <= tray.tower <= tray.cats <= IN_PLAY
    if "cats" in ev:
        ok = ok and 0 <= ev["cats"] <= IN_PLAY
    ask = ev.get("ask") if "ev" in ev else ev
    if ask is not None:
        ok = ok and all(type(ask[k]) is int for k in ("default", "min", "max"))
        ok = ok and ask["min"] <= ask["default"] <= ask["max"]
    return ok


def judge(score: Score, rec: dict, events: list[tuple[int, dict]], verdict: dict | None,
          tray: Tray, seed: str, period: int) -> None:
    kind = rec["kind"]
    score.turns += 1
    calls = [e for _, e in events if e["ev"] in ("placed", "removed", "collapse")]
    placed = [(t, e) for t, e in events if e["ev"] == "placed"]
    if tray.turn.attempt and verdict is None:
        verdict = tray.verdict()  # the turn is over: whatever the tray says now
    if verdict is not None:
        score.impossible += not possible(verdict, tray)
    if kind == "placed":
        ok = verdict is not None and verdict["kind"] == "placed" and verdict["n"] == 1
        if placed:
            t_call = placed[0][0]
            first = -(-(rec["settle"] + period) // period) * period  # first settled reading
            score.latency.append((t_call - first) / period)
            score.physical.append((t_call - rec["settle"]) / period)
            score.early += t_call < first
    elif kind == "collapse":
        ok = verdict is not None and verdict["kind"] == "collapse"
        score.collapses += 1
        score.collapses_called += ok
        if rec["hit"]:
            score.struck += 1
            score.struck_called += ok
    elif kind == "removed":
        removed = sum(e["n"] for e in calls if e["ev"] == "removed")
        ok = removed == rec["n"] and len(calls) == len([e for e in calls if e["ev"] == "removed"])
        score.removals += 1
        score.removals_called += ok
    else:  # a touch, a fault
        ok = not calls
        if kind == "touch":
            score.touch_collapses += any(e["ev"] == "collapse" for e in calls) or (
                verdict is not None and verdict["kind"] == "collapse")
    if kind != "collapse":
        score.false_placed += max(0, len(placed) - (kind == "placed"))
    asks = [e["ask"] for _, e in events if e.get("ask", {}).get("ask") == "cats"]
    asked = bool(asks) or (verdict is not None and verdict["kind"] in ("ask", "none"))
    ok = ok and tray.cats == rec["cats"]
    score.asked += asked
    score.right += ok and not asked
    tally = score.kinds.setdefault(kind, [0, 0])
    tally[0] += 1
    tally[1] += ok and not asked
    if not (ok and not asked) and len(score.wrong) < 20:
        score.wrong.append({"seed": seed, "truth": rec, "tray": tray.cats, "verdict": verdict,
                            "ok": ok, "asked": asked,
                            "events": [(t // 1000, e) for t, e in events]})
    # The person at the table answers: the proposal, or the truth; the
    # rules' tower then is what the tray follows (catnip/table/weigh.py agrees it
    # after every report).
    if verdict is not None:
        answer(score, tray, verdict, rec)
    if kind in ATTEMPTS:
        tray.agree(rec["tower"])
    for ask in asks:
        if ask["id"] in tray.pending:
            answer(score, tray, ask, rec)


def answer(score: Score, tray: Tray, ask: dict, rec: dict) -> None:
    if ask["ask"] == "added":
        value = ask["default"]
    else:
        value = rec["cats"] if ask["ask"] == "cats" else rec.get("fell", ask["default"])
    value = max(ask["min"], min(ask["max"], value))
    try:
        tray.confirm(ask["id"], value)
    except TrayError:
        score.impossible += 1  # a truthful answer within the range was refused


def evaluate(rate: int, noise_pct: float, turns: int = TURNS, seed: str = "bench") -> Score:
    noise = round(PER_CAT * noise_pct / 100)
    cal = calibrate(rate, noise)
    score = Score(rate, noise_pct)
    game = 0
    while score.turns < turns:
        play(score, cal, f"{seed}-{rate}-{noise_pct:g}-{game}", noise)
        game += 1
    return score


def touches_in_attempts(rate: int, noise_pct: float, touches: int) -> tuple[int, int, int]:
    """Games where a hand touches the tower in one turn of three, each touch
    during an attempt (where the tray calls placements on a shorter window,
    and at 10/s takes a landing's rise alone for a collapse): (touches,
    placed events in them, touches called a collapse)."""
    noise = round(PER_CAT * noise_pct / 100)
    cal = calibrate(rate, noise)
    score = Score(rate, noise_pct)
    game = 0
    while score.kinds.get("touch", [0])[0] < touches:
        play(score, cal, f"touchy-{rate}-{noise_pct:g}-{game}", noise, touch_pct=33,
             attempts=ATTEMPTS + ("touch",))
        game += 1
    return score.kinds["touch"][0], score.false_placed, score.touch_collapses


def lean_errors(sessions: int = 20) -> dict[str, list[int]]:
    """The lean of a four-cell tray whose cells differ by up to 6% in gain,
    against where the cats' weight really sits: every settled turn's error in
    x and y (thousandths of half the cell spacing), with each cell's gain
    calibrated by a cat above each corner, and without."""
    import random

    sys.path.insert(0, str(ROOT / "tests" / "shared"))
    from tray_checks import calibrate as calibrate_trace
    from tray_checks import play as play_trace
    from tray_checks import session as scripted

    r = random.Random("lean")
    errors: dict[str, list[int]] = {"calibrated": [], "uncalibrated": []}
    for k in range(sessions):
        gains = tuple(1 + r.uniform(-0.06, 0.06) for _ in range(4))
        for which, corners in (("calibrated", True), ("uncalibrated", False)):
            cal = calibrate_trace(80, 86, cells=4, seed=f"lean-cal-{k}", corners=corners,
                                  gains=gains)[0].result()
            played = play_trace(scripted(f"lean-{k}", "pppppppppp", cells=4, gains=gains), cal)
            for i, rec in enumerate(played.truth):
                settled = [e for _, e in played.turn_events[i] if e["ev"] == "settled"]
                if settled:
                    _, x, y = settled[-1]["lean"]
                    errors[which] += [abs(x - rec["lean"][1]), abs(y - rec["lean"][2])]
    return errors


def table_rows(score: Score):
    area = "tray"
    where = f"{score.rate}/s, noise {score.noise_pct:g}%"
    kinds = ", ".join(f"{k} {r:,} of {n:,}" for k, (n, r) in sorted(score.kinds.items()))
    yield (area, f"turns judged right, {where}", f"{100 * score.right / score.turns:.2f}", "%",
           f"{score.right:,} of {score.turns:,} turns (kind and count); {kinds}; "
           f"{score.turns - score.right - score.asked} wrong, {score.asked} asked")
    yield (area, f"collapses called as collapses, {where}",
           f"{100 * score.collapses_called / max(1, score.collapses):.2f}", "%",
           f"{score.collapses_called:,} of {score.collapses:,}; "
           f"{score.struck_called:,} of the {score.struck:,} where a cat struck the tray")
    yield (area, f"removals called as removals, {where}",
           f"{100 * score.removals_called / max(1, score.removals):.2f}", "%",
           f"{score.removals_called:,} of {score.removals:,}")
    yield (area, f"false placements, {where}", score.per_1000(score.false_placed), "/1000 turns",
           f"{score.false_placed} placed events in turns that placed nothing")
    yield (area, f"questions, {where}", score.per_1000(score.asked), "/1000 turns",
           "turns where the tray asked how many cats are on it")
    yield (area, f"impossible answers, {where}", score.impossible, "",
           "counts outside 0..in play, questions outside min <= default <= max, refused "
           "truthful answers")
    lat, phys = score.latency, score.physical
    yield (area, f"latency median / p95, {where}",
           f"{score.quantile(lat, 0.5):.0f} / {score.quantile(lat, 0.95):.0f}", "readings",
           f"after the first reading of the settled load ({len(lat):,} placements); from the "
           f"physical settle {score.quantile(phys, 0.5):.1f} / {score.quantile(phys, 0.95):.1f};"
           f" {score.early} called before the load settled")


def rows():
    started = time.perf_counter()
    for rate in (10, 80):
        for pct in NOISE_PCT:
            yield from table_rows(evaluate(rate, pct))
    for rate in (10, 80):
        for pct in (0.5, 2.0):
            n, false, fell = touches_in_attempts(rate, pct, max(1000, TURNS // 5))
            yield ("tray", f"false placements, touches during attempts, {rate}/s, noise {pct:g}%",
                   1000 * false / n, "/1000 touches",
                   f"{false} placed events in {n:,} touches (press, poke, cat lifted and "
                   f"reseated) made while an attempt was open; {fell} called a collapse")
    errors = lean_errors()
    cal, raw = errors["calibrated"], errors["uncalibrated"]
    yield ("tray", "lean error p95 / max, four cells, gains calibrated",
           f"{Score.quantile(cal, 0.95):.0f} / {max(cal)}", "thousandths",
           f"of half the cell spacing, {len(cal) // 2} settled turns, cells up to 6% apart in "
           f"gain, a cat above each corner; uncalibrated {Score.quantile(raw, 0.95):.0f} / "
           f"{max(raw)}")
    yield from tray_costs.rows()
    yield ("tray", "benchmark wall time, CPython", time.perf_counter() - started, "s",
           f"{TURNS:,} turns per row")
