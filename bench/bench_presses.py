"""Presses at the table: over every scripted evening (tests/scenarios) replayed
on the virtual table with waiting players who fidget, how many presses were
acted on, refused with a reason on their station, or lost (tests/pressplay.py
under the MicroPython unix port)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
Row = tuple[str, str, float | int | str, str, str]


def _counts() -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests"))
    import mpunix

    with tempfile.TemporaryDirectory() as flash:
        proc = mpunix.run([str(ROOT / "tests" / "pressplay.py"), flash,
                           *map(str, sorted((ROOT / "tests" / "scenarios").glob("*.json")))],
                          path=[mpunix.SHARED_TESTS], timeout=900)
    if proc.returncode != 0:
        raise subprocess.SubprocessError(proc.stdout[-2000:] + proc.stderr[-2000:])
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def rows() -> Iterator[Row]:
    if not bench.full():
        yield bench.full_only("presses", "presses lost over the scripted evenings")
        return
    counts = _counts()
    total = {k: sum(c[k] for c in counts) for k in ("presses", "acted", "refused", "lost",
                                                      "fidgets", "under")}
    yield ("presses", "presses lost over the scripted evenings", total["lost"], "presses",
           f"of {total['presses']} in {len(counts)} evenings ({total['fidgets']} by waiting "
           f"players; {total['under']} while an announcement showed): {total['acted']} "
           f"acted on, {total['refused']} refused with a reason; target 0")
