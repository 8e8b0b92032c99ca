"""An installed catnip works outside the checkout: the wheel (what `pip
install` and `pipx install` make) carries the firmware tree, the boards,
package.json and the virtual table, and its commands find them there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from deployrig import PtyBoard

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "heist-2p.json"

pytestmark = pytest.mark.xdist_group("install")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, a fresh venv outside the checkout with it installed)."""
    where = tmp_path_factory.mktemp("install")
    assert ROOT not in where.parents
    wheels = where / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        cwd=where)
    (wheel,) = wheels.glob("*.whl")
    env_dir = where / "venv"
    venv.create(env_dir, with_pip=True)
    run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel),
         "-c", str(ROOT / "requirements-dev.txt")], cwd=where)
    return wheel, env_dir


def run(args: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MICROPYPATH")}
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode in ok, proc.stdout + proc.stderr
    return proc


def test_the_wheel_is_named_for_pypi_and_carries_the_tree(installed):
    wheel, _ = installed
    assert wheel.name.startswith("catnip_table-")  # "catnip" is another project on PyPI
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("firmware/main.py", "firmware/package.json", "firmware/boards/direct.json",
                   "firmware/boards/mux.json", "firmware/catnip/table/app.py", "devsim/virtual.py"):
        assert f"catnip_host/_tree/{needed}" in names, needed


def test_the_installed_commands_work_outside_the_checkout(installed, tmp_path):
    _, env_dir = installed
    catnip = str(env_dir / "bin" / "catnip")
    scenario = shutil.copy(SCENARIO, tmp_path / "play.json")
    out = run([catnip, "--version"], tmp_path)
    assert out.stdout.startswith("catnip ")
    out = run([catnip, "sim", "--script", str(scenario), "--headless"], tmp_path)
    assert "Standings" in out.stdout
    out = run([catnip, "check-board", "direct"], tmp_path)
    assert "_tree/firmware/boards/direct.json" in out.stdout
    with PtyBoard(tmp_path / "flash") as board:  # --no-restart: a dry run leaves the board be
        out = run([catnip, "deploy", "--port", board.port, "--board", "direct", "--dry-run",
                   "--no-restart"], tmp_path)
    assert "would send" in out.stdout and "main.py" in out.stdout
