"""The virtual table keeps records like a real one: its finished games go
into the store that export, stats and chart read, marked virtual, headless
runs included unless told not to."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from catnip_host import records, sim
from catnip_host.cli import main
from catnip_host.store import Store, default_path

SCENARIO = Path(__file__).parent / "scenarios" / "heist-2p.json"


def test_a_headless_game_is_stored_marked_virtual(tmp_path):
    store = tmp_path / "sessions.sqlite3"
    out = CliRunner().invoke(main, ["sim", "--script", str(SCENARIO), "--headless",
                                    "--store", str(store)])
    assert out.exit_code == 0, out.output
    exported = CliRunner().invoke(main, ["export", "--store", str(store)])
    assert exported.exit_code == 0, exported.output
    (line,) = [json.loads(x) for x in exported.stdout.splitlines()]
    assert line["virtual"] is True and line["header"]["game"] == "heist" and line["finished"]
    assert line["table"] == records.VIRTUAL_TABLE
    standings = [s.split()[-1] for s in out.output.splitlines() if s.startswith("  ")]
    assert sorted(map(int, standings)) == sorted(line["result"]["scores"])


def test_without_a_store_option_the_default_store_gets_the_game(tmp_path, monkeypatch):
    # A data folder of its own: the same scenario played by another test into
    # the run's default store would already be there, and be stored once.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path().is_relative_to(tmp_path)
    before = _plays(default_path())
    out = CliRunner().invoke(main, ["sim", "--script", str(SCENARIO), "--headless"])
    assert out.exit_code == 0, out.output
    assert _plays(default_path()) == before + 1


def test_no_store_keeps_nothing(tmp_path):
    store = tmp_path / "sessions.sqlite3"
    out = CliRunner().invoke(main, ["sim", "--script", str(SCENARIO), "--headless",
                                    "--no-store", "--store", str(store)])
    assert out.exit_code == 0, out.output
    assert not store.exists()


def test_the_interactive_tables_mirror_stores_in_the_default_store():
    mirror = sim.laptop_mirror()
    try:
        assert mirror.store_path is None  # Store(None): the default store
    finally:
        mirror.stop()


def _plays(path: Path) -> int:
    if not path.exists():
        return 0
    store = Store(path)
    try:
        return len(records.load(store).plays)
    finally:
        store.close()
