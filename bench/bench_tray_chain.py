"""The tray chain end to end: a load-cell trace on the simulated table's HX711
models, the real driver reading them, the real estimator calling events.

Two kinds of figures: the chain's own CPU per reading on the MicroPython unix
port (driver run() loop, TrayFeed and Tray, with the chips played back so the
bit-level model's cost stays out), and, for a simulated minute of a game at
10 and 80 readings/s, how many readings the driver delivered of the
conversions the chips made, and whether the events agree with feeding every
conversion straight into the estimator.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(1, str(ROOT / "tests" / "shared"))
sys.path.insert(2, str(ROOT / "devsim"))  # the fake `machine`, as on MicroPython
sys.path.insert(3, str(ROOT / "firmware"))
sys.path.insert(4, str(ROOT))

import mpunix  # noqa: E402

PROBE = Path(__file__).with_name("tray_chain_probe.py")
AREA = "tray chain"
MINUTE_US = 60_000_000
PER_CAT = 4300
NOISE = 86
OFFSET = 152000


def _measure() -> dict[str, float]:
    proc = mpunix.run([str(PROBE)], timeout=300)
    if proc.returncode != 0 or not proc.stdout.rstrip().endswith("OK"):
        raise RuntimeError(f"tray chain probe failed:\n{proc.stdout}\n{proc.stderr}")
    figures = {}
    for line in proc.stdout.splitlines()[:-1]:
        name, value = line.split()
        figures[name] = float(value)
    return figures


def _minute(rate: int, cells: int) -> dict[str, Any]:
    """A minute of play weighed through the chain on the simulated table."""
    from chainrig import check_exact, direct, run
    from tray_checks import session

    from catnip.tray import Calibration, Tray

    s = session(f"chain-minute-{rate}-{cells}", "pppppppppcrppppppcrpppp", rate=rate,
                cells=cells, offset=OFFSET)
    twin = session(f"chain-minute-{rate}-{cells}", "pppppppppcrppppppcrpppp", rate=rate,
                   cells=cells, offset=OFFSET)
    cal = Calibration(rate, [OFFSET] * cells, [1] * cells, PER_CAT, PER_CAT // 50,
                      NOISE * (2 if cells == 4 else 1), 5)
    tray = Tray(cal, wedged=4)
    tray.tare()
    started = time.perf_counter()
    chain = run(s.trace, MINUTE_US, rate, tray=tray)
    host_s = time.perf_counter() - started
    check_exact(chain)
    period = 1_000_000 // rate
    if cells == 1:
        samples = chain.tap.samples()
    else:
        samples = [twin.trace.counts4_at(k * period) for k in range(MINUTE_US // period)]
    _, straight = direct(samples, cal, wedged=4)
    times = list(chain.times)
    gap = max(b - a for a, b in zip(times, times[1:]))
    turns = [rec for rec in s.truth if rec["settle"] < MINUTE_US - 1_000_000]
    return {"delivered": len(times), "expected": MINUTE_US // period,
            "converted": len(chain.tap.times[0]), "restarts": chain.restarts,
            "slowest": min(len(chain.tap.times[i]) for i in range(cells)),
            "gap_ms": gap // 1000, "events": len(chain.events), "turns": len(turns),
            "chain_right": _counted_right(turns, chain.events),
            "direct_right": _counted_right(turns, [(k * period, e) for k, e in straight]),
            "collapses": len([r for r in turns if r["kind"] == "collapse"]),
            "chain_fell": _collapses_called(turns, chain.events),
            "direct_fell": _collapses_called(turns, [(k * period, e) for k, e in straight]),
            "agree": _verdicts(straight) == _verdicts(chain.events), "host_s": host_s}


def _verdicts(events: list[tuple[int, dict]]) -> list[tuple]:
    """What the tray decided, without the timing or the 'a hand is on it' notes."""
    return [(e["ev"], e.get("n"), e.get("cats")) for _, e in events
            if e["ev"] in ("placed", "removed", "collapse")]


def _collapses_called(turns: list[dict], events: list[tuple[int, dict]]) -> int:
    """Collapse turns in which the tray called a collapse."""
    called = 0
    for i, rec in enumerate(turns):
        end = turns[i + 1]["start"] if i + 1 < len(turns) else MINUTE_US
        called += rec["kind"] == "collapse" and any(
            rec["start"] <= t < end and e["ev"] == "collapse" for t, e in events)
    return called


def _counted_right(turns: list[dict], events: list[tuple[int, dict]]) -> int:
    """Turns at whose end the tray's count of cats is the truth's."""
    right = 0
    for i, rec in enumerate(turns):
        end = turns[i + 1]["start"] if i + 1 < len(turns) else MINUTE_US
        said = [e["cats"] for t, e in events if t < end and "cats" in e]
        right += bool(said) and said[-1] == rec["cats"]
    return right


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    for cells in (1, 4):
        board = "one cell" if cells == 1 else "four drifting corner cells"
        for rate in (10, 80):
            m = _minute(rate, cells)
            agree = "the same" if m["agree"] else "not the same"
            # A reading takes one word from every cell, and each HX711 converts
            # at its own oscillator's rate (the datasheet's 10 and 80 SPS are
            # nominal), so the slowest cell's conversions are all there can be.
            share = round(100 * m["delivered"] / m["slowest"], 1)
            yield (AREA, f"conversions delivered as readings, {rate} SPS, {board}", share, "%",
                   f"{m['delivered']} readings in a simulated minute of the slowest cell's "
                   f"{m['slowest']} conversions ({m['expected']} at the nominal rate); "
                   f"{m['restarts']} restarts, longest gap {m['gap_ms']} ms; "
                   f"{m['host_s']:.1f} s of host time")
            yield (AREA, f"turns counted right, {rate} SPS, {board}", m["chain_right"], "",
                   f"of {m['turns']} through the chain, {m['direct_right']} with every "
                   f"conversion fed straight in; collapses called {m['chain_fell']} and "
                   f"{m['direct_fell']} of {m['collapses']}; placed/removed/collapse "
                   f"calls {agree}")
    f = _measure()
    for cells in (1, 4):
        what = "1 cell" if cells == 1 else "4 cells"
        whole = f[f"chain_{cells}_us"]
        yield (AREA, f"CPU per reading, whole chain ({what})", round(whole, 1), "us",
               f"unix port (varies with host load), 80 SPS game: driver run() + TrayFeed + "
               f"Tray, chips played back; "
               f"a Pico at 60-90x: {whole * 60 / 1000:.1f}-{whole * 90 / 1000:.1f} ms")
        yield (AREA, f"of which the driver ({what})", round(f[f"driver_{cells}_us"], 1), "us",
               "the same loop with the readings dropped (includes the played-back pins)")
        yield (AREA, f"of which Tray.feed alone ({what})", round(f[f"tray_{cells}_us"], 1), "us",
               "the estimator fed the same readings in a plain loop")
