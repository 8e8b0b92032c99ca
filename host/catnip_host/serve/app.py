"""The web server: its routes, the headers every answer carries, and the
port it listens on.

Only GET (and HEAD) is answered, and POST on the phone seats' few routes
(phones.POSTS: a join, a seat's tap, the host's release) from a page of
this server's own (its Origin is its Host); anything else is refused before
routing, so no request reaches the store's writing side (the store is
opened read-only anyway) and none reaches the table but a phone seat's. Only the routes below exist: the assets are a
fixed list read into memory at import, never a path looked up on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from catnip_host.serve import pages, phones
from catnip_host.serve.evening import Evening, NotFound
from catnip_host.serve.live import Hub
from catnip_host.serve.seats import Seats
from catnip_host.store import StoreError

STATIC = Path(__file__).parent / "static"
ASSETS = {name: (STATIC / name).read_bytes()
          for name in ("live.js", "replay.js", "app.css", "icon.svg", "join.js", "seat.js",
                       "host.js")}
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml"}
LIVE_PAGE = (STATIC / "live.html").read_bytes()
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
           (b"cross-origin-resource-policy", b"same-origin")]
PING_S = 15.0  # a comment on a quiet stream, so a dead connection is noticed
MAX_STREAMS = 100  # open live pages at once
LOOPBACK = ("127.0.0.1", "::1", "localhost")


class ServeError(Exception):
    """The server cannot start; the message says why and what to do."""


def routes(hub: Hub, store_path: Path) -> list[Route]:
    streams = {"open": 0}

    async def live(request: Request) -> Response:
        return Response(LIVE_PAGE, media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-cache"})

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return _missing(f"there is no asset {name!r}")
        return Response(ASSETS[name], media_type=TYPES[Path(name).suffix],
                        headers={"cache-control": "no-cache"})

    async def state(request: Request) -> Response:
        return Response(hub.data, media_type="application/json",
                        headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        if streams["open"] >= MAX_STREAMS:
            return Response(f"{MAX_STREAMS} live pages are open already: close one",
                            status_code=503, media_type="text/plain")

        async def stream():
            streams["open"] += 1
            try:
                yield b"retry: 1000\n\n"
                seen = -1
                while not hub.closing:
                    got = await hub.next(seen, PING_S)
                    if got is None:
                        yield b": still here\n\n"
                        continue
                    seen, message = got
                    yield message
            finally:
                streams["open"] -= 1

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    def evening_page(build: Callable[[Evening, Request], str | bytes]) -> Callable:
        def endpoint(request: Request) -> Response:
            try:
                with Evening(store_path) as evening:
                    body = build(evening, request)
            except NotFound as e:
                return _missing(str(e))
            except StoreError as e:
                return HTMLResponse(pages.page("The store cannot be read", f"<p>{e}</p>"), 503)
            if isinstance(body, bytes):
                return Response(body, media_type="image/png")
            return HTMLResponse(body)
        return endpoint

    def n(request: Request) -> int:
        return request.path_params["n"]

    return [
        Route("/", live),
        Route("/static/{name}", asset),
        Route("/events", events),
        Route("/state.json", state),
        Route("/sessions", evening_page(
            lambda e, r: pages.sessions_page(e, r.query_params.get("every") == "1"))),
        Route("/sessions/{n:int}", evening_page(lambda e, r: pages.session_page(e, e.session(n(r))))),
        Route("/sessions/{n:int}/scores.png", evening_page(
            lambda e, r: _chart(e, "scores", e.plays_of(e.session(n(r)).id)))),
        Route("/games/{n:int}", evening_page(lambda e, r: pages.game_page(e, e.game(n(r))))),
        Route("/games/{n:int}/scores.png", evening_page(
            lambda e, r: _chart(e, "scores", [e.game(n(r)).play]))),
        Route("/games/{n:int}/tower.png", evening_page(lambda e, r: _tower(e, n(r)))),
        Route("/charts/wins.png", evening_page(_wins)),
    ]


def _chart(evening: Evening, kind: str, plays: list) -> bytes:
    if not [p for p in plays if p.finished]:
        raise NotFound("no finished game to draw")
    return evening.chart(kind, [p for p in plays if p.finished])


def _wins(evening: Evening, request: Request) -> bytes:
    plays, why_not = evening.wins_chartable()
    if why_not is not None:
        raise NotFound(why_not)
    return _chart(evening, "wins", plays)


def _tower(evening: Evening, number: int) -> bytes:
    play = evening.game(number).play
    if play.name != "stack":
        raise NotFound(f"game {number} is {play.title}: the tower chart is for Stack O' Cats")
    return _chart(evening, "tower", [play])


def _missing(why: str) -> Response:
    body = pages.page("Not here", f"<p class=\"big\">{pages.escape(why)}.</p><p>The pages are "
                      '<a href="/">the table, live</a> and <a href="/sessions">the sessions</a>.'
                      "</p>")
    return HTMLResponse(body, status_code=404)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _missing(f"there is no page {request.url.path}")


class Guard:
    """Before any route: GET and HEAD only (and POST on the phone seats'
    routes, from a page of this server's), a Host this server answers to (on
    a loopback address, a web page elsewhere cannot reach it through a name
    of its own), and the security headers on every answer."""

    def __init__(self, app, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def headed(message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *HEADERS])
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            return await refusal(scope, receive, headed)
        await self.app(scope, receive, headed)

    def refusal(self, scope) -> Response | None:
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        posted = scope["method"] == "POST" and scope["path"] in phones.POSTS
        if scope["method"] not in ("GET", "HEAD") and not posted:
            return Response(f"catnip serve only shows the table: {scope['method']} is refused, "
                            "nothing was changed\n", status_code=405, media_type="text/plain",
                            headers={"allow": "GET, HEAD"})
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if self.hosts is not None and name.strip("[]") not in self.hosts:
            return Response(f"this server answers to {', '.join(sorted(self.hosts))}, not "
                            f"{host!r}\n", status_code=421, media_type="text/plain")
        origin = headers.get(b"origin", b"").decode("latin-1")
        if posted and origin.partition("://")[2] != host:
            return Response("a tap or a join comes only from catnip's own pages: refused, "
                            "nothing was changed\n", status_code=403, media_type="text/plain")
        return None


def make_app(hub: Hub, store_path: Path, bind: str = "127.0.0.1",
             started: Callable[[], None] = lambda: None,
             stopping: Callable[[], None] = lambda: None,
             seats: Seats | None = None, bell: phones.Bell | None = None,
             base: Callable[[], str | None] = lambda: None):
    """The ASGI app: `started` runs once the event loop is up (start
    following the table then), `stopping` as it shuts down; `seats` the
    phone seats, `bell` rung when one changes, `base()` the address phones
    open (None: they cannot reach this server)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.attach(asyncio.get_running_loop())
        started()
        yield
        hub.close()
        stopping()

    seated = phones.routes(seats or Seats(), bell or phones.Bell(), hub, base)
    inner = Starlette(routes=routes(hub, store_path) + seated, lifespan=lifespan,
                      exception_handlers={404: _not_found})
    hosts = frozenset(LOOPBACK) if bind in LOOPBACK else None
    return Guard(inner, hosts)


def listen(bind: str, port: int) -> socket.socket:
    """The listening socket, or a ServeError that says what to do."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bind, port))
        sock.listen(128)
    except socket.gaierror as e:
        sock.close()
        raise ServeError(f"--bind {bind} is not an address of this computer ({e.strerror}): "
                         "leave it out (this computer only) or give one of its addresses") from None
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {bind} is in use (another catnip serve, or "
                             f"another web server): stop it, or pick another web port "
                             f"(catnip serve --web-port {port + 1 if port < 65535 else 8000})"
                             ) from None
        if e.errno == errno.EACCES:
            raise ServeError(f"port {port} needs administrator rights: use a port above 1023, "
                             "such as --web-port 8000") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise ServeError(f"{bind} is not an address of this computer: leave --bind out "
                             "(this computer only) or give one of its addresses") from None
        raise ServeError(f"cannot listen on {bind} port {port}: {e.strerror or e}") from None
    return sock


class _Uvicorn(uvicorn.Server):
    """uvicorn, letting the live pages go as soon as it is asked to stop:
    it waits for every open connection before it shuts down."""

    def __init__(self, config: uvicorn.Config, stopping: Callable[[], None]) -> None:
        super().__init__(config)
        self.stopping = stopping

    def handle_exit(self, sig, frame) -> None:
        self.stopping()
        super().handle_exit(sig, frame)


class Server:
    """uvicorn on a socket of ours (so a port in use is our clear error):
    run() in the foreground until Ctrl-C, or start() on a thread."""

    def __init__(self, app, sock: socket.socket, hub: Hub) -> None:
        self.sock = sock
        self.hub = hub
        self.uvicorn = _Uvicorn(uvicorn.Config(
            app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1,
            access_log=False), hub.close_threadsafe)
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.sock.getsockname()[:2]
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    def run(self) -> None:
        self.uvicorn.run(sockets=[self.sock])

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="catnip-serve", daemon=True)
        self.thread.start()
        while not self.uvicorn.started and self.thread.is_alive():
            threading.Event().wait(0.01)

    def stop(self) -> None:
        self.hub.close_threadsafe()
        self.uvicorn.should_exit = True
        if self.thread is not None:
            self.thread.join()
        self.sock.close()
