"""A Pico for `catnip deploy` tests and bench rows: tests/deployboard.py on the
MicroPython unix port, its USB serial a pty whose /dev/pts path the laptop's
side opens exactly as it opens /dev/ttyACM0."""

from __future__ import annotations

import os
import shutil
import subprocess
import tty
from pathlib import Path

import mpunix

BOARD = Path(__file__).resolve().parent / "deployboard.py"


class PtyBoard:
    """The board on a pty, its flash the folder `flash`; a context manager."""

    def __init__(self, flash: Path, log: Path | None = None) -> None:
        flash.mkdir(parents=True, exist_ok=True)
        self.flash = flash
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # the laptop's end: no echo, no line editing
        self.port = os.ttyname(self.slave)
        self.log = open(log or flash.parent / f"{flash.name}.log", "w")
        self.proc = subprocess.Popen([mpunix.tool("micropython"), str(BOARD), str(flash)],
                                     stdin=self.master, stdout=self.master, stderr=self.log)

    def close(self) -> None:
        """Power off (a second close does nothing)."""
        if self.log.closed:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)
        os.close(self.slave)
        self.log.close()

    def __enter__(self) -> PtyBoard:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def firmware_copy(into: Path) -> Path:
    """firmware/ copied, to be changed by a test."""
    shutil.copytree(mpunix.FIRMWARE, into, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def held(flash: Path) -> dict[str, bytes]:
    """Every file of the firmware on a board's flash (not its journal or setup)."""
    return {p.relative_to(flash).as_posix(): p.read_bytes() for p in sorted(flash.rglob("*"))
            if p.is_file() and p.relative_to(flash).parts[0] in ("catnip", "main.py",
                                                                 "board.json", "catnip.manifest")}
