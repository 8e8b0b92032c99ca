"""The tray calibration's rows for `make bench`: the heap the app holds while
a calibration runs and after it ends, on the MicroPython unix port with the
firmware precompiled as deployed. Its code (catnip.table.calibrate, its screen and,
between games, the tray package) is loaded only for it and unloaded after, so
what it leaves behind should be nothing."""

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

PATH = [mpunix.SHARED_TESTS, HERE]


def measure() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        prefix = mpheap.compile_firmware(Path(tmp))
        shutil.copytree(mpunix.FIRMWARE / "boards", Path(tmp) / "boards")  # beside the package
        proc = mpunix.run(["-c", prefix + "import calibrate_probe\ncalibrate_probe.main()\n"],
                          path=PATH, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"calibrate_probe.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    d = measure()
    how = "unix port, .mpy as deployed, mux board (four cells), calibrated over the line"
    yield ("calibrate", "heap held in setup, before", d["before"], "B",
           f"{how}; the simulated table's share included")
    yield ("calibrate", "heap held while it runs, most", d["most"] - d["before"], "B",
           f"{how}: its code, the tray package and the Calibrator; Pico ≈ x0.85: "
           f"{int((d['most'] - d['before']) * 0.85):,} B")
    yield ("calibrate", "heap held after it ends", d["after"] - d["before"], "B",
           f"{how}; what stays is the new calibration the next game weighs with and the "
           f"line's copy of the 'Tray calibrated' frame; modules it loaded that stayed: "
           f"{', '.join(d['stayed']) or 'none'}")
