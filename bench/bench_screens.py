"""Screen rows for `make bench`: the screen census (every screen of every
scene, game, player count and setting, at the size of every panel a shipped
board has) and what it found: lines cut at the panel's edge or left out,
glyphs drawn over others, strings run together, own hands scrolled away,
and pictures that the SSD1306 or SH1106 model, fed by its driver, shows
otherwise (every 16th picture decoded).
Run under the MicroPython unix port, where the firmware's framebuf is."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mpunix  # noqa: E402

PROBE = Path(__file__).resolve().parent / "screens_probe.py"


def measure() -> dict[str, dict[str, int]]:
    proc = mpunix.run([str(PROBE)], path=[mpunix.SHARED_TESTS], timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"screens_probe.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    data = measure()
    screens = sum(a["screens"] for a in data.values())
    for kind, what in (("cut", "cut lines"), ("over", "glyphs over others"),
                       ("touching", "strings run together"),
                       ("hand", "own hands scrolled away where they fit"),
                       ("panel", "pictures a panel model (SSD1306, SH1106) showed otherwise")):
        found = sum(a.get(kind, 0) for a in data.values())
        by_area = ", ".join(f"{area} {a.get(kind, 0)}" for area, a in data.items())
        yield "screens", f"census: {what}", found, "", f"over {screens:,} screens ({by_area})"
    for area, a in data.items():
        yield "screens", f"census: {area} screens drawn", a["screens"], "", "at every shipped panel size"
