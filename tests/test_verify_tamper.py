"""`replay --verify` means verified: every named tamper of a session's file
or store exits 1 and says what changed; a game that disagrees is not hidden
by one that cannot be verified yet; damaged frames and malformed records are
named, never a traceback and never "verified"."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from catnip import wire
from catnip_host import verify
from catnip_host.cli import main
from catnip_host.store import Store
from tampering import TAMPERS, encoded, numbered, tampered
from test_verify import _file, _frames

GAMES = {"heist": None, "stack": None, "purrfect": {"players": 4}}


def _stored(tmp_path, frames: list) -> tuple[Store, int]:
    """A store of one session holding `frames` as the Keeper stores them."""
    store = Store(tmp_path / "s.sqlite3")
    sid = store.session("t1", "b1", "direct", "0.1.0")
    for seq, kind, f in frames:
        store.frame(sid, seq, kind, f.get("gid"), wire.encode(kind, seq, f)[:-1])
    return store, sid


def _replay(path: str, *more: str):
    return CliRunner().invoke(main, ["replay", path, "--verify", *more])


@pytest.fixture(scope="module")
def sessions() -> dict[str, list]:
    return {name: numbered(_frames(name, config)) for name, config in GAMES.items()}


def test_the_untampered_sessions_verify(tmp_path, sessions):
    for name, frames in sessions.items():
        path = tmp_path / f"{name}.catnip"
        path.write_bytes(encoded(frames))
        out = _replay(str(path))
        assert out.exit_code == 0, out.output


@pytest.mark.parametrize("name", list(GAMES))
def test_every_named_tamper_of_a_file_exits_1_and_says_what_changed(tmp_path, sessions, name):
    missed = []
    for tamper, frames in tampered(sessions[name]):
        path = tmp_path / "t.catnip"
        path.write_bytes(encoded(frames))
        out = _replay(str(path))
        if out.exit_code != 1 or "DOES NOT VERIFY" not in out.output or out.exception and \
                not isinstance(out.exception, SystemExit):
            missed.append((tamper, out.exit_code, out.output[-300:]))
    assert not missed, missed
    assert len(TAMPERS) >= 20


def test_a_tampered_store_exits_1(tmp_path, sessions):
    frames = sessions["heist"]
    store, sid = _stored(tmp_path, frames)
    assert verify.exit_status(verify.from_store(store, sid)) == 0
    store.db.execute("DROP TRIGGER frames_no_update")
    row = store.db.execute("SELECT id, raw FROM frames WHERE kind = 'game'").fetchone()
    store.db.execute("UPDATE frames SET raw = ? WHERE id = ?",
                     (row[1].replace('"finished"', '"abandoned"'), row[0]))  # CRC not re-sealed
    store.close()
    out = _replay(str(sid), "--store", str(tmp_path / "s.sqlite3"))
    assert out.exit_code == 1 and "damaged" in out.output, out.output


@pytest.mark.parametrize("name", list(GAMES))
def test_every_named_tamper_of_the_store_rows_exits_1(tmp_path, sessions, name):
    """The same tampers made to the store's rows (a frame a row, as the Keeper
    keeps them, each re-sealed) rather than to a file."""
    missed = []
    for k, (tamper, frames) in enumerate(tampered(sessions[name])):
        path = tmp_path / f"s{k}.sqlite3"
        store = Store(path)
        sid = store.session("t1", "b1", "direct", "0.1.0")
        for seq, kind, f in frames:
            gid = f.get("gid") if "gid" in wire.MESSAGES[kind][1] else None
            store.frame(sid, seq, kind, gid, wire.encode(kind, seq, f)[:-1])
        store.close()
        out = _replay(str(sid), "--store", str(path))
        if out.exit_code != 1 or "DOES NOT VERIFY" not in out.output:
            missed.append((tamper, out.exit_code, out.output[-300:]))
    assert not missed, missed


def test_a_game_that_disagrees_is_not_hidden_by_one_not_pulled_yet(tmp_path):
    bad = _frames()
    next(f for k, f in bad if k == "act" and f["events"])["events"][0]["x"] = 1
    waiting = [(k, dict(f, gid=2)) for k, f in _frames(seed="w", pulled=False)]
    out = _replay(_file(tmp_path, bad + waiting))
    assert out.exit_code == 1, out.output
    assert "DOES NOT VERIFY" in out.output and "cannot be verified yet" in out.output


def test_a_file_with_damaged_frames_never_says_verified(tmp_path):
    path = _file(tmp_path, _frames())
    data = bytearray(open(path, "rb").read())
    at = data.index(b" act ") + 12
    data[at] ^= 0x01
    open(path, "wb").write(bytes(data))
    out = _replay(path)
    assert out.exit_code == 1 and "damaged" in out.output, out.output


@pytest.mark.parametrize("fields", [
    {"gid": 1, "header": "x", "seats": [0], "moves": 0},
    {"gid": "1", "header": {"game": "heist", "config": {}, "seed_commit": "c"}, "seats": [0],
     "moves": 0},
    {"gid": 1, "header": {"game": 5, "config": {}, "seed_commit": "c"}, "seats": [0], "moves": 0},
])
def test_a_malformed_begin_is_a_named_not_verified(tmp_path, fields):
    frames = _frames()
    frames[0] = ("begin", fields)
    out = _replay(_file(tmp_path, frames))
    assert out.exit_code == 1 and "malformed" in out.output, out.output
    assert not out.exception or isinstance(out.exception, SystemExit)


def test_malformed_entries_are_named(tmp_path):
    frames = _frames()
    entry = next(f for k, f in frames if k == "entry")
    entry["e"] = "action"
    out = _replay(_file(tmp_path, frames))
    assert out.exit_code == 1 and "malformed" in out.output, out.output


@pytest.mark.parametrize("bent", [{"events": "x"}, {"n": True}])
def test_a_malformed_act_is_named_though_a_later_one_repeats_its_move(tmp_path, bent):
    """A move's act read twice keeps the later, but the earlier is checked too."""
    frames = _frames()
    at, act = next((i, f) for i, (k, f) in enumerate(frames) if k == "act")
    frames.insert(at, ("act", dict(act, **bent)))
    out = _replay(_file(tmp_path, frames))
    assert out.exit_code == 1 and "malformed" in out.output, out.output


@pytest.mark.parametrize("gap", [False, True])
def test_a_table_without_commits_in_its_acts_still_pins_them_to_their_game(tmp_path, gap):
    """Frames of a table from before its acts named their game: a begin taken
    out (renumbered, or a gap in its place) leaves its acts pinned by number."""
    from tampering import _begin_taken, _rewritten

    frames = numbered(_frames("purrfect", {"players": 4}, named=False))
    _begin_taken(frames, gap=gap)
    _rewritten(frames)
    path = tmp_path / "old.catnip"
    path.write_bytes(encoded(frames))
    out = _replay(str(path))
    assert out.exit_code == 1 and "disagrees" in out.output, out.output


def test_a_begin_taken_from_the_store_is_named(tmp_path, sessions):
    from tampering import _begin_taken, _rewritten

    frames = [(s, k, json_copy(f)) for s, k, f in sessions["heist"]]  # the fixture's stay as played
    _begin_taken(frames, gap=False)
    _rewritten(frames)
    store, sid = _stored(tmp_path, frames)
    checks = verify.from_store(store, sid)
    assert verify.exit_status(checks) == 1
    said = " ".join(p for c in checks for p in c.problems)
    assert "the begin was removed" in said and "disagrees" in said, said


def test_a_broken_game_that_disagrees_exits_1_and_says_both(tmp_path, sessions):
    frames = [(s, k, json_copy(f)) for s, k, f in sessions["heist"]]
    game = next(f for _, k, f in frames if k == "game")
    game["status"] = "broken"
    game["header"]["seats"] = game["header"]["seats"][::-1]
    path = tmp_path / "broken.catnip"
    path.write_bytes(encoded(frames))
    out = _replay(str(path))
    assert out.exit_code == 1, out.output
    assert "DOES NOT VERIFY (and part of it cannot be verified yet)" in out.output
    assert "damaged on the table" in out.output and "seats" in out.output


def json_copy(x):
    import json

    return json.loads(json.dumps(x))


def _paged(frames: list, every: int = 5) -> list:
    """The frames with the pull's pages among its entries, as the table answers."""
    out, entries = [], [f for _, k, f in frames if k == "entry"]
    for seq, kind, f in frames:
        out.append((seq, kind, f))
        if kind == "entry" and ((f["i"] + 1) % every == 0 or f["i"] + 1 == len(entries)):
            out.append((0, "page", {"gid": f["gid"], "next": f["i"] + 1,
                                    "done": f["i"] + 1 == len(entries), "re": 1}))
    return out


@pytest.mark.parametrize("bend", ["crc", "field"])
def test_a_damaged_page_between_others_is_named(tmp_path, sessions, bend):
    """A pull's pages are read a game at a time: one that is not right, even
    where a later page says the pull ended well, is named."""
    frames = _paged([(s, k, json_copy(f)) for s, k, f in sessions["heist"]])
    assert sum(k == "page" for _, k, _ in frames) > 2
    store, sid = _stored(tmp_path, frames)
    assert verify.exit_status(verify.from_store(store, sid)) == 0
    store.db.execute("DROP TRIGGER frames_no_update")
    row = store.db.execute("SELECT id, raw FROM frames WHERE kind = 'page' ORDER BY id").fetchone()
    raw = row[1].replace('"next":5', '"next":6') if bend == "crc" else \
        wire.encode("page", 0, {"gid": 1, "next": "5", "done": False, "re": 1})[:-1].decode()
    store.db.execute("UPDATE frames SET raw = ? WHERE id = ?", (raw, row[0]))
    checks = verify.from_store(store, sid)
    said = " ".join(p for c in checks for p in c.problems)
    assert verify.exit_status(checks) == 1
    assert ("damaged" if bend == "crc" else "malformed") in said and "page" in said, said


@pytest.mark.parametrize("bend, said", [
    ("swapped", "frames were removed, repeated or reordered"),
    ("removed", "are missing and no gap says so"),
    ("unnumbered", "its number does not read"),
])
def test_an_act_out_of_the_streams_order_is_named(tmp_path, sessions, bend, said):
    """Acts are followed a run at a time: one whose stream number is not the
    next is named for what it is, however many acts in a row are right."""
    frames = [(s, k, json_copy(f)) for s, k, f in sessions["stack"]]
    acts = [i for i, (_, k, _) in enumerate(frames) if k == "act"]
    assert len(acts) > 6
    if bend == "swapped":
        frames[acts[3]], frames[acts[4]] = frames[acts[4]], frames[acts[3]]
    elif bend == "removed":
        del frames[acts[3]]
    store, sid = _stored(tmp_path, frames)
    if bend == "unnumbered":
        store.db.execute("DROP TRIGGER frames_no_update")
        row = store.db.execute("SELECT id, raw FROM frames WHERE kind = 'act' ORDER BY id "
                               "LIMIT 1 OFFSET 3").fetchone()
        store.db.execute("UPDATE frames SET raw = ? WHERE id = ?",
                         (row[1][:4] + "x" + row[1][4:], row[0]))
    checks = verify.from_store(store, sid)
    problems = [p for c in checks for p in c.problems]
    assert verify.exit_status(checks) == 1
    assert any(said in p for p in problems), problems
