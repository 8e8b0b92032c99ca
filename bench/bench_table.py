"""The assembled table: I2C traffic of whole frames (every station's screen
flushed, one button poll) on the mux board with seven players, measured on
the simulated table under the MicroPython unix port; the firmware's CPU per
frame; and the heap the hardware layer takes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import mpunix  # noqa: E402

Row = tuple[str, str, float | int | str, str, str]
FRAMES = Path(__file__).resolve().parent / "table_frames.py"
PICO_FACTOR = (60, 90)  # unix-port µs -> Pico µs (design notes)

_IMPORT = r"""
import gc
import machine, asyncio, framebuf, json
import catnip.board  # read board.json with it first, hardware or not
gc.collect()
before = gc.mem_alloc()
import catnip.parts.hardware
gc.collect()
print(gc.mem_alloc() - before)
print("OK")
"""

SCENES = (
    ("press", "a press read on INT (poll only)"),
    ("cursor", "that player's cursor moves"),
    ("cursor_all", "every cursor moves"),
    ("status", "a status line changes on every screen"),
    ("redraw", "every screen redrawn (new round)"),
    ("nothing", "nothing changed, INT idle"),
)


def _measure() -> dict:
    proc = mpunix.run([str(FRAMES)], path=[ROOT / "tests" / "shared"], timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"table_frames.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _import_heap() -> int:
    proc = mpunix.run(["-c", _IMPORT])
    lines = proc.stdout.split()
    if not lines or lines[-1] != "OK":
        raise RuntimeError(f"import measurement failed:\n{proc.stdout}\n{proc.stderr}")
    return int(lines[0])


def rows() -> Iterator[Row]:
    data = _measure()
    frames = data["traffic"]
    for key, what in SCENES:
        sent, wire_us = frames[key]
        yield ("table", f"7-player frame, mux board: {what}", sent, "B",
               f"{wire_us / 1000:.2f} ms of I2C at 400 kHz, mux selects included")
    sent, wire_us = frames["idle_10s"]
    yield ("table", "idle table: probes and fallback reads", round(sent / 10), "B/s",
           f"{wire_us / 10000:.2f} ms of bus per second: panel status each 1 s, "
           "every expander each 1 s")
    low, high = PICO_FACTOR
    for key, what in (("cpu_busy_us", "every cursor moved"), ("cpu_idle_us", "nothing changed")):
        us = data[key]
        yield ("table", f"frame CPU (poll + 8 flushes), {what}", round(us, 1), "µs",
               f"unix port, bus stubbed; Pico ≈ {us * low / 1000:.1f}-{us * high / 1000:.1f} ms")
    heap = data["heap"]
    yield ("table", "heap of the hardware for 7 players", heap, "B",
           f"unix port (8 panels and their canvas, 7 debouncers, drivers); Pico ≈ {heap // 2:,} B")
    imported = _import_heap()
    yield ("table", "heap of importing catnip.parts.hardware", imported, "B",
           "unix port, from source, catnip.board already in (with drivers, screen, health); "
           f"Pico ≈ {imported // 2:,} B, less when frozen")
