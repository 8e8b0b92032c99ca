"""The tray's doors fuzzed: 100,000 generated inputs each (5,000 outside the
full bench; CATNIP_BENCH_FUZZ sets it) through
Calibration.from_dict, Calibrator(...) and a Tray's feed/confirm
(tests/tray_doors.py). The figure is how many exceptions escaped that were
not the tray's own TrayError, or checks that failed (a refused call that
changed something, a message that does not name the field): it must be 0."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT / "tests" / "shared", ROOT / "tests", ROOT / "firmware", ROOT):
    sys.path.insert(0, str(folder))

import tray_doors  # noqa: E402

INPUTS = bench.sized("CATNIP_BENCH_FUZZ", 5000, 100_000)


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    for name in tray_doors.DOORS:
        started = time.perf_counter()
        n, foreign = tray_doors.run(name, INPUTS)
        took = time.perf_counter() - started
        first = f"; first: {foreign[0][:120]}" if foreign else ""
        yield ("tray fuzz", f"{name}: exceptions not TrayError", len(foreign), "",
               f"of {n:,} generated inputs, {took:.0f} s{first}")
