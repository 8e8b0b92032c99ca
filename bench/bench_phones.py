"""Phone seats for `make bench` (cheap, on the MicroPython unix port): what a
phone seat's view costs the table, drawn as text and sent after a move, in
Purrfect for seven with four seats on phones (bench/phones_probe.py), and its
Pico estimate (unix x 120, design.md's rule of thumb). The real RP2040's
figures (a phone's press to its view and to every station, the heap with
phone seats) are bench_pico's `phones` and `<game>-phones` parts."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mpunix  # noqa: E402

PROBE = Path(__file__).resolve().parent / "phones_probe.py"
PICO = 120  # a ms of unix-port compute is about this many on the Pico (docs: design.md)


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    proc = mpunix.run([str(PROBE)], path=[mpunix.SHARED_TESTS], timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"phones_probe.py failed:\n{proc.stdout}\n{proc.stderr}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    note = (f"MicroPython unix port, Purrfect 7p with 4 seats on phones, {data['views']} views "
            f"over {data['actions']} actions")
    yield ("phones", "a view drawn as text and sent: median", data["median_us"], "us", note)
    yield ("phones", "a view drawn as text and sent: p95", data["p95_us"], "us", note)
    yield ("phones", "a view drawn and sent on the Pico: median (estimate)",
           round(data["median_us"] * PICO / 1000, 1), "ms",
           f"estimate: unix x {PICO}; bench_pico's phones part measures it on the real build")
    yield ("phones", "a view's frame on the line: average", data["bytes"], "B", note)
