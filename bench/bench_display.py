"""Display rows for `make bench`: I2C traffic of catnip's SSD1306 and SH1106
drivers against a driver that sends the whole frame on every show(), and
show()'s own CPU cost, measured under the MicroPython unix port (bus time at
400 kHz from the bytes; the real-RP2040 push times are bench_pico's)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mpunix  # noqa: E402

SCENES = Path(__file__).resolve().parent / "display_scenes.py"
PICO_FACTOR = (60, 90)  # unix-port µs -> Pico µs, from docs/design notes


def measure() -> dict:
    proc = mpunix.run([str(SCENES)], timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"display_scenes.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    data = measure()
    for kinds in data["traffic"]:
        scene = kinds["scene"]
        (ours_b, ours_us), (base_b, base_us) = kinds["ours"], kinds["baseline"]
        sh_b, sh_us = kinds["sh1106"]
        mux = f"; {kinds['stations']} mux selects of 2 B included" if kinds["stations"] > 1 else ""
        yield "display", f"{scene}: catnip", ours_b, "B", f"{ours_us / 1000:.2f} ms at 400 kHz{mux}"
        yield ("display", f"{scene}: catnip, SH1106", sh_b, "B",
               f"{sh_us / 1000:.2f} ms at 400 kHz{mux}; a page command per page sent")
        yield "display", f"{scene}: whole frame", base_b, "B", f"{base_us / 1000:.2f} ms at 400 kHz{mux}"
        yield "display", f"{scene}: ratio", round(base_b / ours_b, 2), "x", "whole-frame bytes / catnip bytes"
    low, high = PICO_FACTOR
    for case, us in data["cpu_us"]:
        yield ("display", f"show() CPU, {case}", round(us, 2), "µs",
               f"unix port, I2C excluded; Pico ≈ {us * low:.0f}-{us * high:.0f} µs")
    heap = data["heap_per_panel"]
    yield ("display", "heap per panel (its frame and marks; one canvas serves all)", heap, "B",
           f"unix port; Pico ≈ {heap // 2} B")
