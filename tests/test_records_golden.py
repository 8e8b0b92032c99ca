"""Each export format, byte for byte, for three small games played by the
rules engine at fixed times with named and merged players (tests/golden/,
read by hand once). CATNIP_REGOLD=1 writes them again after a deliberate
change; the diff is then the review."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from catnip_host.cli import main
from recordrig import engine_store

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("heist", {"players": 2}, "golden 1"),
    ("stack", {"players": 2, "mode": "clowder"}, "golden 2"),
    ("stack", {"players": 2, "mode": "patient", "colours": ["red", "blue", "teal"],
               "per_colour": 3}, "golden 3"),
]
FILES = {"jsonl": "records.jsonl", "bgstats": "records.bgstats.json", "csv": "records.csv"}


@pytest.fixture
def utc(monkeypatch):
    """Dates in UTC whatever the machine's time zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def fixed_salts(monkeypatch):
    """The games' salts (random on a real table) the same every run."""
    from catnip.rules import engine

    salts = iter(f"{k:032x}" for k in range(1, 100))
    monkeypatch.setattr(engine, "new_salt", lambda: next(salts))


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_each_format_matches_its_golden_file(tmp_path, utc, fixed_salts, fmt):
    store = engine_store(tmp_path / "s.sqlite3", GAMES, 1780000000.0, every_s=86400,
                         minutes=25, per_session=2)
    run = CliRunner()
    for args in (["players", "name", "1", "P1=Alice", "P2=Bob"],
                 ["players", "name", "2", "P1=Ali"], ["players", "merge", "Ali", "Alice"]):
        assert run.invoke(main, [*args, "--store", str(store)]).exit_code == 0
    out = run.invoke(main, ["export", "--format", fmt, "--store", str(store)])
    assert out.exit_code == 0, out.output
    golden = GOLDEN / FILES[fmt]
    if os.environ.get("CATNIP_REGOLD"):
        golden.write_bytes(out.stdout_bytes)
    assert out.stdout_bytes == golden.read_bytes()
