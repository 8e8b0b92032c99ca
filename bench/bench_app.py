"""The table app's rows for `make bench`: press-to-pixels on a station (one
station, and the pressing station and the whole table when every panel
redraws), and the smallest MicroPython heap in which the whole app plays each
game at its largest player count on the mux board with every station."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import mpunix  # noqa: E402

from bench import mpheap  # noqa: E402

PROBE = HERE / "app_probe.py"
PATH = [mpunix.SHARED_TESTS, HERE]
PICO = 120  # unix-port compute x this = the Pico (a real rp2 build runs 100-135x slower here)
POLL_MS = 10  # a press waits at most one button poll
# A journal save per accepted action on the Pico: the mean measured on the
# real rp2 build (`python -m bench.bench_journal rp2emu`); about one save in
# eight takes 50-165 ms while littlefs compacts its metadata.
JOURNAL_MS = 12


def measure() -> dict:
    proc = mpunix.run([str(PROBE), "press"], path=PATH, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"app_probe.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _pico_ms(work_us: int, wire_us: int, writes: int) -> float:
    return POLL_MS + work_us * PICO / 1000 + wire_us / 1000 + writes * JOURNAL_MS


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    how = (f"estimate: {POLL_MS} ms poll + unix compute x{PICO} + I2C at 400 kHz"
           f" + {JOURNAL_MS} ms a journal save (real-build mean; 1 in 8 takes 50-165 ms)")
    for name, d in measure().items():
        n = d["stations"]
        for label, key in (("cursor move, one station", "move"),
                           ("action, the pressing station", "act_first"),
                           (f"action, all {n} stations", "act_all")):
            work, sent, wire, writes = d[key]
            yield ("app", f"{name}: press-to-pixels, {label}", round(_pico_ms(work, wire, writes), 1),
                   "ms", f"{how}; {sent} B, unix {work} µs")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = mpheap.compile_firmware(Path(tmp))
        shutil.copytree(mpunix.FIRMWARE / "boards", Path(tmp) / "boards")  # beside the package
        code = int(mpunix.run(["-c", prefix + CODE], path=PATH).stdout.split()[-1])
        yield ("app", "firmware code in the heap, every module loaded", code, "B",
               "unix port, precompiled .mpy as deployed")
        sim = _min_heap(prefix + "import app_probe\napp_probe.idle()\n")
        yield ("app", "the simulated table and test player alone", sim, "B",
               "unix port: what each figure below holds that a Pico does not")
        for name in ("heist", "stack", "purrfect"):
            total = _min_heap(prefix + f"import app_probe\napp_probe.game({name!r})\n")
            yield ("app", f"{name}: smallest unix heap, whole app, largest count", total, "B",
                   f"mux board, every station seated; the app's share {total - sim:,} B, "
                   f"Pico ≈ x0.85: {int((total - sim) * 0.85):,} B (the pico tier measures it)")


def _min_heap(script: str) -> int:
    return mpheap.min_heap(script, PATH, lo=16_384, hi=2 * 1024 * 1024, step=2_048)


CODE = """import gc
gc.collect()
before = gc.mem_alloc()
for m in ("catnip.table.app", "catnip.parts.hardware", "catnip.flash.journal", "catnip.boot", "catnip.link.line",
          "catnip.table.weigh", "catnip.ui.heist", "catnip.ui.stack", "catnip.ui.purrfect",
          "catnip.rules.heist", "catnip.rules.stack", "catnip.rules.purrfect"):
    __import__(m)
gc.collect()
print(gc.mem_alloc() - before)
"""
