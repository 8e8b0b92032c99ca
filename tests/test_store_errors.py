"""The session store is as careful as SQLite allows: migrations inside their
transaction, every SQLite error a message that says what happened and what
to do (busy, full, read-only, damaged: only damage means "move it aside"),
read-only commands opening it read-only, and no traceback from a damaged
file, a huge session number or a full disk while monitoring."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest
from click.testing import CliRunner

from catnip import wire
from catnip_host import store as store_module
from catnip_host.cli import main
from catnip_host.store import Store, StoreError
from tampering import numbered
from test_verify import _frames


def _filled(path, games=3) -> int:
    """A store of one session in which the table sent `games` games."""
    store = Store(path)
    sid = store.session("t1", "b1", "direct", "0.1.0")
    last = 0
    for _ in range(games):
        for seq, kind, f in numbered(_frames()):
            seq = last + 1 if seq else 0
            last = max(last, seq)
            store.frame(sid, seq, kind, f.get("gid"), wire.encode(kind, seq, f)[:-1])
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return sid


def _cli(*args):
    out = CliRunner().invoke(main, list(args))
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exc_info
    return out


def _open_at_once(path, barrier, results):
    barrier.wait()
    try:
        Store(path).close()
        results.put("ok")
    except StoreError as e:
        results.put(str(e))


def test_two_catnips_opening_a_new_store_at_once_both_succeed(tmp_path):
    ctx = multiprocessing.get_context("fork")
    for trial in range(8):
        path = str(tmp_path / f"new{trial}.sqlite3")
        barrier, results = ctx.Barrier(3), ctx.Queue()
        procs = [ctx.Process(target=_open_at_once, args=(path, barrier, results))
                 for _ in range(3)]
        for proc in procs:
            proc.start()
        got = [results.get(timeout=60) for _ in procs]
        for proc in procs:
            proc.join()
        assert got == ["ok"] * 3, got
        assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == \
            store_module.SCHEMA_VERSION


def test_a_damaged_store_is_a_message_from_every_read_command(tmp_path):
    path = tmp_path / "s.sqlite3"
    sid = _filled(path)
    data = bytearray(path.read_bytes())
    for at in range(len(data) // 2 // 4096 * 4096, len(data), 4096):  # the frames' pages
        data[at:at + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    for args in (["sessions", "show", str(sid)], ["sessions", "show", str(sid), "--raw"],
                 ["replay", str(sid), "--verify"]):
        out = _cli(*args, "--store", str(path))
        said = out.output.replace(str(path), "PATH")  # the test's folder is named "damaged"
        assert out.exit_code == 1, (args, said)
        assert "is damaged" in said and "move it aside" in said, (args, said)


def test_a_frame_of_bytes_no_catnip_wrote_is_a_message(tmp_path):
    path = tmp_path / "s.sqlite3"
    sid = _filled(path, games=1)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER frames_no_update")
    db.execute("UPDATE frames SET raw = CAST(X'1e23ff00fe' AS TEXT) WHERE id = 2")
    db.execute("UPDATE frames SET raw = 'x' WHERE id = 3")  # text, but not a frame
    db.commit()
    db.close()
    for args in (["sessions", "show", str(sid)], ["replay", str(sid), "--verify"]):
        out = _cli(*args, "--store", str(path))
        assert out.exit_code == 1 and ("damaged" in out.output or "DOES NOT VERIFY"
                                       in out.output), (args, out.output)


def test_a_session_number_beyond_sqlite_is_no_such_session(tmp_path):
    path = tmp_path / "s.sqlite3"
    _filled(path, games=1)
    for args in (["sessions", "show", str(2**70)], ["replay", str(2**70), "--verify"]):
        out = _cli(*args, "--store", str(path))
        assert out.exit_code == 1 and f"no session {2**70}" in out.output, out.output


@pytest.mark.parametrize("command", [["sessions", "list"], ["export"], ["tables"]])
def test_a_store_path_too_long_for_the_system_is_a_message(tmp_path, command):
    # Found by the command-line fuzz door: the path's stat() raised ENAMETOOLONG.
    result = CliRunner().invoke(main, [*command, "--store", str(tmp_path / ("x" * 300))])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "cannot be used: File name too long" in result.output, result.output


def test_a_busy_store_says_so_and_not_to_move_it(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite3"
    sid = _filled(path, games=1)
    monkeypatch.setattr(store_module, "BUSY_S", 0.2)
    store = Store(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another catnip writing
    try:
        with pytest.raises(StoreError) as got:
            store.frame(sid, 0, "say", None, b"x")
        assert "busy" in str(got.value) and "move it aside" not in str(got.value)
    finally:
        other.execute("ROLLBACK")
    store.frame(sid, 0, "say", None, b"x")  # and once it is free, on it goes


def test_read_only_commands_open_the_store_read_only(tmp_path):
    path = tmp_path / "s.sqlite3"
    sid = _filled(path, games=1)
    reader = Store(path, readonly=True)
    assert reader.info(sid).frames > 0
    with pytest.raises(StoreError, match="read-only") as got:
        reader.frame(sid, 0, "say", None, b"x")
    assert "move it aside" not in str(got.value)
    missing = Store(tmp_path / "none.sqlite3", readonly=True)
    assert missing.sessions() == [] and not (tmp_path / "none.sqlite3").exists()


def test_a_full_disk_while_monitoring_is_a_message(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite3"
    sid = _filled(path, games=1)

    def watch(port, store, console=None):
        store.db.execute("PRAGMA max_page_count = %d" %
                         store.db.execute("PRAGMA page_count").fetchone()[0])
        for _ in range(10_000):
            store.frame(sid, 0, "say", None, b"x" * 2000)

    import catnip_host.monitor

    monkeypatch.setattr(catnip_host.monitor, "watch", watch)
    out = _cli("monitor", "--store", str(path))
    assert out.exit_code == 1 and "full" in out.output and "free some space" in out.output, \
        out.output


@pytest.mark.parametrize("args", [["sessions", "list", "--store", "s\udcff.sqlite3"],
                                  ["replay", "x\udcff.catnip", "--verify"]])
def test_an_undecodable_path_is_refused_by_name(args):
    out = _cli(*args)
    assert out.exit_code == 1 and "not text in this system's encoding" in out.output, out.output


def test_a_store_whose_table_keys_do_not_read_is_a_message(tmp_path):
    # Found by the store fuzz door: an SQLite error out of the pinned keys'
    # table escaped `replay --verify` as a traceback.
    path = tmp_path / "s.sqlite3"
    _filled(path, games=1)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE table_keys")
    db.commit()
    db.close()
    for args in (["replay", "1", "--verify"], ["tables"]):
        out = _cli(*args, "--store", str(path))
        assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.exception
        assert "session store" in out.output, out.output


@pytest.mark.parametrize("value", ["NULL", "X'00ff'"])
def test_a_frame_row_that_holds_no_frame_is_a_message(tmp_path, value):
    # Found by the store fuzz door: a damaged row's frame read back as None
    # (or bytes) stopped `sessions show` with an AttributeError.
    path = tmp_path / "s.sqlite3"
    _filled(path, games=1)
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema = ON")  # damage, as a disk does: past NOT NULL too
    db.execute("UPDATE sqlite_schema SET sql = replace(sql, 'NOT NULL', '') "
               "WHERE name = 'frames'")
    db.commit()
    db.close()
    db = sqlite3.connect(path)
    triggers = db.execute("SELECT name FROM sqlite_schema WHERE type = 'trigger'").fetchall()
    for (trigger,) in triggers:  # the append-only rule, which a damaged disk does not keep
        db.execute(f"DROP TRIGGER {trigger}")
    db.execute(f"UPDATE frames SET raw = {value} WHERE id = 2")
    db.commit()
    db.close()
    for args in (["sessions", "show", "1"], ["sessions", "show", "1", "--raw"]):
        out = _cli(*args, "--store", str(path))
        assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.exception
        assert "holds no frame" in out.output, out.output
