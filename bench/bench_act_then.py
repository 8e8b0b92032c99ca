"""The rules' act() and `replay --verify` now and at an earlier commit (THEN,
before the rules' checks, corrections and the record's binding were added),
timed side by side in one run: each checkout's own bench games played and
verified by its own code, in a worker process of its own
(bench/act_probe.py), the two asked for one run each in turns, the best of
each kept. The earlier tree comes from `git archive`; without the history
(a shallow clone) the rows say so.

Why workers in turns: on a shared machine one run's speed moves by a tenth
from one minute to the next, so the two sides are timed as close together
as can be, many times over, and compared by their best, pieced from each
game's fastest time over the turns (bench/act_probe.py says why); the median
of the turns' own ratios is given too.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
THEN = "14c6fa8"
PARTS = ["firmware", "bench", "tests/shared", "host"]
# (games, turns, what): act() alone over the first bench games, verify over
# a whole session; each turn times one run of each side, the order of the
# two sides swapped every turn. The default bench times fewer games, fewer times.
RUNS = {"act": (333, 15, "the rules' act() alone, its first 333 bench games"),
        "verify": (1000, 15, "replay --verify of a session of 1,000 games")} \
    if bench.full() else \
    {"act": (100, 5, "the rules' act() alone, its first 100 bench games"),
     "verify": (200, 5, "replay --verify of a session of 200 games")}

Row = tuple[str, str, object, str, str]


def _then(folder: Path) -> bool:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", THEN, *PARTS],
                             capture_output=True)
    if archive.returncode != 0:
        return False
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return True


class _Probe:
    """One checkout's worker (bench/act_probe.py), ready to time a run once it
    has made one untimed."""

    def __init__(self, root: Path, what: str, count: int, folder: Path) -> None:
        folder.mkdir()
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "act_probe.py"), str(root), what, str(count),
             str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self._line() != "ready":
            raise RuntimeError(f"the {what} worker for {root} did not get ready")
        self.run()  # the first run warms caches and imports: not one of the turns

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if not line:
            self.process.wait()
            raise RuntimeError(f"the worker stopped (exit {self.process.returncode})")
        return line

    def run(self) -> tuple[int, int]:
        """Moves per second of one run, and of the best pieced so far."""
        assert self.process.stdin is not None
        self.process.stdin.write("run\n")
        self.process.stdin.flush()
        this, best = map(int, self._line().split())
        return this, best

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _turns(then: _Probe, now: _Probe, turns: int
           ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    old: list[tuple[int, int]] = []
    new: list[tuple[int, int]] = []
    for turn in range(turns):
        if turn % 2:
            new.append(now.run())
            old.append(then.run())
        else:
            old.append(then.run())
            new.append(now.run())
    return old, new


def rows() -> Iterator[Row]:
    folder = Path(tempfile.mkdtemp(prefix="catnip-then-"))
    try:
        old = folder / "then"
        old.mkdir()
        if not _then(old):
            yield ("rules", f"act() at {THEN}", "-", "", "not measured: no git history here")
            return
        for what, (count, turns, about) in RUNS.items():
            then = _Probe(old, what, count, folder / f"{what}-then")
            try:
                now = _Probe(ROOT, what, count, folder / f"{what}-now")
                try:
                    before, after = _turns(then, now, turns)
                finally:
                    now.close()
            finally:
                then.close()
            paired = sorted(b[0] / a[0] for a, b in zip(before, after))
            at_then, at_now = before[-1][1], after[-1][1]
            yield ("rules", f"{what} at {THEN}", at_then, "moves/s",
                   f"{about}, that commit's code: each game's best of {turns} runs, in turns "
                   "with now")
            yield ("rules", f"{what} now", at_now, "moves/s",
                   f"the same, this checkout: {at_now / at_then:.2f}x {THEN}'s (each turn's own "
                   f"ratio {paired[0]:.2f}x to {paired[-1]:.2f}x, median "
                   f"{statistics.median(paired):.2f}x)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
