"""The virtual table (devsim/virtual.py under the MicroPython unix port, and
under CPython as on a laptop the port has no build for): the CPU a whole game
of each scenario takes to replay as fast as it goes, and what an idle table
costs while a person plays in real time."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from catnip_host import sim

Row = tuple[str, str, float | int | str, str, str]
SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios"
IDLE_S = 3


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _replay(path: Path) -> float:
    """CPU seconds of one headless replay (the table's process alone)."""
    with tempfile.TemporaryDirectory() as flash:
        args = sim.command(sim.board_file("direct"), Path(flash), "fast", script=path)
        before = _child_cpu()
        proc = subprocess.run(args, env=sim.environment(), capture_output=True, text=True,
                              timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"{path.name} did not replay:\n{proc.stdout[-2000:]}")
        return _child_cpu() - before


def _idle() -> float:
    """Share of one core an idle live table takes, stepping 10 ms in real time."""
    with tempfile.TemporaryDirectory() as flash:
        args = sim.command(sim.board_file("direct"), Path(flash), "live")
        before = _child_cpu()
        proc = subprocess.Popen(args, env=sim.environment(), stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, text=True)
        time.sleep(IDLE_S)
        proc.communicate("quit\n", timeout=30)
        return (_child_cpu() - before) / IDLE_S


@contextmanager
def _on(interpreter: str) -> Iterator[None]:
    """The virtual table started on `interpreter` (micropython, cpython) meanwhile."""
    before = os.environ.get(sim.paths.CHOICE)
    os.environ[sim.paths.CHOICE] = interpreter
    try:
        yield
    finally:
        if before is None:
            del os.environ[sim.paths.CHOICE]
        else:
            os.environ[sim.paths.CHOICE] = before


def rows() -> Iterator[Row]:
    for interpreter, on in (("micropython", ""), ("cpython", " on CPython")):
        with _on(interpreter):
            for path in sorted(SCENARIOS.glob("*.json")):
                data = json.loads(path.read_text())
                presses = sum(s.get("times", 1) for s in data["steps"] if "press" in s)
                yield ("virtual table", f"{path.stem}: a whole game replayed{on}", _replay(path),
                       "s CPU", f"{presses} presses, headless (--clock fast)")
            yield ("virtual table", f"idle table in real time{on}", 100 * _idle(),
                   "% of a core", f"live clock, 4 stations, over {IDLE_S} s (startup included)")
