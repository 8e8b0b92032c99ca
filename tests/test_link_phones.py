"""The laptop's side of phone seats (docs/phones.md): Keeper.ask from any
thread, the answers and views to on_frame alone, nothing of a view in the
store, the logs or the mirror, and a press never sent twice."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from catnip import wire
from catnip_host.link import Keeper, Link
from catnip_host.phone_seats import HEARTBEAT_S
from catnip_host.monitor import Mirror
from catnip_host.store import Store
from test_link import FakePort, LaptopSide, _settle

SECRET = "Mrrp 7 of hearts"  # a phone seat's private row: it must be nowhere but on_frame


class PhoneTable:
    """A table's line that answers phone-seat commands as the table does
    (catnip.link.remote), seat 4 its one phone seat."""

    def __init__(self):
        from catnip.link.line import Line

        self.port = FakePort(self)
        self.line = Line(None, self.port, self.command, boot="b1")
        self.claimed = set()
        self.presses = []
        self.quiet = set()  # commands it reads and never answers
        self.sent = 0  # seat 4's views, numbered as the table numbers them
        self.damage = 0  # views to damage on the way (a bit flipped: the CRC fails)
        self.seen_asked = []  # the "seen" of each claim

    def command(self, word, fields):
        line = self.line
        if word in self.quiet:
            return
        if word == "hello":
            line.send(wire.HELLO, app="catnip", fw="t", board="direct", uid="u1", stations=4,
                      game=None, gid=None, key=None)
        elif word in ("snapshot", "games", "clock"):
            answer = {"snapshot": (wire.SYNCED, {"last": line.seq}),
                      "games": (wire.GAMES, {"games": []}),
                      "clock": (wire.CLOCK, {"time": fields.get("time", 0)})}[word]
            line.send(answer[0], **answer[1])
        elif fields.get("seat") != 4:
            line.error("seat %d has a station: it plays there" % fields["seat"])
        elif word == "claim":
            again = 4 in self.claimed
            self.claimed.add(4)
            self.seen_asked.append(fields.get("seen"))
            line.send(wire.CLAIMED, seat=4)
            if not again or fields.get("seen", self.sent) != self.sent:  # its last view lost
                self.view(["Hand", SECRET + "!" * len(self.presses)])
        elif word == "press":
            self.presses.append(fields["button"])
            line.send(wire.PRESSED, seat=4)
            self.view(["Hand", SECRET + "!"])
        elif word == "release":
            self.claimed.discard(4)
            line.send(wire.RELEASED, seat=4)

    def view(self, rows):
        self.sent += 1
        frame = wire.encode(wire.VIEW, 0, {"seat": 4, "n": self.sent, "rows": rows,
                                           "lit": [[0, 0, 16]]})
        if self.damage:
            self.damage -= 1
            frame[-4] ^= 1
        self.port.write(frame)


def _keeper(table, store, frames, notes):
    link = Link("fake", opener=lambda port, timeout: LaptopSide(table.port))
    return Keeper(link, store, notify=notes.append, on_frame=lambda k, f: frames.append((k, f)))


def _clocked(tmp_path):
    """A Keeper on the phone table whose clock the test moves (now[0]), settled."""
    table, frames, notes = PhoneTable(), [], []
    now = [0.0]
    keeper = _keeper(table, Store(tmp_path / "s.db"), frames, notes)
    keeper.clock = lambda: now[0]
    _settle(keeper)
    return table, frames, notes, now, keeper


def test_asked_commands_reach_on_frame_and_nothing_of_a_view_is_kept(tmp_path):
    table, frames, notes = PhoneTable(), [], []
    store = Store(tmp_path / "s.db")
    keeper = _keeper(table, store, frames, notes)
    mirror = Mirror()
    keeper.on_frame = lambda k, f: (frames.append((k, f)), mirror.apply(k, f))
    _settle(keeper)
    # serve's web handlers ask from their own threads
    asking = [threading.Thread(target=keeper.ask, args=("claim",), kwargs={"seat": 4}),
              threading.Thread(target=keeper.ask, args=("press",),
                               kwargs={"seat": 4, "button": "ok", "hold": False})]
    for t in asking:
        t.start()
        t.join()
    keeper.ask("press", seat=1, button="up", hold=False)
    _settle(keeper)
    kinds = [k for k, _ in frames]
    assert kinds == ["claimed", "view", "pressed", "view", "err"], kinds
    assert frames[1][1]["rows"][1] == SECRET and table.presses == ["ok"]
    err = frames[4][1]
    assert err["asked"] == "press" and err["seat"] == 1 and "station" in err["why"]
    assert keeper.phones.held == {4}
    # Nothing of the views anywhere but on_frame: the store, the notes, the mirror.
    store.close()
    db = sqlite3.connect(tmp_path / "s.db")
    kept = b"".join(bytes(row[0]) if isinstance(row[0], (bytes, bytearray)) else
                    str(row[0]).encode() for table_name in
                    [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
                    for row in db.execute(f"select * from {table_name}") for row in [(row,)])
    assert SECRET.encode() not in kept and b"view" not in kept
    assert not any(SECRET in n for n in notes)
    assert SECRET not in json.dumps(mirror.__dict__, default=str)
    assert mirror.frames == 0  # views and phone answers are not the mirror's


def test_ask_refuses_other_words_and_bad_fields(tmp_path):
    keeper = _keeper(PhoneTable(), Store(tmp_path / "s.db"), [], [])
    with pytest.raises(ValueError, match="ask"):
        keeper.ask("abort")
    with pytest.raises(ValueError, match="button"):
        keeper.ask("press", seat=4, hold=False)
    assert keeper.phones.empty()


def test_a_press_is_never_sent_twice(tmp_path):
    table, frames, notes, now, keeper = _clocked(tmp_path)
    table.quiet.add("press")
    keeper.ask("press", seat=4, button="ok", hold=False)
    sent = []
    real = keeper.link.send
    keeper.link.send = lambda kind, **f: (sent.append(kind), real(kind, **f))[1]
    for _ in range(10):
        keeper.step()
        now[0] += 0.3
    assert sent == ["press"]
    assert frames[-1][0] == "err" and frames[-1][1]["asked"] == "press"


def test_a_held_seat_is_claimed_again_while_the_laptop_is_there(tmp_path):
    table, frames, notes, now, keeper = _clocked(tmp_path)
    keeper.ask("claim", seat=4)
    keeper.step()
    keeper.step()
    sent = []
    real = keeper.link.send
    keeper.link.send = lambda kind, **f: (sent.append(kind), real(kind, **f))[1]
    for _ in range(int(3 * HEARTBEAT_S / 0.25)):
        now[0] += 0.25
        keeper.step()
    assert sent.count("claim") in (2, 3) and set(sent) == {"claim"}
    assert [k for k, _ in frames].count("claimed") == 1  # the heartbeat's answers are its own
    keeper.ask("release", seat=4)
    keeper.step()
    keeper.step()
    sent.clear()
    for _ in range(int(3 * HEARTBEAT_S / 0.25)):
        now[0] += 0.25
        keeper.step()
    assert sent == [] and keeper.phones.held == set()


def test_a_view_damaged_on_the_way_comes_again_with_the_next_heartbeat(tmp_path):
    table, frames, notes, now, keeper = _clocked(tmp_path)
    keeper.ask("claim", seat=4)
    _settle(keeper)
    table.damage = 1
    keeper.ask("press", seat=4, button="ok", hold=False)
    _settle(keeper)
    assert [k for k, _ in frames] == ["claimed", "view", "pressed"]  # view 2 lost
    assert any("damaged" in n for n in notes)
    for _ in range(int(1.5 * HEARTBEAT_S / 0.25)):
        now[0] += 0.25
        keeper.step()
    views = [f for k, f in frames if k == "view"]
    assert [v["n"] for v in views] == [1, 3] and views[1]["rows"][1] == SECRET + "!"
    assert table.seen_asked == [None, 1]
    for _ in range(int(2.5 * HEARTBEAT_S / 0.25)):  # seen: nothing more comes
        now[0] += 0.25
        keeper.step()
    assert table.seen_asked[2:] == [3] * len(table.seen_asked[2:]) and table.seen_asked[2:]
    assert len([k for k, _ in frames if k == "view"]) == 2


def test_the_heartbeat_claims_each_held_seat_in_turn_with_its_last_view():
    from catnip_host.phone_seats import PhoneSeats

    phones = PhoneSeats()
    for seat in (6, 4, 5):
        phones.heard(wire.CLAIMED, {"seat": seat}, 0.0)
    phones.heard(wire.VIEW, {"seat": 5, "n": 9, "rows": [], "lit": []}, 0.0)
    beats = []
    for k in range(1, 5):
        beats.append(phones.due(k * (HEARTBEAT_S + 0.1), beating=False)[1])
    assert beats == [{"seat": 4}, {"seat": 5, "seen": 9}, {"seat": 6}, {"seat": 4}]
    phones.heard(wire.RELEASED, {"seat": 5}, 0.0)
    assert phones.due(9 * HEARTBEAT_S, beating=False)[1] == {"seat": 6}
    assert phones.due(10 * HEARTBEAT_S, beating=True)[1] is None  # one on its way already


def test_the_laptop_may_start_a_game_with_phone_places(tmp_path):
    from test_link import Table

    table = Table(tmp_path)

    def ask(seats):
        table.port.to_laptop.clear()
        table.line.feed(wire.encode("start", 1, {"game": "heist", "config": {}, "seats": seats},
                                    wire.LAPTOP))
        return [(f[2], f[3]) for f in wire.Reader().feed(bytes(table.port.to_laptop))]

    assert ask([0, 4, 5])[0][0] == "started"  # two seats on phones: places after the stations
    (kind, fields), = ask([0, 12])
    assert kind == "err" and "phone places 4-11" in fields["why"]
