"""What the laptop accepts it can read back: a frame the store's reader would
refuse is refused at the door (catnip_host.readable), a field a kind does
not declare is never read, seat names are text wherever rich draws them, and
a store whose schema version no catnip wrote is named as damaged."""

from __future__ import annotations

import sqlite3

import orjson
import pytest
from click.testing import CliRunner

from catnip import wire
from catnip_host import readable
from catnip_host.cli import main
from catnip_host.link import Keeper, Link
from catnip_host.monitor import Mirror
from catnip_host.store import Store, frame_fields
from laptop_doors import Port
from recordrig import engine_store
from test_player_names import GAMES

ODD = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b'"\\ud800"', b'"x\\udfff"',
       b"123456789012345678901234567890", b"18446744073709551616", b"-9223372036854775809"]


@pytest.mark.parametrize("value", ODD)
def test_what_the_store_could_not_read_back_is_refused_at_the_door(value):
    with pytest.raises(ValueError):
        readable.loads(b'{"text":' + value + b"}")
    text = b"1 1 say {\"text\":" + value + b"}"
    frame = b"\x1e#" + text + b" %08x" % (wire.crc32(text) & 0xFFFFFFFF)
    with pytest.raises(wire.WireError):
        readable.decode(frame)
    (item,) = readable.reader().feed(frame + b"\n")
    assert item[0] == "bad"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-16-le"])
def test_a_body_not_in_utf8_is_refused(encoding):
    with pytest.raises(ValueError):
        readable.loads('{"text":"hi"}'.encode(encoding))


def test_what_it_takes_reads_back_the_same():
    for text in [b'{"a":"\\ud83d\\ude00","b":-0.0,"c":18446744073709551615,"d":1e308}',
                 b'{"a":[1,2,{"b":null}],"c":"\\u001e"}']:
        assert readable.loads(text) == orjson.loads(text)


def test_nesting_is_bounded_as_the_table_counts_it():
    """readable measures depth in C; wire.nesting (the table's) is the rule."""
    import random

    rng = random.Random(7)
    shapes = [b'[[[{{{]}"\\ a', b'[{[{"\\]}a\n', b'[[[[[[[["\\]', b'[{"\\', b"[[[[[[]}}"]
    for _ in range(3000):
        shape = rng.choice(shapes)
        data = bytes(rng.choice(shape) for _ in range(rng.randint(30, 160)))
        assert readable._deeper(data) == (wire.nesting(data) > wire.MAX_DEPTH), data
    many = b'{"a":[' + b",".join([b'{"b":[1,"]]]"]}'] * 40) + b"]}"  # many brackets, shallow
    assert readable.loads(many)["a"][0] == {"b": [1, "]]]"]}
    with pytest.raises(ValueError, match="nested"):
        readable.loads(b"[" * 33 + b'"[["' + b"]" * 33)


def _keeper(tmp_path):
    port, store, mirror = Port(), Store(tmp_path / "s.sqlite3"), Mirror()
    k = Keeper(Link("fake", opener=lambda p, timeout: port), store, on_frame=mirror.apply)
    k.link.open()
    k.connected()
    k.step()
    hello = {"proto": 1, "fw": "0.1.0", "board": "direct", "uid": "u", "boot": "b", "last": 0,
             "stations": 4, "game": None, "gid": None, "re": k.waiting.cmd}
    port.data += wire.encode("hello", 0, hello)
    k.step()
    return k, port, store


def test_a_field_its_kind_does_not_declare_is_kept_never_read(tmp_path):
    k, port, store = _keeper(tmp_path)
    port.data += wire.encode("say", k.last + 1, {"text": "hi", "gid": 2**63})
    k.step()
    (row,) = store.db.execute("SELECT gid, raw FROM frames WHERE kind = 'say'").fetchall()
    assert row[0] is None and '"gid":9223372036854775808' in row[1]


def test_a_frame_with_nan_is_not_stored_and_the_store_stays_readable(tmp_path):
    k, port, store = _keeper(tmp_path)
    text = b"%d say {\"text\":NaN}" % (k.last + 1)
    text = b"1 " + text
    port.data += b"\x1e#" + text + b" %08x\n" % (wire.crc32(text) & 0xFFFFFFFF)
    k.step()
    for (raw,) in store.db.execute("SELECT raw FROM frames"):
        orjson.loads(frame_fields(raw.encode()))
    assert not store.db.execute("SELECT 1 FROM frames WHERE kind = 'say'").fetchall()


@pytest.fixture
def named(tmp_path):
    path = engine_store(tmp_path / "s.sqlite3", GAMES, 1780000000.0, per_session=2)
    out = CliRunner().invoke(main, ["players", "name", "1", "P1=Sam [guest]", "P2=Al [/b]x",
                                    "--store", str(path)])
    assert out.exit_code == 0, out.output
    return path


@pytest.mark.parametrize("command", [["players", "list"], ["stats"]])
def test_names_are_shown_as_typed_never_read_as_markup(named, command):
    # Wide enough for a whole name in its cell (rich reads COLUMNS, not Click).
    out = CliRunner().invoke(main, [*command, "--store", str(named)], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and out.exception is None, out.output
    assert "Sam [guest]" in out.output and "Al [/b]x" in out.output, out.output


def test_names_in_the_monitor_are_text():
    from rich.console import Console

    m = Mirror()
    m.names = ("Sam [guest]", "Al [/b]x")  # as `catnip players name` gave them
    begin = {"gid": 1, "header": {"game": "purrfect", "config": {"players": 4, "mode": "stations"},
                                  "seed_commit": "0" * 64}, "seats": [0, 1, 2, 3], "moves": 0}
    m.apply("begin", begin)
    from catnip import rules

    game = rules.new("purrfect", {"players": 4, "mode": "stations"}, "s")
    m.apply("snap", {"gid": 1, "game": "purrfect", "public": game.public()})
    console = Console(record=True, width=120)
    console.print(m.render())
    shown = console.export_text()
    assert "Sam [guest]" in shown and "Al [/b]x" in shown, shown


@pytest.mark.parametrize("version", [-1, -(2**31)])
def test_a_schema_version_no_catnip_wrote_is_named_as_damage(tmp_path, version):
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()
    for command in (["sessions", "list"], ["players", "list"], ["stats"], ["export"]):
        out = CliRunner().invoke(main, [*command, "--store", str(path)])
        assert out.exit_code == 1 and "damaged" in out.output, (command, out.output,
                                                               out.exception)


@pytest.mark.parametrize("name", ["x" * 300, "a\x00b"])
def test_a_board_name_the_file_system_cannot_take_is_refused(name):
    out = CliRunner().invoke(main, ["check-board", name])
    assert out.exit_code == 2 and "board" in out.output, (out.output, out.exception)
