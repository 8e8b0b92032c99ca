"""Names the table's games carry (sent by `catnip names`, journaled in the
game's header and told in its "begin" frame) reach the records: the seats
are those people in exports and stats, a name given on the laptop
(`catnip players name`) still wins, and merges apply to them as to any
name."""

from __future__ import annotations

import pytest

from catnip import wire
from catnip_host import players, records
from catnip_host.store import Store, fields_of
from test_verify import _frames

NAMES = ["Ana", "Bo", ""]


def _store(path, names, where=("begin", "game")):
    """A store holding one 3-player Meow Heist, played live and pulled, its
    begin frame and journal header carrying `names` where asked."""
    store = Store(path)
    db = store.db
    cur = db.execute("INSERT INTO sessions (uid, boot, board, firmware, opened) "
                     "VALUES ('e6614c311b7f', 'b1', 'direct', '0.1.0', 1.7e9)")
    session = cur.lastrowid
    seq, ids = 0, []
    for kind, fields in _frames("heist", {"players": 3}, "names"):
        if kind == "begin" and "begin" in where:
            fields["names"] = names
        if kind == "game" and "game" in where:
            fields["header"]["names"] = names
        live = kind in ("begin", "act", "end")
        seq += live
        assert wire.message(seq if live else 0, kind, dict(fields, re=0) if not live else fields
                            ) is None, (kind, fields)
        raw = wire.encode(kind, seq if live else 0, fields)[:-1].decode()
        cur = db.execute("INSERT INTO frames (session, at, seq, kind, gid, raw) VALUES "
                         "(?, ?, ?, ?, ?, ?)", (session, 1.7e9 + seq, seq if live else 0, kind,
                                                 1, raw))
        if not live:
            ids.append(cur.lastrowid)
    header = fields_of(db.execute("SELECT raw FROM frames WHERE kind = 'game'").fetchone()[0]
                       )["header"]
    db.execute("INSERT INTO pulls VALUES ('e6614c311b7f', 1, ?, ?, ?, ?, ?)",
               (header["seed_commit"], session, ids[0], ids[-1], 1.7e9 + 999))
    return store, session


@pytest.mark.parametrize("where", [("begin", "game"), ("begin",), ("game",)])
def test_the_tables_names_are_the_seats_in_the_records(tmp_path, where):
    store, session = _store(tmp_path / "s.sqlite3", NAMES, where)
    (play,) = records.load(store).plays
    assert play.players == ("Ana", "Bo", f"S{session} P3")  # nobody named at the third


def test_a_name_given_on_the_laptop_wins_and_merges_apply(tmp_path):
    store, session = _store(tmp_path / "s.sqlite3", NAMES)
    players.name_seats(store, session, ["P2=Bob"])
    players.merge(store, "Ana", "Anna")
    (play,) = records.load(store).plays
    assert play.players == ("Anna", "Bob", f"S{session} P3")
    assert "Anna" in players.known(store)


def test_a_name_the_store_would_not_take_leaves_the_seat_unnamed(tmp_path):
    store, session = _store(tmp_path / "s.sqlite3", ['Ana;"x"', "Bo", ""])
    (play,) = records.load(store).plays
    assert play.players == (f"S{session} P1", "Bo", f"S{session} P3")


def test_games_without_names_are_as_before(tmp_path):
    store, session = _store(tmp_path / "s.sqlite3", NAMES, where=())
    (play,) = records.load(store).plays
    assert play.players == tuple(f"S{session} P{k}" for k in (1, 2, 3))


def test_the_monitor_names_the_seats_from_the_table(tmp_path):
    from catnip_host.words import given

    store, session = _store(tmp_path / "s.sqlite3", NAMES)
    assert given(store, session) == ("Ana", "Bo")  # the third seat: P3, as before


def test_a_pulled_header_whose_names_are_not_the_announced_ones_does_not_verify():
    from catnip_host import verify
    from test_verify import _check

    frames = _frames("heist", {"players": 3}, "names")
    for kind, fields in frames:
        if kind == "begin":
            fields["names"] = NAMES
        if kind == "game":
            fields["header"]["names"] = NAMES
    assert _check(frames).status == verify.VERIFIED
    for kind, fields in frames:
        if kind == "game":
            fields["header"]["names"] = ["Eve", "Bo", ""]
    c = _check(frames)
    assert c.status != verify.VERIFIED
    assert any("names" in why and "announced when the game began" in why for why in c.problems)
