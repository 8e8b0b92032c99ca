"""A date for every game: a game the laptop did not watch is dated by the
table's clock when it has one, else by its ticks when it was pulled in the
same power-up, else at its pull, flagged approximate with the reason (and
the exports say so in their own way) until a person sets it; its length
comes from the table's ticks."""

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


def offline_store(path, at, ms=(1000, 1000 + 23 * 60_000), resumed=False, boot=None, page=None):
    """A store holding one Meow Heist game pulled from a table no laptop
    watched: its journal's clock notes say it began at `at` (None: the table
    had no clock) and ran `ms` ticks, in power-up `boot`; `page`: the pull's
    last page's fields (the table's ticks and boot token at the pull)."""
    frames = _frames(live=False)
    entries = [f for k, f in frames if k == "entry"]
    notes = [["note", dict({"clock": "began", "at": at, "ms": ms[0]},
                           **({"boot": boot} if boot else {}))]]
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
    last = [("page", dict({"gid": 1, "next": len(body), "done": True, "re": 1}, **page))] \
        if page else []
    for kind, f in [("game", game)] + [("entry", {"gid": 1, "i": i, "e": e})
                                       for i, e in enumerate(body)] + last:
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


def test_pulled_in_the_same_power_up_it_is_dated_by_the_tables_ticks(tmp_path):
    # Pulled at 1.9e9 (laptop time) when the table's ticks were 2,000,000:
    # it began 1,999,000 ms of ticks before.
    path = offline_store(tmp_path / "s.sqlite3", None, boot="b7",
                         page={"ms": 2_000_000, "boot": "b7"})
    (p,) = plays(path)
    assert p.dated == "uptime" and p.began == 1.9e9 - 1999 and p.approximate is None
    assert p.minutes == 23
    out = CliRunner().invoke(main, ["export", "--format", "csv", "--store", str(path)])
    (row,) = csv.DictReader(io.StringIO(out.stdout_bytes.decode(), newline=""))
    assert row["date"] and row["date_note"] == ""


def test_another_power_ups_game_is_dated_at_its_pull_and_flagged_approximate(tmp_path):
    path = offline_store(tmp_path / "s.sqlite3", None, boot="b6",
                         page={"ms": 2_000_000, "boot": "b7"})
    (p,) = plays(path)
    assert p.dated == "approximate" and p.began == 1.9e9 - 23 * 60 and "no laptop saw" in \
        p.approximate
    assert p.minutes == 23
    out = CliRunner().invoke(main, ["export", "--store", str(path)])
    assert out.exit_code == 0, out.output
    line = json.loads(out.stdout)
    assert line["date"] and line["dated"] == "approximate" and line["minutes"] == 23
    assert "1 game(s) are dated only approximately, at their pull (session 1 game 1)" \
        in out.stderr
    assert "catnip sessions date SESSION GID" in out.stderr
    out = CliRunner().invoke(main, ["export", "--format", "csv", "--store", str(path)])
    (row,) = csv.DictReader(io.StringIO(out.stdout_bytes.decode(), newline=""))
    assert row["date"] and row["length"] == "23" and row["date_note"].startswith("approximate")
    out = CliRunner().invoke(main, ["export", "--format", "bgstats", "--store", str(path)])
    (play,) = json.loads(out.stdout)["plays"]
    assert play["playDate"] and "date approximate" in play["comments"]
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
    assert "game 1 of session 1 began 2026-11-28 19:30 (was 2030-03-17 17:23 approximate" \
        in out.output
    (p,) = plays(path)
    assert p.date.strftime("%Y-%m-%d %H:%M") == "2026-11-28 19:30" and p.dated == "person"
    assert p.minutes == 23
    out = run.invoke(main, ["export", "--format", "csv", "--store", str(path)])
    assert "2026-11-28,Meow Heist" in out.stdout and "approximately" not in out.stderr
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
    assert plays(path)[0].dated == "approximate"
