"""Phone seats: which browser holds which seat's secret screen.

A phone seat (begin's and snap's `phones`) is a seat of the game with no
station: the table draws its screen as for a station and the laptop carries
it to one browser, and that browser's taps back (docs/phones.md; the line
in docs/link.md, the pages in docs/serve.md). This registry is serve's half: each
phone seat's join secrets, the browser bound to it, its newest screen and
whether that browser is watching. It only lives in memory: nothing here is
stored, logged or put on a public page.

Joining: each seat has a one-time link secret (`token`, 32 random bytes) and
a short code to type (`code`, CODE_LENGTH symbols of ALPHABET). The first
browser to present either is bound: it is given a binding (a cookie the page
never reads) and both secrets are spent. Another browser presenting them is
refused until the host releases the seat, which makes new ones. Tries are
limited per client (TRIES a minute) and in all (ALL_TRIES a minute), so a
code cannot be guessed: see docs/serve.md for the arithmetic. A link's
secret is held to the client's tries only: nothing floods it off.

The host's page (every seat's codes) opens on the laptop itself, and on
another screen (a TV) that types the host code (Hosts): the same kind of
code, spent at first use, its tries counted with the seats' codes.

Every method runs on the server's event loop; the table's side reaches it
through the loop (Site.follow), so no lock is needed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a screen, typed
CODE_LENGTH = 8  # 31**8 = 8.5e11 codes (39 bits)
TRIES = 5  # join attempts a client may make in a minute
ALL_TRIES = 30  # join attempts from every client together in a minute
WINDOW_S = 60.0
BUTTONS = ("up", "down", "ok", "back")


class Table(Protocol):
    """What the registry asks of the table (catnip_host.link.Keeper.ask):
    queue a command; thread-safe, never waits for the answer."""

    def ask(self, word: str, **fields: object) -> None: ...


class Refused(Exception):
    """A join, a tap or a release refused, changing nothing; `status` is the
    HTTP status to answer with, the message what the person can do."""

    def __init__(self, why: str, status: int = 403) -> None:
        super().__init__(why)
        self.status = status


def _code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def _same(a: str, b: str) -> bool:
    """Equal, in a time that does not tell how much of a secret was right."""
    return hmac.compare_digest(a.encode(), b.encode())


def typed(code: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(c for c in code.upper() if c.isalnum())


@dataclass
class Seat:
    seat: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    code: str = field(default_factory=_code)
    binding: str | None = None  # the cookie of the browser it is bound to
    rows: list[str] = field(default_factory=list)
    lit: list[list[int]] = field(default_factory=list)
    version: int = 0  # one more at every change its browser is told of
    watching: int = 0  # that browser's open streams
    away: bool = False  # told to the table: its browser stopped watching
    why: str = ""  # the table refused its claim or its tap: said on its page

    def screen(self, connected: bool) -> dict:
        """What its browser is sent: its own screen, nothing of another's."""
        return {"seat": self.seat, "rows": self.rows, "lit": self.lit, "table": connected,
                "why": self.why}


class Tries:
    """The join tries of the last minute: each client's, and the typed codes
    of every client together."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.by_client: dict[str, deque[float]] = {}
        self.typed: deque[float] = deque()

    def count(self, client: str, short: bool) -> None:
        """A try from `client`, or Refused when it is one too many; `short`:
        a typed code, which every client's tries together are held to as well
        (a link's secret cannot be guessed, so a flood of codes does not hold
        the links off)."""
        now = self.clock()
        mine = self.by_client.setdefault(client, deque())
        for q in (mine, self.typed):
            while q and now - q[0] >= WINDOW_S:
                q.popleft()
        if len(mine) >= TRIES or (short and len(self.typed) >= ALL_TRIES):
            raise Refused(f"too many tries: wait a minute (at most {TRIES} a minute from one "
                          f"phone, {ALL_TRIES} typed codes from all), or scan the code", 429)
        mine.append(now)
        if short:
            self.typed.append(now)
        for other in [c for c, q in self.by_client.items() if not q]:
            del self.by_client[other]


class Hosts:
    """The screens besides the laptop's own that may open the host's page
    (a TV showing the join codes): each typed the host code, which is then
    spent and made anew (the laptop's own host page shows the new one)."""

    def __init__(self, tries: Tries) -> None:
        self.tries = tries
        self.code = _code()
        self.keys: list[str] = []  # the cookies of the screens let in

    def admit(self, client: str, given: str) -> str:
        """The cookie of a screen that typed the host code, or Refused."""
        self.tries.count(client, True)
        if len(given) > CODE_LENGTH + 4 or not _same(typed(given), self.code):
            raise Refused("that is not the host code: it is on the laptop's terminal and on "
                          "its host page (a code works once)", 404)
        self.code = _code()
        self.keys.append(secrets.token_urlsafe(32))
        return self.keys[-1]

    def admitted(self, key: str | None) -> bool:
        return bool(key) and any(_same(key or "", k) for k in self.keys)

    def sign_out(self) -> None:
        """Every other screen loses the host's page; a new code is made."""
        self.keys.clear()
        self.code = _code()


class Seats:
    """The phone seats of the game in play, for one server run."""

    def __init__(self, table: Table | None = None, clock: Callable[[], float] = time.monotonic,
                 changed: Callable[[], None] = lambda: None) -> None:
        self.table = table
        self.clock = clock
        self.changed = changed  # a seat's screen, binding or watching changed
        self.key = secrets.token_bytes(32)  # signs the CSRF tokens of this run
        self.gid: int | None = None
        self.seats: dict[int, Seat] = {}
        self.connected = False
        self.tries = Tries(clock)
        self.hosts = Hosts(self.tries)  # the screens besides the laptop with the host's page

    # ---- the table's side ---------------------------------------------------

    def game(self, gid: int | None, phones: list[int]) -> None:
        """A begin or snap: the game in play and its phone seats. A seat that
        is a phone seat of this game too keeps its phone, as the table keeps
        its claim (the host releases it when players change places); a seat
        that is not is let go, its browser unbound."""
        self.gid = gid
        if gid is None:
            phones = []
        for n in set(self.seats) - set(phones):
            self.seats[n].binding = None  # its streams end
        self.seats = {n: self.seats.get(n) or Seat(n) for n in phones}
        self.changed()

    def view(self, seat: int, rows: list[str], lit: list[list[int]]) -> None:
        s = self.seats.get(seat)
        if s is not None and s.binding is not None:  # a view for no bound browser is dropped
            s.rows, s.lit, s.why = list(rows), [list(span) for span in lit], ""
            s.version += 1
            self.changed()

    def refused(self, seat: int, why: str) -> None:
        """The table refused a claim or a tap of this seat: its page says why."""
        s = self.seats.get(seat)
        if s is not None and s.binding is not None:
            s.why, s.version = f"The table says: {why}", s.version + 1
            self.changed()

    def released(self, seat: int) -> None:
        """The table let the seat go (the host, from a station)."""
        if seat in self.seats:
            self._unbind(seat)

    def connection(self, up: bool) -> None:
        """The table's port opened or went away; once back, every bound
        seat is claimed again (the table forgot them)."""
        if up == self.connected:
            return
        self.connected = up
        for s in self.seats.values():
            if up and s.binding is not None:
                self._ask("claim", seat=s.seat)
                if s.away:
                    self._ask("away", seat=s.seat, away=True)
            s.version += 1
        self.changed()

    # ---- the browsers' side -------------------------------------------------

    def join(self, client: str, given: str, binding: str | None) -> tuple[int, str]:
        """A browser presents a link secret or a typed code (`binding`: its
        cookie, if it has one): its seat and its binding, or Refused."""
        short = len(given) <= CODE_LENGTH + 4
        self.tries.count(client, short)
        secret = typed(given) if short else given
        for s in self.seats.values():
            if _same(secret, s.token) or _same(secret, s.code):
                return s.seat, self._bind(s, binding)
        raise Refused("that code or link is not one of this game's seats (a released seat has "
                      "new ones): scan the code on the laptop again", 404)

    def _bind(self, s: Seat, binding: str | None) -> str:
        if s.binding is not None:
            if binding is not None and _same(binding, s.binding):
                return s.binding  # this browser again: it is where it was
            raise Refused(f"seat P{s.seat + 1} is already open on another phone. If that is "
                          "not you, ask the host to release it (on the laptop's host page, or "
                          "from a station), then scan its new code", 409)
        s.binding = secrets.token_urlsafe(32)
        s.version += 1
        self._ask("claim", seat=s.seat)
        self.changed()
        return s.binding

    def seat_of(self, binding: str | None) -> Seat | None:
        """The seat this browser's cookie is bound to, if any."""
        if not binding:
            return None
        for s in self.seats.values():
            if s.binding is not None and _same(binding, s.binding):
                return s
        return None

    def csrf(self, binding: str) -> str:
        """The token every POST of this browser carries: tied to its binding,
        so a page elsewhere that cannot read it cannot forge a tap."""
        return hmac.new(self.key, b"csrf:" + binding.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, binding: str | None, token: str | None) -> bool:
        return bool(binding) and bool(token) and _same(self.csrf(binding or ""), token or "")

    def press(self, binding: str | None, button: str, hold: bool) -> int:
        s = self.seat_of(binding)
        if s is None:
            raise Refused("this phone holds no seat: scan your seat's code", 403)
        if button not in BUTTONS or not isinstance(hold, bool):
            raise Refused(f"a button is one of {', '.join(BUTTONS)}", 400)
        if not self.connected:
            raise Refused("the table is unplugged: nothing was pressed", 503)
        self._ask("press", seat=s.seat, button=button, hold=hold)
        return s.seat

    def watch(self, s: Seat, on: bool) -> None:
        """A stream of its browser opened (on) or closed: the table hears
        "away" when the last one closes, and when one opens again."""
        s.watching += 1 if on else -1
        if (s.watching == 0) != s.away and s.binding is not None:
            s.away = s.watching == 0
            self._ask("away", seat=s.seat, away=s.away)
            self.changed()

    def release(self, seat: int) -> None:
        """The host lets a seat go: its browser is unbound, its secrets made anew."""
        if seat not in self.seats:
            raise Refused(f"P{seat + 1} is not a phone seat of the game in play", 404)
        if self.seats[seat].binding is not None:
            self._ask("release", seat=seat)
        self._unbind(seat)

    def _unbind(self, seat: int) -> None:
        old = self.seats[seat]
        old.binding = None  # its streams end, and tell the table nothing more
        self.seats[seat] = Seat(seat, version=old.version + 1)
        self.changed()

    @property
    def away(self) -> list[int]:
        return sorted(n for n, s in self.seats.items() if s.binding is not None and s.away)

    def _ask(self, word: str, **fields: object) -> None:
        if self.table is not None and self.connected:
            self.table.ask(word, **fields)
