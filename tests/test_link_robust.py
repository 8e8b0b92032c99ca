"""What arrives never crashes the laptop: every frame is checked against
catnip.wire.MESSAGES, a malformed one is logged as bad and skipped (a stream
frame's number kept as a gap, so it is not asked for again), and the mirror
draws whatever order begin, snap, resync and damage come in."""

from __future__ import annotations

import pytest
from rich.console import Console

from catnip import rules, wire
from catnip_host.link import Keeper, Link
from catnip_host.monitor import Mirror
from catnip_host.store import Store
from laptop_doors import Port
from test_link import Table, _keeper, _settle


def _shown(mirror: Mirror) -> str:
    console = Console(record=True, width=110)
    console.print(mirror.render())
    return console.export_text()


def _begin(name, gid, players=3):
    game = rules.new(name, {"players": players}, "s")
    return game, {"gid": gid, "header": game.header(), "seats": list(range(players)), "moves": 0}


def test_a_replug_after_another_title_began_never_crashes_the_mirror():
    heist, begin_heist = _begin("heist", 1)
    stack, begin_stack = _begin("stack", 2)
    mirror = Mirror()
    mirror.apply("begin", begin_heist)
    mirror.apply("snap", {"gid": 1, "game": "heist", "public": heist.public()})
    assert "safe card" in _shown(mirror)
    mirror.apply("begin", begin_stack)  # resync replays the new begin before its snapshot
    shown = _shown(mirror)
    assert "Stack O' Cats (game 2): waiting for the table's state" in shown
    mirror.apply("snap", {"gid": 2, "game": "stack", "public": stack.public()})
    assert "tower" in _shown(mirror)
    mirror.apply("begin", begin_heist)  # an old begin again, its snap damaged on the way
    assert "waiting" in _shown(mirror)


def test_a_state_the_mirror_does_not_know_is_shown_as_text():
    mirror = Mirror()
    mirror.apply("begin", _begin("stack", 1)[1])
    mirror.apply("snap", {"gid": 1, "game": "stack", "public": {"tower": "x", "turn": [1]}})
    assert "tower" in _shown(mirror)
    mirror.apply("end", {"gid": 1, "result": {"ranks": ["a", None, 3]}})
    assert "ranks" in _shown(mirror)


@pytest.mark.parametrize(("kind", "fields"), [
    ("begin", {"gid": 1, "header": [], "seats": [0], "moves": 0}),
    ("begin", {"gid": 1, "header": {"game": 3}, "seats": [0], "moves": 0}),
    ("act", {"gid": 1, "n": "2", "events": []}),
    ("act", {"gid": 1, "n": 2, "events": ["x"]}),
    ("end", {"gid": 1, "result": None}),
    ("say", {"text": 5}),
    ("snap", {"gid": 1, "game": 7, "public": {}}),
])
def test_the_mirror_names_and_skips_a_malformed_frame(kind, fields):
    mirror = Mirror()
    mirror.apply(kind, fields)
    assert "malformed" in mirror.feed[-1]
    _shown(mirror)


def _connected(tmp_path):
    port = Port()
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    mirror = Mirror()
    keeper = Keeper(Link("fake", opener=lambda p, timeout: port), store, notify=notes.append,
                    on_frame=mirror.apply)
    keeper.link.open()
    keeper.connected()
    keeper.step()
    hello = {"proto": 1, "fw": "0.1.0", "board": "direct", "uid": "u1", "boot": "b1", "last": 0,
             "stations": 4, "game": None, "gid": None, "re": keeper.waiting.cmd}
    port.data += wire.encode("hello", 0, hello)
    keeper.step()
    assert keeper.session is not None
    return port, store, keeper, notes, mirror


def test_a_games_answer_with_a_text_gid_is_skipped_and_named(tmp_path):
    port, store, keeper, notes, _ = _connected(tmp_path)
    while keeper.waiting is None or keeper.waiting.kind != "games":
        keeper.waiting = None
        keeper.step()
    port.data += wire.encode("games", 0, {"games": [["1", "finished"]], "re": keeper.waiting.cmd})
    keeper.step()
    assert any("malformed" in n and "games" in n for n in notes), notes
    assert keeper.waiting is None or keeper.waiting.kind != "games"
    assert ("bad",) == tuple({k for k, _ in store.noise_lines(keeper.session)} - {"noise"})


def test_a_stream_frame_with_a_huge_gid_is_kept_as_a_gap_not_asked_for_forever(tmp_path):
    port, store, keeper, notes, mirror = _connected(tmp_path)
    port.data += wire.encode("say", 1, {"text": "hi"})
    port.data += wire.encode("act", 2, {"gid": 2**63, "n": 1, "events": []})
    port.data += wire.encode("say", 3, {"text": "after"})
    keeper.step()
    assert keeper.last == 3 and keeper.resyncs == 0
    assert [(f.seq, f.kind, f.gid) for f in store.frames(keeper.session) if f.seq] == \
        [(1, "say", None), (2, "bad", None), (3, "say", None)]
    assert mirror.notice == "after"


def test_deeply_nested_json_is_a_bad_frame_not_a_recursion_error():
    deep = b"[" * 100_000 + b"]" * 100_000
    body = b"1 1 say {\"text\":" + deep + b"}"
    frame = b"\x1e#" + body + b" %08x\n" % (wire.crc32(body) & 0xFFFFFFFF)
    out = wire.Reader(max_line=1 << 20).feed(frame)
    assert [i[0] for i in out] == ["bad"] and "nested" in out[0][1]
    with pytest.raises(ValueError, match="nested"):
        wire.loads(b"{\"a\":" + deep + b"}")
    assert wire.loads('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')["a"][:2] == "[["


def test_a_command_cut_after_its_version_is_not_called_a_version_mismatch():
    with pytest.raises(wire.WireError, match="cut short"):
        wire.decode(b"\x1e>1", wire.LAPTOP)


# ---- nothing finished is lost unsaid --------------------------------------------


def test_a_game_the_table_removed_unpulled_is_said_and_acknowledged(tmp_path):
    from catnip.flash.journal import Journal
    from test_link import Table, _keeper, _settle

    table = Table(tmp_path)
    for k in range(13):  # the 13th makes room: game 1, finished, nobody pulled it
        table.play(seed=f"g{k}")
    assert table.journal.lost == [(1, "finished", "heist")]
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    keeper = _keeper(table, store, notes)
    _settle(keeper)
    assert any("game 1 was removed from the table's journal" in n for n in notes), notes
    assert table.journal.lost == [] and Journal(str(tmp_path / "journal")).lost == []
    assert len(keeper.pulled) == 12


def test_a_broken_game_is_pulled_as_far_as_it_reads_and_marked_incomplete(tmp_path):
    from catnip.flash.journal import Journal
    from click.testing import CliRunner

    from catnip_host.cli import main
    from test_link import Table, _keeper, _settle

    table = Table(tmp_path)
    table.play(seed="b")
    folder = tmp_path / "journal" / "1.finished"
    log = folder / "log"
    data = bytearray(log.read_bytes())
    data[-20] ^= 0x40  # past the header: the first moves still read
    log.write_bytes(bytes(data))
    table.journal = Journal(str(tmp_path / "journal"))  # the table powers up again
    assert table.journal.games() == [(1, "broken")]
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    keeper = _keeper(table, store, notes)
    _settle(keeper)
    assert keeper.pulled == [1], notes
    assert any("damaged on the table" in n and "incomplete" in n for n in notes), notes
    assert table.journal.games() == [(1, "pulled")]
    out = CliRunner().invoke(main, ["replay", str(keeper.session), "--verify", "--store",
                                    str(tmp_path / "s.sqlite3")])
    assert out.exit_code == 3 and "damaged on the table" in out.output, out.output


def test_moves_a_resumed_game_lost_from_its_journal_are_named(tmp_path):
    port, store, keeper, notes, _ = _connected(tmp_path)
    game, begin = _begin("heist", 1)
    seq = 0
    for kind, fields in [("begin", begin)] + [("act", {"gid": 1, "n": n, "events": []})
                                               for n in range(1, 11)]:
        seq += 1
        port.data += wire.encode(kind, seq, fields)
    port.data += wire.encode("begin", seq + 1, dict(begin, moves=7))  # resumed after move 7
    keeper.step()
    assert any("resumed after move 7, but moves 8-10 were announced" in n for n in notes), notes


def test_the_keeper_is_never_idle_while_the_games_answer_queues_its_pulls(tmp_path):
    # idle is read from another thread (the virtual table's mirror, which
    # stops at the first idle): a games answer must queue its pulls before
    # it stops waiting, or a game the table finished is left unpulled.
    table = Table(tmp_path)
    table.play(seed="one")
    keeper = _keeper(table, Store(tmp_path / "s.sqlite3"))
    seen = []
    request = keeper.request

    def watched(kind, first=False, **fields):
        if kind == "pull":
            seen.append(keeper.idle)
        request(kind, first, **fields)

    keeper.request = watched
    _settle(keeper)
    assert keeper.pulled == [1] and seen and not any(seen)
