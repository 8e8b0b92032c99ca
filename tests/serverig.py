"""`catnip serve` in the tests: a Site on a free port of 127.0.0.1 beside a
table, HTTP by the standard library, and the event stream as a page gets it.

GameTable is the table's real line and journal (catnip.link.line, catnip.link.remote,
catnip.flash.journal, under CPython) with a game the rules play, sending its
frames exactly as App does (begin, act, snap, end), so a test chooses every
move, the secret ones too.
"""

from __future__ import annotations

import http.client
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from catnip import rules
from catnip_host.serve.site import Site
from test_link import LaptopSide, Table


class GameTable(Table):
    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        # The laptop's thread reads the port and has the table answer its
        # commands while the test plays: one at a time through the line, and
        # through the port's buffer.
        self.lock = threading.Lock()
        port, buffer = self.port, threading.Lock()
        laptop_write, write, read = port.laptop_write, port.write, port.read

        def answer(data: bytes) -> None:
            with self.lock:
                laptop_write(data)

        def locked(call):
            def through(*args):
                with buffer:
                    return call(*args)
            return through

        port.laptop_write, port.write, port.read = answer, locked(write), locked(read)

    def opener(self, port, timeout):
        return LaptopSide(self.port)

    def begin(self, name: str, config: dict, seed: str, seats: list[int]) -> None:
        with self.lock:
            self.name, self.game = name, rules.new(name, config, seed)
            header = self.game.journal()
            del header["log"]
            header["seats"] = seats
            self.gid = self.journal.begin(header)
            self.line.send("begin", gid=self.gid, header=self.game.header(), seats=seats, moves=0)
            self.send("snap")

    def act(self, player: int, action: tuple) -> list[dict]:
        with self.lock:
            events = self.game.act(player, action)
            self.journal.action(player, action)
            self.line.send("act", gid=self.gid, n=len(self.game.log), events=events)
            self.send("snap")
            result = self.game.result()
            if result is not None:
                self.journal.finish(result)
                self.line.send("end", gid=self.gid, result=result)
            return events

    def send(self, kind: str, **fields) -> None:
        if kind == "snap":
            playing = self.game is not None
            fields.update(gid=self.gid if playing else None, game=self.name,
                          public=self.game.public() if playing else None)
        self.line.send(kind, **fields)


def get(site: Site, path: str, method: str = "GET", headers: dict | None = None,
        body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    host, port = site.server.sock.getsockname()[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)  # a deadline, not a measurement
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


class Stream:
    """/events read as a page reads it, on a thread: every (id, data) sent."""

    def __init__(self, site: Site) -> None:
        host, port = site.server.sock.getsockname()[:2]
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        self.events: list[tuple[int, bytes]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event: dict[str, bytes] = {}
        try:
            for line in self.response:
                line = line.rstrip(b"\n")
                if not line:
                    if b"data" in event:
                        self.events.append((int(event[b"id"]), event[b"data"]))
                    event = {}
                elif not line.startswith(b":"):
                    key, _, value = line.partition(b": ")
                    event[key] = value
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed

    def close(self) -> None:
        self.conn.close()


def wait_for(what, timeout: float = 20.0, why: str = ""):
    end = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < end, why or what
        time.sleep(0.01)


@contextmanager
def serving(store_path: Path, table_port: str | None = "unused", table: GameTable | None = None,
            pause: float = 0.01, published: list[bytes] | None = None, **more):
    """A Site following `table` (in process) or the port `table_port`;
    `published` gets every state it sends, from its first; `more`: Site's
    other arguments."""
    extra = {"opener": table.opener} if table is not None else {}
    site = Site(table_port, store_path, port=0, pause=pause, **extra, **more)
    if published is not None:
        put = site.hub.put

        def recorded(data: bytes) -> None:
            if data != site.hub.data:
                published.append(data)
            put(data)

        site.hub.put = recorded
    site.start()
    try:
        yield site
    finally:
        site.stop()
