"""A date for every game: a game the laptop did not watch is dated by the
table's clock when it has one, else its time is unknown (and the exports
say so in their own way) until a person sets it; its length comes from the
table's ticks."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from catnip import wire
from catnip_host import records
from catnip_host.cli import main
from catnip_host.store import Store
from test_verify import _frames

UID = "e6614c311b7f"
KEPT = 1796287500  # 2026-12-03 08:45:00 UTC by the table's clock


def offline_store(path, at, ms=(1000, 1000 + 23 * 60_000), resumed=False):
    """A store holding one Meow Heist game pulled from a table no laptop
    watched: its journal's clock notes say it began at `at` (None: the table
    had no clock) and ran `ms` ticks."""
    frames = _frames(live=False)
    entries = [f for k, f in frames if k == "entry"]
    notes = [["note", {"clock": "began", "at": at, "ms": ms[0]}]]
    if resumed:
        notes.append(["note", {"clock": "resumed", "at": at, "ms": 5}])
    body = [f["e"] for f in entries]
    body = notes + body[:-1] + [["note", {"clock": "ended", "at": at and at + 1380,
                                          "ms": ms[1]}], body[-1]]
    game = next(f for k, f in frames if k == "game")
    store = Store(path)
    db = store.db
    db.execute("INSERT INTO sessions (uid, boot, board, firmware, opened) VALUES "
               "(?, 'b', 'direct', '0.1.0', 1.9e9)", (UID,))
    ids = []
    for kind, f in [("game", game)] + [("entry", {"gid": 1, "i": i, "e": e})
                                       for i, e in enumerate(body)]:
        raw = wire.encode(kind, 0, f)[:-1].decode()
        ids.append(db.execute("INSERT INTO frames (session, at, seq, kind, gid, raw) VALUES "
                              "(1, 1.9e9, 0, ?, 1, ?)", (kind, raw)).lastrowid)
    db.execute("INSERT INTO pulls VALUES (?, 1, ?, 1, ?, ?, 1.9e9)",
               (UID, game["header"]["seed_commit"], ids[0], ids[-1]))
    store.close()
    return path


def plays(path) -> list[records.Play]:
    store = Store(path)
    try:
        return records.load(store).plays
    finally:
        store.close()


def test_a_game_played_while_no_laptop_listened_is_dated_by_the_tables_clock(tmp_path):
    (p,) = plays(offline_store(tmp_path / "s.sqlite3", KEPT))
    assert p.began == KEPT and p.ended == KEPT + 1380 and p.dated == "table"
    assert p.minutes == 23  # not the day it was pulled (1.9e9 is 2030)


def test_without_a_clock_its_time_is_unknown_and_its_length_from_the_ticks(tmp_path):
    path = offline_store(tmp_path / "s.sqlite3", None)
    (p,) = plays(path)
    assert p.began is None and p.date is None and p.dated == "unknown"
    assert p.minutes == 23
    out = CliRunner().invoke(main, ["export", "--store", str(path)])
    assert out.exit_code == 0, out.output
    line = json.loads(out.stdout)
    assert line["date"] is None and line["minutes"] == 23
    assert "1 game(s) have no known date (session 1 game 1)" in out.stderr
    assert "catnip sessions date SESSION GID" in out.stderr
    out = CliRunner().invoke(main, ["export", "--format", "csv", "--store", str(path)])
    (row,) = csv.DictReader(io.StringIO(out.stdout_bytes.decode(), newline=""))
    assert row["date"] == "" and row["length"] == "23"
    out = CliRunner().invoke(main, ["export", "--format", "bgstats", "--store", str(path)])
    (play,) = json.loads(out.stdout)["plays"]
    assert "playDate" not in play and "the date is not known" in play["comments"]
    assert play["durationMin"] == 23
    assert CliRunner().invoke(main, ["stats", "--store", str(path)]).exit_code == 0
    assert CliRunner().invoke(main, ["chart", "wins", "--store", str(path), "-o",
                                     str(tmp_path / "w.png")]).exit_code == 0


def test_a_power_cut_leaves_the_length_unknown_without_a_clock(tmp_path):
    (p,) = plays(offline_store(tmp_path / "s.sqlite3", None, resumed=True))
    assert p.minutes is None and p.played_ms is None


def test_a_person_sets_the_date_and_the_length_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    import time

    time.tzset()
    path = offline_store(tmp_path / "s.sqlite3", None)
    run = CliRunner()
    out = run.invoke(main, ["sessions", "date", "1", "1", "2026-11-28 19:30", "--store",
                            str(path)])
    assert out.exit_code == 0, out.output
    assert "game 1 of session 1 began 2026-11-28 19:30 (was unknown)" in out.output
    (p,) = plays(path)
    assert p.date.strftime("%Y-%m-%d %H:%M") == "2026-11-28 19:30" and p.dated == "person"
    assert p.minutes == 23
    out = run.invoke(main, ["export", "--format", "csv", "--store", str(path)])
    assert "2026-11-28,Meow Heist" in out.stdout and "no known date" not in out.stderr
    time.tzset()


@pytest.mark.parametrize(("args", "why"), [
    (["1", "9", "2026-11-28"], "session 1 has no pulled game 9 (its games: 1"),
    (["1", "1", "28/11/2026"], "is not a date: write YYYY-MM-DD"),
    (["1", "1", "2999-01-01"], "is still to come"),
    (["7", "1", "2026-11-28"], "no session 7"),
])
def test_a_date_that_cannot_be_used_is_refused_and_changes_nothing(tmp_path, args, why):
    path = offline_store(tmp_path / "s.sqlite3", None)
    out = CliRunner().invoke(main, ["sessions", "date", *args, "--store", str(path)])
    assert out.exit_code in (1, 2) and why in out.output, out.output
    assert plays(path)[0].began is None
