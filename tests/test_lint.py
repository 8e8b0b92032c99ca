"""The code stays clean: `ruff check` over the whole tree and `mypy` over the
CPython code (the laptop's, the virtual table's and the benches'; both
configured in pyproject.toml, both pinned in requirements-dev.txt) report
nothing. A finding fails the test with the tool's own lines, which say where
and why."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def test_ruff_finds_nothing():
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_finds_nothing():
    proc = _run("mypy", "--no-incremental")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_reads_the_laptop_the_virtual_table_and_the_benches():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert {"host/catnip_host", "devsim", "bench"} <= set(config["files"])


def test_ruff_knows_micropython_and_still_catches_slips(tmp_path):
    """The configuration accepts viper's casts and still flags an unused
    import and a closure over a loop variable (so a clean tree means clean)."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "viper.py").write_text(
        "import micropython\n\n\n@micropython.viper\n"
        "def total(buf, n: int) -> int:\n    p = ptr8(buf)\n    s = 0\n"
        "    for i in range(n):\n        s += p[i]\n    return uint(s)\n")
    (tmp_path / "slips.py").write_text(
        "import os\n\n\ndef later():\n    out = []\n    for i in range(3):\n"
        "        out.append(lambda: i)\n    return out\n")
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    found = proc.stdout
    assert "viper.py" not in found, found
    assert "slips.py:1:8: F401" in found and "B023" in found, found
