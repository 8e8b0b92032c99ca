"""Phone seats in the tests: a `catnip serve` on 127.0.0.1 with phone seats
on, fed the table's frames through its Follower exactly as the Keeper hands
them over (so no serial line is needed to see what each page gets), with a
phone per seat: its cookie, its seat page and its own event stream.

A seat's screen here is its rules view (catnip.rules Engine.view: the
public state and that seat's secrets) cut into the 8 rows of 16 characters
a station draws, with a cursor lit: what reaches a phone is that seat's
secrets, which is what the secrecy tests need; the table's own drawing is
the firmware's.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from catnip import rules
from catnip_host.ports import PortError
from catnip_host.serve.site import Site
from serverig import GameTable, get, wait_for

PHONES = [0, 2]  # PhoneTable's phone seats
CSRF = re.compile(rb'<meta name="csrf" content="[0-9a-f]+">')


def plain(x):
    return json.loads(json.dumps(x))


def screen(game, seat: int, cursor: int) -> tuple[list[str], list[list[int]]]:
    """A seat's 8 rows from its rules view, its secrets first; the cursor's
    row lit, as a station lights it."""
    view = game.view(seat)
    secret = {k: view[k] for k in sorted(set(view) - set(plain(game.public())))}
    text = f"P{seat + 1} " + json.dumps(secret, sort_keys=True, separators=(",", ":"))
    rows = [text[i:i + 16] for i in range(0, 16 * 8, 16)]
    return rows, [[0, 0, 3], [1 + cursor % 7, 0, 16]]


def _no_port(port, timeout):
    raise PortError("no table in this test: its frames are fed")


@contextmanager
def fed_site(store_path: Path):
    """A Site with phone seats on and its table's thread stopped: the test
    feeds the frames (Fed), and says the table is connected."""
    site = Site("fed", store_path, port=0, pause=0.01, opener=_no_port, phones=True)
    site.start()
    site.follower.stop()
    site.live.connection("connected to the table", True)
    site._plugged(True)
    try:
        yield site
    finally:
        site.stop()


class Phone:
    """One browser holding one seat: its cookie, its page, its stream."""

    def __init__(self, site, secret: str) -> None:
        self.site = site
        self.host, self.port = site.server.sock.getsockname()[:2]
        status, headers, body = get(site, "/join", "POST", body=json.dumps(
            {"secret": secret}).encode(), headers={**self.origin, "content-type":
                                                   "application/json"})
        assert status == 200, body
        self.seat = json.loads(body)["seat"]
        self.cookie = headers["set-cookie"].split(";")[0]
        self.events: list[bytes] = []
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.conn.request("GET", "/seat/events", headers={"cookie": self.cookie})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> dict:
        return {"origin": f"http://{self.host}:{self.port}"}

    def _read(self) -> None:
        event = b""
        try:
            for line in self.response:
                if line == b"\n":
                    if event.startswith(b"id: "):
                        self.events.append(event)
                    event = b""
                elif not line.startswith(b":"):
                    event += line
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed

    def last(self) -> dict:
        return json.loads(self.events[-1].split(b"data: ", 1)[1]) if self.events else {}

    def page(self) -> bytes:
        """Its seat page, the CSRF token (random for each server run) left out."""
        status, _, body = get(self.site, "/seat", headers={"cookie": self.cookie})
        assert status == 200
        return CSRF.sub(b"", body)

    def csrf(self) -> str:
        _, _, body = get(self.site, "/seat", headers={"cookie": self.cookie})
        found = CSRF.search(body)
        assert found is not None
        return found.group(0).split(b'"')[3].decode()

    def press(self, button: str, hold: bool = False) -> int:
        return get(self.site, "/seat/press", "POST", body=json.dumps(
            {"button": button, "hold": hold}).encode(), headers={
            **self.origin, "cookie": self.cookie, "x-catnip-csrf": self.csrf(),
            "content-type": "application/json"})[0]

    def close(self) -> None:
        hang_up(self.conn)


def hang_up(conn: http.client.HTTPConnection) -> None:
    """Close a stream's connection at once: its reader thread, waiting for
    the next line, is let go (a plain close would wait for it)."""
    if conn.sock is not None:
        conn.sock.shutdown(socket.SHUT_RDWR)
    conn.close()


class Fed:
    """A game's frames fed to a site's Follower as the Keeper hands them
    over, and a view pushed for every bound phone seat after each move."""

    def __init__(self, site, name: str, config: dict, seed: str, phones: list[int]) -> None:
        self.site, self.phones = site, phones
        self.game = rules.new(name, config, seed)
        self.name, self.gid = name, 1
        self.cursors = dict.fromkeys(phones, 0)
        self.shown = dict.fromkeys(phones, 0)  # seat -> views sent, as the table numbers them
        seats = list(range(config["players"]))
        self.frame("begin", gid=self.gid, header=self.game.header(), seats=seats, moves=0,
                   phones=phones)
        self.snap()

    def frame(self, kind: str, **fields) -> None:
        follower = self.site.follower
        follower._frame(kind, plain(fields), self.site.live.apply)

    def snap(self) -> None:
        self.frame("snap", gid=self.gid, game=self.name, public=self.game.public(),
                   phones=self.phones)

    def act(self, player: int, action) -> list:
        events = self.game.act(player, action)
        self.frame("act", gid=self.gid, n=len(self.game.log), events=events)
        self.snap()
        if self.game.result() is not None:
            self.frame("end", gid=self.gid, result=self.game.result())
        return events

    def views(self, bound: list[int]) -> None:
        for seat in bound:
            rows, lit = screen(self.game, seat, self.cursors[seat])
            self.shown[seat] += 1
            self.frame("view", seat=seat, n=self.shown[seat], rows=rows, lit=lit)

    def settle(self, phones: list[Phone], stream) -> None:
        """Until every page has what the site holds now."""
        site = self.site
        applied(site)  # a seat's view is applied on the server's loop, not as it is fed
        wait_for(lambda: site.live.moves == len(self.game.log))
        wait_for(lambda: stream.events and stream.events[-1][1] == site.live.sent,
                 why="the public stream is behind")
        for p in phones:
            wait_for(lambda p=p: p.events and int(p.events[-1].split(b"\n")[0][4:]) ==
                     site.seats.seats[p.seat].version, why=f"P{p.seat + 1}'s stream is behind")


def applied(site) -> None:
    """Wait until the server's loop has run what was handed to it so far: the
    table's seat frames are applied there, in order (Site._from_table)."""
    loop = site.hub.loop
    if loop is None:
        return
    done = threading.Event()
    loop.call_soon_threadsafe(done.set)
    assert done.wait(20), "the server's loop does not answer"


class Keypad:
    """The table's side of the taps, for a Fed game: every command asked
    is kept; a press moves that seat's cursor (Down, Up) and the seat's new
    screen is pushed, as the table redraws a station after a press."""

    def __init__(self, fed: Fed) -> None:
        self.fed = fed
        self.asked: list[tuple[str, dict]] = []
        fed.site.seats.table = self

    def ask(self, word: str, **fields) -> None:
        if word == "press":
            seat = fields["seat"]
            self.fed.cursors[seat] += {"down": 1, "up": -1}.get(str(fields["button"]), 0)
            self.fed.views([seat])
        elif word == "claim":
            self.fed.views([fields["seat"]])
        # Kept once carried out: a test that sees it asked sees its cursor moved
        # (it runs on serve's thread, the test on its own).
        self.asked.append((word, dict(fields)))


class PhoneTable(GameTable):
    """The test table with phone seats: it answers claim, release, press and
    away as the App's phone seats do (App.phoned()), and pushes a claimed seat's screen (its rules
    view: its secrets) after every move."""

    def __init__(self, folder) -> None:
        super().__init__(folder)
        self.claimed: set[int] = set()
        self.cursors: dict[int, int] = {}
        self.pressed: list[tuple] = []
        self.sent_views: list[list[str]] = []

    def phoned(self) -> SimpleNamespace:
        """The phone seats' keeper, as App.phoned() gives it."""
        return SimpleNamespace(command=self.phone)

    def phone(self, word: str, fields: dict) -> None:
        """As the App's phone seats: carried out, answered on the line, then the seat's
        screen (a claimed seat's, or a pressed one's drawn anew) follows."""
        seat = fields["seat"]
        if word == "claim":
            self.claimed.add(seat)
        elif word == "release":
            self.claimed.discard(seat)
        elif word == "press":  # Down and Up move the cursor: the screen is drawn anew
            self.pressed.append((seat, fields["button"], fields["hold"]))
            self.cursors[seat] = self.cursors.get(seat, 0) + {"down": 1, "up": -1}.get(
                fields["button"], 0)
        self.line.send({"release": "released", "press": "pressed"}.get(word, "claimed"),
                       seat=seat)
        if word in ("claim", "press"):
            self.view(seat)

    def view(self, seat: int) -> None:
        rows, lit = screen(self.game, seat, self.cursors.get(seat, 0))
        self.sent_views.append(rows)
        self.line.send("view", seat=seat, n=len(self.sent_views), rows=rows, lit=lit)

    def begin_phones(self, name: str, config: dict, seed: str) -> None:
        self.begin(name, config, seed, list(range(config["players"])))

    def send(self, kind: str, **fields) -> None:
        if kind in ("begin", "snap"):
            fields["phones"] = PHONES
        super().send(kind, **fields)

    def act(self, player: int, action: tuple) -> list[dict]:
        events = super().act(player, action)
        with self.lock:
            for seat in sorted(self.claimed):
                self.view(seat)
        return events
