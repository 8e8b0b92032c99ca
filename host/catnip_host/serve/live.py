"""The live page's state: `catnip monitor`'s Mirror, published to every
open page whenever a frame or the connection changes it.

What a page is sent is a pure function of the frames heard and the
connection's status and the names given to the seats (no clock, no
randomness), so two tables that send the same bytes give the same pages byte
for byte: the wire's secrecy carries over to the browser unchanged. Every
word of the feed and the standings is the monitor's (catnip_host.words).

The hub keeps the newest state and the few before it: a page a little
behind (the table caught up after an unplug, a burst of frames between two
writes) is sent each state it missed, in order, so no line of the feed
passes it by; a page further behind skips to the newest, so a slow phone
costs no memory, and a page that reconnects starts from the newest.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from collections.abc import Callable

from catnip import wire
from catnip.rules import NAMES, TITLES
from catnip.rules.about import about
from catnip_host.monitor import FEED, Mirror


# States a page that fell behind is sent one by one: more than a round's
# catching up after an unplug (a frame can add several lines to the feed).
BACKLOG = 64

# The most seats any game takes (the Clowder's 8), by the games' descriptions.
MOST_SEATS = max(r["most"] for name in NAMES for r in about(name)["players"])


class LiveMirror(Mirror):
    """The monitor's Mirror, with its feed kept as items for the page (what
    happened, at which move, in the monitor's words) and every change
    published as JSON."""

    def __init__(self, publish: Callable[[bytes], None] = lambda data: None) -> None:
        self.publish = publish
        self.ready = False  # Mirror.__init__ sets status before the rest exists
        self.sent = b""
        self.connected = False
        self.events: deque[dict] = deque(maxlen=FEED)
        self.told = 0  # lines ever put in the feed: the page keys each line by its number
        self.high_scores: list = []  # the Colonnade, from the store, for a Clowder game
        self.phones: list[int] = []  # the seats played from phones (begin's, snap's)
        self.away: list[int] = []  # of those, the ones whose browser stopped watching
        self.lock = threading.RLock()  # the table's thread and the server's both publish
        super().__init__()
        self.ready = True

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, text: str) -> None:
        self._status = text
        self._publish()

    def connection(self, text: str, up: bool) -> None:
        """The port was opened (up) or went away; `text` says how."""
        self.connected = up
        self.status = text

    def apply(self, kind: str, f: dict) -> None:
        with self.lock:
            super().apply(kind, f)
            if kind in (wire.BEGIN, wire.SNAP) and wire.fields_problem(kind, f) is None:
                self.phones = list(f.get("phones") or []) if self.gid is not None else []
            self._publish()

    def seats_away(self, away: list[int]) -> None:
        """The phone seats whose browser stopped watching (serve's own word,
        from its seat streams: public, as a station shows it too)."""
        with self.lock:
            self.away = list(away)
            self._publish()

    def tell(self, text: str, kind: str, move: int | None = None) -> None:
        super().tell(text, kind, move)
        self.events.append({"kind": kind, "n": move, "text": text})
        self.told += 1

    def note(self, text: str) -> None:
        super().note(text)
        self._publish()

    def state(self) -> dict:
        playing = self.game is not None and self.public is not None
        standings = self.standings()
        return {
            "status": self.status, "connected": self.connected, "heard": self.frames > 0,
            "game": self.game if playing else None, "title": TITLES.get(self.game or "", ""),
            "gid": self.gid, "seats": self.seats, "moves": self.moves,
            # A label for every seat a game can have, heard from its begin or not.
            "players": self._labels(), "phones": self.phones, "away": self.away,
            "public": self.public if playing else None, "result": self.result,
            "standings": None if standings is None else dict(zip(("end", "head", "rows"),
                                                                 standings)),
            "notice": self.notice, "feed": list(self.events), "told": self.told, "high_scores": self.high_scores,
            "tray": self.tray if playing and self.game == "stack" else None,
        }

    def _labels(self) -> list[str]:
        labels = self.words.labels(max(MOST_SEATS, len(self.seats), len(self.names)))
        for p in self.phones:
            if p < len(labels):
                labels[p] += " (away)" if p in self.away else " (phone)"
        return labels

    def _publish(self) -> None:
        if self.ready:
            with self.lock:
                data = encode(self.state())
                if data != self.sent:  # a note within a frame is published once, with it
                    self.sent = data
                    self.publish(data)


def encode(state: dict) -> bytes:
    """One state as the page reads it: compact, keys sorted, so equal states
    are equal bytes."""
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()


def event(version: int, data: bytes) -> bytes:
    """A state as one message of the event stream, numbered."""
    return b"id: %d\ndata: %s\n\n" % (version, data)


class Hub:
    """The newest state and its number, handed from the Keeper's thread to
    the server's event loop; every open page waits on it. Each state is put
    into its event-stream message once, and those same bytes go to every
    page: twenty pages cost the server twenty writes, not twenty encodings."""

    def __init__(self) -> None:
        self.version = 0
        self.data = encode(LiveMirror().state())
        self.message = event(self.version, self.data)
        self.recent: deque[tuple[int, bytes]] = deque(maxlen=BACKLOG)  # (version, message)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._changed = asyncio.Event()
        self.closing = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def put_threadsafe(self, data: bytes) -> None:
        """From any thread: the state now."""
        if self.loop is None:
            self.put(data)
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.put, data)

    def put(self, data: bytes) -> None:
        if data == self.data:
            return  # nothing a page shows changed
        self.version += 1
        self.data = data
        self.message = event(self.version, data)
        self.recent.append((self.version, self.message))
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    def close(self) -> None:
        """The server stops: every waiting page is let go."""
        self.closing = True
        self._changed.set()

    def close_threadsafe(self) -> None:
        if self.loop is None or self.loop.is_closed():
            self.close()
        else:
            self.loop.call_soon_threadsafe(self.close)

    async def next(self, seen: int, timeout: float) -> tuple[int, bytes] | None:
        """The newest version once it is not `seen`, with the event-stream
        messages a page that saw `seen` needs (every one since, when the
        backlog still holds them; else the newest alone); None after
        `timeout` seconds with no change, or when the server stops."""
        if self.version == seen and not self.closing:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                return None
        if self.closing:
            return None
        return self.version, self.since(seen)

    def since(self, seen: int) -> bytes:
        if self.recent and self.recent[0][0] <= seen + 1 and seen >= 0:
            return b"".join(message for version, message in self.recent if version > seen)
        return self.message
