"""The laptop's link against the table's real line and journal, in process:
pulls exactly once, acknowledgement only after storing, gaps reported,
errors named; the store's schema and append-only rule; finding the port."""

from __future__ import annotations

import errno
import os
import socket
import threading
import time
from types import SimpleNamespace

import pytest
import serial

from catnip import rules, wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip.link.remote import Remote
from catnip.rules.rng import Rng
from catnip.table.wall import Wall
from catnip_host import ports
from catnip_host.link import Disconnected, Keeper, Link, serve
from catnip_host.store import SCHEMA_VERSION, Store, StoreError
from playout import any_legal



def _chip_rtc():
    """The RP2040's clock on devsim's `machine` (on the path under pytest);
    none for the benches that play this table without it."""
    try:
        from catnip.drivers.chip_rtc import ChipRTC
    except ImportError:
        return None
    return ChipRTC()


class Table:
    """The table's line and journal with no game in play (catnip.link.remote
    answers the commands, as on the Pico)."""

    def __init__(self, folder):
        self.journal = Journal(str(folder / "journal"))
        self.stations, self.game, self.name, self.gid = 4, None, None, None
        self.weigh = self.calibration = None  # a board without a tray
        self.hw = SimpleNamespace(board=SimpleNamespace(name="direct"), online=lambda k: True)
        self.port = FakePort(self)
        self.line = Line(None, self.port, self.command, boot="b1")
        self.remote = Remote(self, self.line)
        self.out = self  # as App.out: the line's messages and the notices
        self.seal = None  # as App.seal: this table signs nothing (tests/test_signatures.py does)
        self.clock = SimpleNamespace(ticks_ms=lambda: 1000)
        # As App.wall on the RP2040's clock: the games from now on carry the laptop's date.
        self.wall = Wall(SimpleNamespace(clocks=lambda: [c for c in (_chip_rtc(),) if c]),
                         self.clock)

    def command(self, word, fields):
        self.remote.command(word, fields)

    def calibrate(self, station):  # as App.calibrate; refused, for this table has no tray
        import sys

        loaded = list(sys.modules)
        from catnip.table.calibrate import begin

        return begin(self, station, loaded)


    def send(self, kind, **fields):
        if kind == "snap":
            fields.update(gid=None, game=None, public=None)
        self.line.send(kind, **fields)

    def start(self, name, config, seats):
        rules.new(name, config)  # what App.start refuses, it refuses here (the rest needs framebuf)

    def say(self, text):
        self.line.send("say", text=text)

    def play(self, name="heist", config=None, seed="s"):
        """One whole game journaled while no laptop listens."""
        game = rules.new(name, config or {"players": 3}, seed)
        header = game.journal()
        del header["log"]
        header["seats"] = [0, 1, 2]
        self.journal.begin(header)
        rng = Rng(seed)
        while game.result() is None:
            p = game.to_act()[0]
            a = any_legal(game, p, rng)
            game.act(p, a)
            self.journal.action(p, a)
        self.journal.finish(game.result())
        return game


class FakePort:
    """A serial port straight into the table's line. `unplugged` drops
    everything both ways; `lose` drops commands of those kinds."""

    def __init__(self, table):
        self.table = table
        self.to_laptop = bytearray()
        self.unplugged = False
        self.lose: set[str] = set()
        self.is_open = True

    # the table writes
    def write(self, data):
        if not self.unplugged:
            self.to_laptop.extend(data)

    # the laptop's side (pyserial's interface)
    def laptop_write(self, data):
        if self.unplugged:
            raise serial.SerialException("device disconnected")
        kind = data.split(b" ")[2].decode()
        if kind not in self.lose:
            self.table.line.feed(data)

    @property
    def in_waiting(self):
        return len(self.to_laptop)

    def read(self, n):
        if self.unplugged:
            raise serial.SerialException("device disconnected")
        data = bytes(self.to_laptop[:n])
        del self.to_laptop[:n]
        return data

    def close(self):
        pass


class LaptopSide:
    def __init__(self, port):
        self.port = port
        self.write = port.laptop_write
        self.read = port.read
        self.close = port.close

    @property
    def in_waiting(self):
        return self.port.in_waiting


def _keeper(table, store, notes=None):
    link = Link("fake", opener=lambda port, timeout: LaptopSide(table.port))
    keeper = Keeper(link, store, notify=(notes.append if notes is not None else lambda t: None))
    return keeper


def _settle(keeper, steps=200):
    serve(keeper, lambda: (keeper.idle and not keeper.link.serial.in_waiting) or _count(),
          pause=0)


_STEPS = [0]


def _count():
    _STEPS[0] += 1
    return _STEPS[0] % 2000 == 0  # a bound, so a broken keeper fails instead of hanging


def test_games_played_without_the_laptop_are_pulled_once_then_freed(tmp_path):
    table = Table(tmp_path)
    a, b = table.play(seed="one"), table.play("stack", {"players": 2}, seed="two")
    store = Store(tmp_path / "s.sqlite3")
    keeper = _keeper(table, store)
    _settle(keeper)
    assert sorted(keeper.pulled) == [1, 2]
    assert dict(table.journal.games()) == {1: "pulled", 2: "pulled"}
    rows = store.db.execute("SELECT COUNT(*) FROM frames").fetchone()[0]
    again = _keeper(table, store)  # the laptop's tool starts again
    _settle(again)
    assert again.pulled == [] and store.db.execute("SELECT COUNT(*) FROM pulls").fetchone()[0] == 2
    assert store.db.execute("SELECT COUNT(*) FROM frames").fetchone()[0] > rows  # hello, snap
    entries = [f for f in store.frames(keeper.session) if f.kind == "entry"]
    assert len(entries) == len(a.log) + len(b.log) + 2  # every move and both ends


def test_a_crash_before_the_acknowledgement_never_stores_a_game_twice(tmp_path):
    table = Table(tmp_path)
    table.play()
    store = Store(tmp_path / "s.sqlite3")
    table.port.lose = {"ack"}  # the laptop dies right after storing
    keeper = _keeper(table, store)
    serve(keeper, lambda: bool(keeper.pulled), pause=0)
    assert dict(table.journal.games()) == {1: "finished"}  # not freed: never acknowledged
    table.port.lose = set()
    _settle(_keeper(table, store))
    assert dict(table.journal.games()) == {1: "pulled"}
    assert store.db.execute("SELECT COUNT(*) FROM pulls").fetchone()[0] == 1
    assert store.db.execute("SELECT COUNT(*) FROM frames WHERE kind = 'game'").fetchone()[0] == 1


def test_a_gap_the_table_cannot_fill_is_stored_and_reported(tmp_path):
    table = Table(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    keeper = _keeper(table, store, notes)
    _settle(keeper)
    before = table.line.seq
    table.port.unplugged = True
    for k in range(300):
        table.say("while away %d" % k)
    with pytest.raises(Disconnected):
        keeper.step()
    table.port.unplugged = False
    _settle(keeper)
    ((first, last, why),) = store.gaps(keeper.session)
    assert first == before + 1 and last > 100 and "no longer" in why
    assert any("lost while the laptop was away" in n for n in notes)
    seqs = [f.seq for f in store.frames(keeper.session) if f.seq]
    assert seqs == sorted(seqs) and seqs[-1] == table.line.seq
    assert set(range(first, last + 1)).isdisjoint(seqs)


def test_what_the_table_refuses_is_named(tmp_path):
    table = Table(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    keeper = _keeper(table, store, notes)
    _settle(keeper)
    for kind, fields in (("pull", {"gid": 7, "from": 0}), ("abort", {}),
                         ("calibrate", {"step": "begin"}),
                         ("start", {"game": "chess", "config": {}, "seats": [0, 1]}),
                         ("start", {"game": "heist", "config": {}, "seats": [0, 12]})):
        keeper.request(kind, **fields)
        _settle(keeper)
    refusals = [n for n in notes if n.startswith("the table refused")]
    assert len(refusals) == 5, notes
    assert "not in the journal" in refusals[0] and "no game is in play" in refusals[1]
    assert "has no tray" in refusals[2] and "chess" in refusals[3]
    assert "seats" in refusals[4]


def test_the_clock_is_set_and_stop_hands_back_the_repl(tmp_path):
    import machine

    table = Table(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    keeper = _keeper(table, store)
    _settle(keeper)
    keeper.request("clock", time=1767225600)  # 2026-01-01 00:00 UTC
    _settle(keeper)
    assert machine.RTC().datetime()[:3] == (2026, 1, 1)
    assert table.wall.time() == 1767225600
    keeper.request("stop")
    with pytest.raises(SystemExit):
        _settle(keeper)


def test_a_command_with_wrong_fields_never_leaves_the_laptop(tmp_path):
    link = Link("fake", opener=lambda port, timeout: None)
    with pytest.raises(wire.WireError, match="gid"):
        link.send("pull", gid="one", **{"from": 0})


# ---- ports ------------------------------------------------------------------------


def _comports(*devices):
    return lambda: [SimpleNamespace(device=d, vid=v, pid=p) for d, v, p in devices]


def test_the_pico_is_found_by_its_usb_ids(monkeypatch):
    monkeypatch.setattr(ports.list_ports, "comports",
                        _comports(("/dev/ttyUSB0", 0x1A86, 0x7523), ("/dev/ttyACM1", 0x2E8A, 5)))
    assert ports.find_pico() == "/dev/ttyACM1"
    monkeypatch.setattr(ports.list_ports, "comports", _comports(("/dev/ttyUSB0", 0x1A86, 1)))
    with pytest.raises(ports.PortError, match="no Pico found.*ttyUSB0.*--port"):
        ports.find_pico()
    monkeypatch.setattr(ports.list_ports, "comports",
                        _comports(("COM3", 0x2E8A, 5), ("COM4", 0x2E8A, 5)))
    with pytest.raises(ports.PortError, match="2 Picos.*COM3, COM4.*--port"):
        ports.find_pico()


@pytest.mark.parametrize(("platform", "fix"), [("linux", "dialout"), ("darwin", "cu.usbmodem"),
                                               ("win32", "Device Manager")])
def test_a_port_that_will_not_open_says_how_to_fix_it(monkeypatch, platform, fix):
    monkeypatch.setattr(ports.sys, "platform", platform)
    denied = serial.SerialException(errno.EACCES, "could not open port: Permission denied")
    assert fix in ports.explain("/dev/ttyACM0", denied)
    busy = serial.SerialException(errno.EBUSY, "could not exclusively lock port")
    assert "busy" in ports.explain("/dev/ttyACM0", busy)
    gone = serial.SerialException(errno.ENOENT, "No such file or directory")
    assert "plugged in" in ports.explain("/dev/ttyACM9", gone)
    with pytest.raises(ports.PortError, match="does not exist"):
        ports.open_port(str(os.devnull) + "-nothing")


def test_a_socket_url_reaches_a_table_over_the_network(tmp_path):
    table = Table(tmp_path)
    server = socket.create_server(("127.0.0.1", 0))
    host, port = server.getsockname()

    def serve_one():
        conn, _ = server.accept()
        conn.settimeout(5)
        table.port.write = lambda data: conn.sendall(data)
        while True:
            data = conn.recv(4096)
            if not data:
                break
            table.line.feed(data)
        conn.close()

    threading.Thread(target=serve_one, daemon=True).start()
    store = Store(tmp_path / "s.sqlite3")
    keeper = Keeper(Link(f"socket://{host}:{port}"), store)
    t0 = time.monotonic()
    serve(keeper, lambda: keeper.idle or time.monotonic() - t0 > 10, pause=0.01)
    assert keeper.idle and keeper.hello["board"] == "direct" and keeper.hello["boot"] == "b1"
    keeper.link.close()
    server.close()


# ---- the store ----------------------------------------------------------------------


def test_the_store_migrates_old_files_and_refuses_newer_ones(tmp_path):
    import sqlite3

    old = tmp_path / "old.sqlite3"
    sqlite3.connect(old).close()  # a store from before the first schema: version 0
    s = Store(old)
    assert s.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s.close()
    newer = tmp_path / "newer.sqlite3"
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer.*update catnip"):
        Store(newer)


def test_the_store_is_append_only(tmp_path):
    import sqlite3

    s = Store(tmp_path / "s.sqlite3")
    sid = s.session("u", "b", "direct", "0.1.0")
    s.frame(sid, 1, "say", None, wire.encode("say", 1, {"text": "x"})[:-1])
    for sql in ("UPDATE frames SET kind = 'act'", "DELETE FROM frames", "DELETE FROM sessions"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            s.db.execute(sql)
    with pytest.raises(StoreError, match="no session 9"):
        s.info(9)


class _Quiet:
    """A port with a laptop that may not be there: it reads nothing."""

    def __init__(self):
        self.sent = bytearray()

    def write(self, data):
        self.sent.extend(data)


def test_the_state_is_pushed_only_once_a_laptop_has_spoken():
    out = _Quiet()
    line = Line(_Quiet(), out, lambda word, fields: None, boot="b1")
    assert not line.wants("snap") and line.wants("act") and line.wants("hello")
    line.send("snap", gid=1, game="heist", public={"round": 1})
    line.send("act", gid=1, n=1, events=[])
    assert [f[2] for f in wire.Reader().feed(bytes(out.sent))] == ["act"]  # numbered, kept
    line.feed(wire.encode("games", 1, {}, wire.LAPTOP))  # a laptop connects and asks
    assert line.wants("snap")
    out.sent.clear()
    line.send("snap", gid=1, game="heist", public={"round": 1})
    assert [f[2] for f in wire.Reader().feed(bytes(out.sent))] == ["snap"]
    # A line that only tells cannot be asked: it always pushes.
    assert Line(None, out, None, boot="b1").wants("snap")


def test_a_game_ended_from_a_station_menu_is_pulled_at_once(tmp_path):
    table = Table(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    keeper = _keeper(table, store)
    _settle(keeper)  # connected, nothing to pull
    game = rules.new("heist", {"players": 3}, "ended")
    header = game.journal()
    del header["log"]
    header["seats"] = [0, 1, 2]
    table.journal.begin(header)
    table.journal.abandon()  # as App.end_game: journaled, then said on every station
    table.say("Meow Heist ended from station 1")
    _settle(keeper)
    assert keeper.pulled == [1] and dict(table.journal.games()) == {1: "pulled"}
