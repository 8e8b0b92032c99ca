"""A whole `catnip serve`: the live mirror, the thread following the table
and the web server, started and stopped together; `catnip sim --serve` runs
one beside the virtual table, and the tests one beside theirs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from catnip_host import ports
from catnip_host.serve.app import Server, listen, make_app
from catnip_host.serve.follow import Follower
from catnip_host.serve.live import Hub, LiveMirror


class Site:
    def __init__(self, table_port: str | None, store_path: Path, bind: str = "127.0.0.1",
                 port: int = 8000, pause: float = 0.2,
                 opener: Callable = ports.open_port) -> None:
        self.hub = Hub()
        self.live = LiveMirror(self.hub.put_threadsafe)
        self.follower = Follower(table_port, store_path, self.live, pause, opener)
        app = make_app(self.hub, store_path, bind, self.follower.start, self.follower.stop)
        self.server = Server(app, listen(bind, port), self.hub)  # ServeError for a port in use

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> None:
        """On a thread of its own (the table is followed once it is up)."""
        self.server.start()

    def stop(self) -> None:
        self.server.stop()




def beside(sim_mirror, store_path: Path, port: int = 8000) -> Site:
    """A Site following the virtual table's pty (catnip_host.simlink) in
    place of the SimMirror's own thread; the terminal's laptop view shows
    the same mirror."""
    site = Site(sim_mirror.port, store_path, port=port, pause=0.05)
    sim_mirror.mirror = site.live
    return site
