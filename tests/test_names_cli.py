"""`catnip names` against the virtual table's serial line (a pseudo-terminal,
as a Pico's USB port): the names are kept on the table's flash and shown on
its stations; names it cannot take are refused before anything is sent."""

from __future__ import annotations

import json
import os
import sys
import time

import pytest
from click.testing import CliRunner

from catnip_host import sim
from catnip_host.cli import main
from catnip_host.names_cli import parse

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32",
                                reason="needs pseudo-terminals")


@pytest.fixture
def table(tmp_path):
    import tty

    fd, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(fd, False)
    t = sim.Table(sim.command(sim.board_file("direct"), tmp_path, "live", "t", line_fd=fd),
                  pass_fds=(fd,))
    state = sim.TableState()
    t.wait_ready(state)
    yield t, state, os.ttyname(slave), tmp_path
    t.close()
    os.close(fd)
    os.close(slave)


def _screens(t, state, station, text, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t.send("screens")
        for m in t.drain(0.2):
            state.apply(m)
        screen = state.screens.get(station)
        if screen is not None and any(text in row for row in screen.rows):
            return screen.rows
    raise AssertionError(f"station {station} never showed {text!r}: {state.screens.get(station)}")


def _kept(flash):
    """The names the table keeps for its board (the direct board's)."""
    return json.loads((flash / "names.json").read_text())["boards"]["direct"]


def test_names_reach_the_table_and_its_stations(table):
    t, state, port, flash = table
    result = CliRunner().invoke(main, ["names", "--port", port, "Ana", "Bartholomew", "-", "Dee"])
    assert result.exit_code == 0, result.output
    assert "Station 1: Ana" in result.output and "Station 3: (no name: P3)" in result.output
    assert _kept(flash) == ["Ana", "Bartholomew", "", "Dee"]
    _screens(t, state, 2, "You: Barth")
    result = CliRunner().invoke(main, ["names", "--port", port, "--clear"])
    assert result.exit_code == 0 and "Nobody is named" in result.output
    _screens(t, state, 2, "You: P2")


def test_names_the_table_cannot_take_are_refused_and_nothing_changes(table):
    t, state, port, flash = table
    assert CliRunner().invoke(main, ["names", "--port", port, "Ana,Bo"]).exit_code == 0
    for args, why in ((["A", "B", "C", "D", "E"], "at most 4"),
                      (["Ana", "Bartholomew-Jones"], "17 characters"),
                      (["Zo\u00eb"], "station 1"),
                      (["Ana\tB"], "station 1"),
                      (["Alexander", "alexandra"], "stations 1 and 2")):
        result = CliRunner().invoke(main, ["names", "--port", port, *args])
        assert result.exit_code == 1 and why in result.output and "nothing was sent" in \
            result.output, (args, result.output)
        assert _kept(flash) == ["Ana", "Bo"]


def test_names_or_clear_not_both():
    runner = CliRunner()
    assert runner.invoke(main, ["names"]).exit_code == 2
    assert runner.invoke(main, ["names", "--clear", "Ana"]).exit_code == 2


def test_names_as_typed():
    assert parse(("Ana", "Bo", "-", "Dee")) == ["Ana", "Bo", "", "Dee"]
    assert parse(("Ana,Bo,-,Dee",)) == ["Ana", "Bo", "", "Dee"]
    assert parse(()) == []


def test_sim_names_go_on_the_tables_own_input_without_a_mirror(tmp_path):
    from catnip_host.sim.play import _send_names

    t = sim.Table(sim.command(sim.board_file("direct"), tmp_path, "live", "t"))
    state = sim.TableState()
    try:
        t.wait_ready(state)
        _send_names(t, None, ["Ana", "Bo"])
        _screens(t, state, 1, "You: Ana")
        assert "stations named: Ana, Bo" in state.feed
    finally:
        t.close()
    assert json.loads((tmp_path / "names.json").read_text()) == {
        "boards": {"direct": ["Ana", "Bo"]}, "known": ["Ana", "Bo"]}


def test_sim_names_go_to_a_headless_scenario_checked_first(tmp_path):
    script = tmp_path / "s.json"
    script.write_text("[]")
    result = CliRunner().invoke(main, ["sim", "--headless", "--no-store", "--script",
                                       str(script), "--names", "Ana"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["sim", "--headless", "--no-store", "--script",
                                       str(script), "--names", "A,B,C,D,E"])
    assert result.exit_code == 1 and "--names: names are one per station, at most 4" \
        in result.output
