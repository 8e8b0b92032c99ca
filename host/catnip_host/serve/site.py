"""A whole `catnip serve`: the live mirror, the thread following the table,
the phone seats and the web server, started and stopped together; `catnip
sim --serve` runs one beside the virtual table, and the tests one beside
theirs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from catnip import wire
from catnip_host import ports
from catnip_host.serve.app import LOOPBACK, Server, listen, make_app
from catnip_host.serve.follow import Follower
from catnip_host.serve.live import Hub, LiveMirror
from catnip_host.serve.phones import Bell, join_link, reachable_base, terminal_qr
from catnip_host.serve.seats import Seats


class Site:
    """`phones`: serve phone seats (by default only when bound beyond this
    computer: a phone cannot reach 127.0.0.1); `say` prints on the laptop's
    terminal (the join codes, with a QR code to scan unless `qr` is off)."""

    def __init__(self, table_port: str | None, store_path: Path, bind: str = "127.0.0.1",
                 port: int = 8000, pause: float = 0.2,
                 opener: Callable = ports.open_port, phones: bool | None = None,
                 say: Callable[[str], None] = lambda text: None, qr: bool = True) -> None:
        self.hub = Hub()
        self.live = LiveMirror(self.hub.put_threadsafe)
        self.bell = Bell()
        self.seats = Seats(self, changed=self._seats_changed)
        self.say = say
        self.qr = qr
        self.shown: set[tuple[int, str]] = set()  # the join links said on the terminal
        self.phones = bind not in LOOPBACK if phones is None else phones
        self.follower = Follower(table_port, store_path, self.live, pause, opener,
                                 self._from_table, self._plugged)
        sock = listen(bind, port)  # ServeError for a port in use
        self.base = reachable_base(bind, sock.getsockname()[1]) if self.phones else None
        app = make_app(self.hub, store_path, bind, self.follower.start, self.follower.stop,
                       self.seats, self.bell, lambda: self.base)
        self.server = Server(app, sock, self.hub)

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> None:
        """On a thread of its own (the table is followed once it is up)."""
        self.server.start()

    def stop(self) -> None:
        self.server.stop()

    # ---- between the table's thread and the server's ------------------------

    def ask(self, word: str, **fields: object) -> None:
        """The phone seats' commands, to the table (Keeper.ask is thread-safe)."""
        keeper = self.follower.keeper
        if keeper is not None:
            keeper.ask(word, **fields)

    def _on_loop(self, call: Callable, *args: object) -> None:
        loop = self.hub.loop
        if loop is None:
            call(*args)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(call, *args)

    def _from_table(self, kind: str, fields: dict) -> None:
        if self.phones:
            self._on_loop(self._seat_frame, kind, fields)

    def _plugged(self, up: bool) -> None:
        self._on_loop(self.seats.connection, up)

    def _seat_frame(self, kind: str, f: dict) -> None:
        if kind == wire.BEGIN:
            self.seats.game(f["gid"], f.get("phones") or [])
        elif kind == wire.SNAP:
            self.seats.game(f.get("gid") if f.get("public") is not None else None,
                            f.get("phones") or [])
        elif kind == wire.VIEW:
            self.seats.view(f["seat"], f["rows"], f["lit"])
        elif kind == wire.RELEASED and not f.get("re"):
            self.seats.released(f["seat"])  # the table's own (the host, at a station)
        elif kind == wire.ERR and f.get("asked") in ("claim", "press") and "seat" in f:
            self.seats.refused(f["seat"], str(f.get("why")))

    def _seats_changed(self) -> None:
        self.bell.ring()
        self.live.seats_away(self.seats.away)
        if self.base is not None:
            self._show_links(self.base)

    def _show_links(self, base: str) -> None:
        """Each phone seat's join link and code on the terminal, once, when
        it is new (a game begins, a seat is released)."""
        waiting = {(n, s.token) for n, s in self.seats.seats.items() if s.binding is None}
        for n, token in sorted(waiting - self.shown):
            s = self.seats.seats[n]
            link = join_link(base, n, token)
            self.say(f"Phone seat P{n + 1}: scan this, or type {s.code[:4]}-{s.code[4:]} at "
                     f"{base}/join\n{terminal_qr(link)}" if self.qr else
                     f"Phone seat P{n + 1}: {link} (or the code {s.code[:4]}-{s.code[4:]})")
        self.shown = waiting


def beside(sim_mirror, store_path: Path, port: int = 8000) -> Site:
    """A Site following the virtual table's pty (catnip_host.simlink) in
    place of the SimMirror's own thread; the terminal's laptop view shows
    the same mirror. Its phone seats are served on 127.0.0.1 too: the
    terminal shows every screen of a virtual table anyway, and a browser
    window of this computer can play one (their links are said in the feed:
    set `say`)."""
    site = Site(sim_mirror.port, store_path, port=port, pause=0.05, phones=True, qr=False)
    sim_mirror.mirror = site.live
    return site
