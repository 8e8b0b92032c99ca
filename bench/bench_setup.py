"""Setup rows for `make bench`: presses from power-on to the first lock (the
first move the rules accept), for every title at 2, 4 and its most players,
from the previous game's settings and from factory settings. Counted on the
table app itself under the MicroPython unix port, on the simulated mux board
(eight stations), tapping its buttons (tests/shared/setupplay.py)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import mpunix  # noqa: E402

PREVIOUS_MOST = 8
FACTORY_MOST = 12
_SCRIPT = r"""
import json, os, setupplay
from catnip.rules import TITLES
folder = "%s"
out = []
for game in ("heist", "stack", "purrfect"):
    for n in setupplay.counts(game):
        for previous in (True, False):
            out.append([TITLES[game], n, previous, setupplay.measure(folder, game, n, previous)])
print(json.dumps(out))
"""


def measure() -> list[tuple[str, int, bool, int]]:
    folder = f"/tmp/catnip-bench-setup-{os.getpid()}"
    proc = mpunix.run(["-c", _SCRIPT % folder], path=[mpunix.SHARED_TESTS], timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"the setup presses could not be counted:\n{proc.stdout}\n{proc.stderr}")
    return [tuple(row) for row in json.loads(proc.stdout.strip().splitlines()[-1])]


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    for title, n, previous, presses in measure():
        most = PREVIOUS_MOST if previous else FACTORY_MOST
        start = "previous game's settings" if previous else "factory settings"
        yield ("setup", f"{title}, {n} players: power-on to first lock, {start}", presses,
               "presses", f"target at most {most}; unix-port app, mux board, every tap counted")
