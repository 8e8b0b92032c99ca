"""The rules' act() and `replay --verify` now and at an earlier commit (THEN,
before the rules' checks, corrections and the record's binding were added),
timed side by side in one run: each checkout's own bench games played and
verified by its own code (bench/act_probe.py in a subprocess), in turns, the
best kept. The earlier tree comes from `git archive`; without the history
(a shallow clone) the rows say so."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
THEN = "14c6fa8"
PARTS = ["firmware", "bench", "tests/shared", "host"]
# What is timed: act() alone over the first third of bench_link's session,
# in three turns; verify over the whole 1,000-game session, best of three
# runs inside each of three turns (one turn let a burst of load on the
# machine move the ratio by some 0.07 from run to run). The default bench
# times fewer games, once.
RUNS = {"act": (333, 3, "the rules' act() alone, its first 333 bench games"),
        "verify": (1000, 3, "replay --verify of a session of 1,000 games (best of 3 x 3)")} \
    if bench.full() else \
    {"act": (100, 1, "the rules' act() alone, its first 100 bench games"),
     "verify": (200, 1, "replay --verify of a session of 200 games (best of 3)")}

Row = tuple[str, str, object, str, str]


def _then(folder: Path) -> bool:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", THEN, *PARTS],
                             capture_output=True)
    if archive.returncode != 0:
        return False
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return True


def _speed(root: Path, what: str, count: int, folder: Path) -> int:
    with tempfile.TemporaryDirectory(dir=folder) as where:
        out = subprocess.run([sys.executable, str(ROOT / "bench" / "act_probe.py"), str(root),
                              what, str(count), where], capture_output=True, text=True,
                             check=True)
    return int(out.stdout.split()[-1])


def rows() -> Iterator[Row]:
    folder = Path(tempfile.mkdtemp(prefix="catnip-then-"))
    try:
        old = folder / "then"
        old.mkdir()
        if not _then(old):
            yield ("rules", f"act() at {THEN}", "-", "", "not measured: no git history here")
            return
        for what, (count, turns, about) in RUNS.items():
            now = then = 0
            for _ in range(turns):
                then = max(then, _speed(old, what, count, folder))
                now = max(now, _speed(ROOT, what, count, folder))
            yield ("rules", f"{what} at {THEN}", then, "moves/s",
                   f"{about}, that commit's code, in turns with now")
            yield ("rules", f"{what} now", now, "moves/s",
                   f"the same, this checkout: {now / then:.2f}x {THEN}'s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
