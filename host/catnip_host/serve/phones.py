"""The phone seats' pages: joining (/join), a seat's own screen and buttons
(/seat, its stream /seat/events, its taps /seat/press) and the host's page
of join codes (/host, /host/release), which opens on this computer, and on
another screen (a TV) once it has typed the host code (/host/join; the
laptop's host page shows the code and signs such screens out, /host/out).

The secrets never travel in an address: a join link carries its secret in
the fragment (after #), which a browser never sends; the page posts it. So
no access log, proxy or Referer can hold one. A bound browser is known by an
HttpOnly, SameSite=Strict cookie, and every POST carries a CSRF token tied to
that cookie (and the Guard checks its Origin against its Host).
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
import socket
from collections.abc import Callable
from html import escape

import segno
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from catnip_host.serve import pages
from catnip_host.serve.live import Hub, event
from catnip_host.serve.seats import Refused, Seats

SEAT_COOKIE = "catnip_seat"
HOST_COOKIE = "catnip_host"
POSTS = frozenset({"/join", "/seat/press", "/host/release", "/host/join", "/host/out"})
MAX_BODY = 1024  # bytes a POST may carry: a code, a button
PING_S = 15.0
WAKE_S = 1.0  # a seat's stream looks for a change, or the server stopping, this often
LOOPBACK_CLIENTS = ("127.0.0.1", "::1")


class Bell:
    """Rung on the event loop whenever a seat changes; every seat stream
    waits on it and sends only its own seat's screen."""

    def __init__(self) -> None:
        self._rung = asyncio.Event()

    def ring(self) -> None:
        rung, self._rung = self._rung, asyncio.Event()
        rung.set()

    async def wait(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self._rung.wait(), timeout)
        except TimeoutError:
            pass


def join_link(base: str, seat: int, token: str) -> str:
    """The link a phone seat's QR code holds: the secret after #, never sent
    to a server or written in a log."""
    return f"{base}/join#{seat}.{token}"


def terminal_qr(text: str) -> str:
    """A QR code drawn in text, for the terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def reachable_base(bind: str, port: int) -> str:
    """The address a phone on the network opens: the one bound, or for
    0.0.0.0 (every address) the one this computer reaches the network by."""
    host = bind
    if bind in ("0.0.0.0", "::", ""):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("10.254.254.254", 1))  # no packet is sent: it only picks a route
            host = probe.getsockname()[0]
        except OSError:
            host = socket.gethostname()
        finally:
            probe.close()
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def routes(seats: Seats, bell: Bell, hub: Hub, base: Callable[[], str | None]) -> list[Route]:
    """`base()`: the address phones open, or None when they cannot reach
    this server (it listens on this computer only)."""

    async def join_page(request: Request) -> Response:
        if base() is None:
            return _unavailable()
        return HTMLResponse(pages.page("Take your seat", JOIN, ("join.js",)),
                            headers={"cache-control": "no-store"})

    async def join(request: Request) -> Response:
        if base() is None:
            return _unavailable()
        body = await _body(request)
        given = body.get("secret")
        if not isinstance(given, str) or not given:
            return _refused(Refused("give the code from the laptop", 400))
        try:
            seat, binding = seats.join(_client(request), given[:100],
                                       request.cookies.get(SEAT_COOKIE))
        except Refused as e:
            return _refused(e)
        answer = JSONResponse({"go": "/seat", "seat": seat})
        answer.set_cookie(SEAT_COOKIE, binding, httponly=True, samesite="strict", path="/",
                          secure=request.url.scheme == "https")
        return answer

    async def seat_page(request: Request) -> Response:
        binding = request.cookies.get(SEAT_COOKIE)
        s = seats.seat_of(binding)
        if s is None or binding is None:
            return HTMLResponse(pages.page("No seat on this phone", NO_SEAT), 403,
                                headers={"cache-control": "no-store"})
        body = SEAT.format(csrf=seats.csrf(binding), who=f"P{s.seat + 1}")
        return HTMLResponse(pages.page(f"P{s.seat + 1}'s hand", body, ("seat.js",)),
                            headers={"cache-control": "no-store"})

    async def seat_events(request: Request) -> Response:
        binding = request.cookies.get(SEAT_COOKIE)
        s = seats.seat_of(binding)
        if s is None:
            return Response("this browser holds no seat\n", 403, media_type="text/plain")

        async def stream():
            seats.watch(s, True)
            try:
                yield b"retry: 1000\n\n"
                seen, quiet = -1, 0.0
                while not hub.closing and seats.seat_of(binding) is s:
                    if s.version != seen:
                        seen, quiet = s.version, 0.0
                        yield event(seen, _encode(s.screen(seats.connected)))
                        continue
                    await bell.wait(WAKE_S)
                    quiet += WAKE_S
                    if quiet >= PING_S:
                        quiet = 0.0
                        yield b": still here\n\n"
                if not hub.closing:
                    yield b"event: released\ndata: {}\n\n"
            finally:
                seats.watch(s, False)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    async def press(request: Request) -> Response:
        binding = request.cookies.get(SEAT_COOKIE)
        if not seats.csrf_ok(binding, request.headers.get("x-catnip-csrf")):
            return _refused(Refused("this tap did not come from your seat's page: reload it"))
        body = await _body(request)
        try:
            seats.press(binding, str(body.get("button")), body.get("hold", False))
        except Refused as e:
            return _refused(e)
        return JSONResponse({"pressed": True})

    def host_of(request: Request) -> str | None:
        """The host page's key (its cookie) if this browser may see it: on
        this computer (a key made here when it has none), or a screen that
        typed the host code."""
        key = request.cookies.get(HOST_COOKIE)
        if _on_this_computer(request):
            return key or secrets.token_urlsafe(32)
        return key if seats.hosts.admitted(key) else None

    def host_asked(request: Request) -> bool:
        """A POST from a host page: its browser may see it, and the token is its."""
        key = host_of(request)
        return key is not None and seats.csrf_ok("host:" + key, request.headers.get(
            "x-catnip-csrf"))

    async def host_page(request: Request) -> Response:
        key = host_of(request)
        if key is None:
            body = HOST_CODE if base() is not None else f'<p class="big">{escape(UNAVAILABLE)}</p>'
            return HTMLResponse(pages.page("The host's page", body, ("host.js",)),
                                headers={"cache-control": "no-store"})
        reached = base()
        body = host_view(seats, reached, seats.csrf("host:" + key))
        if _on_this_computer(request) and reached is not None:
            body += other_screens(seats, reached)
        answer = HTMLResponse(pages.page("Phone seats", body, ("host.js",)),
                              headers={"cache-control": "no-store"})
        answer.set_cookie(HOST_COOKIE, key, httponly=True, samesite="strict", path="/host",
                          secure=request.url.scheme == "https")
        return answer

    async def host_join(request: Request) -> Response:
        given = (await _body(request)).get("code")
        if base() is None:
            return _unavailable()
        if not isinstance(given, str) or not given:
            return _refused(Refused("type the host code the laptop shows", 400))
        try:
            key = seats.hosts.admit(_client(request), given[:100])
        except Refused as e:
            return _refused(e)
        answer = JSONResponse({"go": "/host"})
        answer.set_cookie(HOST_COOKIE, key, httponly=True, samesite="strict", path="/host",
                          secure=request.url.scheme == "https")
        return answer

    async def host_out(request: Request) -> Response:
        if not _on_this_computer(request) or not host_asked(request):
            return _refused(Refused("only the host's page on the laptop signs other screens out"))
        seats.hosts.sign_out()
        return JSONResponse({"out": True})

    async def host_release(request: Request) -> Response:
        if not host_asked(request):
            return _refused(Refused("only a host's page releases a seat: the laptop's, or a "
                                    "screen that typed the host code"))
        seat = (await _body(request)).get("seat")
        try:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise Refused("which seat? (its number, from 0)", 400)
            seats.release(seat)
        except Refused as e:
            return _refused(e)
        return JSONResponse({"released": seat})

    return [Route("/join", join_page, methods=["GET"]), Route("/join", join, methods=["POST"]),
            Route("/seat", seat_page), Route("/seat/events", seat_events),
            Route("/seat/press", press, methods=["POST"]), Route("/host", host_page),
            Route("/host/release", host_release, methods=["POST"]),
            Route("/host/join", host_join, methods=["POST"]),
            Route("/host/out", host_out, methods=["POST"])]


def host_view(seats: Seats, base: str | None, csrf: str) -> str:
    """Each phone seat's QR code, link and code, whether a phone holds it,
    and a button to release it."""
    if base is None:
        return f"<p class=\"big\">{escape(UNAVAILABLE)}</p>"
    if not seats.seats:
        return ('<p class="big">No phone seats in the game in play: a game started with phone '
                'seats shows their codes here.</p><p><a href="/host">Look again</a></p>')
    out = f'<meta name="csrf" content="{csrf}"><div class="seats">'
    for n, s in sorted(seats.seats.items()):
        link = join_link(base, n, s.token)
        if s.binding is None:
            what = (segno.make(link, error="m").svg_inline(scale=5, border=2, dark="#000", light="#fff") +
                    f'<p class="code">{s.code[:4]}-{s.code[4:]}</p><p class="dim">or type it '
                    f"at {escape(base)}/join</p>")
        else:
            what = "<p class=\"big\">" + ("Away (the phone stopped watching)" if s.away
                                         else "On a phone") + "</p>"
        out += (f'<section class="phone"><h2>P{n + 1}</h2>{what}'
                f'<button type="button" data-seat="{n}">Release P{n + 1}</button></section>')
    return out + '</div><p><a href="/host">Look again</a></p>'


def other_screens(seats: Seats, base: str) -> str:
    """On the laptop's host page: how another screen (a TV) opens it too,
    and a button that signs every such screen out."""
    code = seats.hosts.code
    out = (f'<section class="screens"><h2>On the TV too</h2><p>Open <b>{escape(base)}/host</b> '
           f'on it and type <span class="code">{code[:4]}-{code[4:]}</span> (once: the '
           "next screen gets a new code here).</p>")
    if seats.hosts.keys:
        n = len(seats.hosts.keys)
        out += (f"<p>{n} other screen{'s' if n > 1 else ''} show{'' if n > 1 else 's'} this page."
                '</p><button type="button" id="sign-out">Sign the other screens out</button>')
    return out + "</section>"


UNAVAILABLE = ("Phone seats are unavailable: catnip serve listens on this computer only, so a "
               "phone cannot reach it. Start it with --bind 0.0.0.0 (or this computer's "
               "address on your network).")
JOIN = """<main class="join"><section id="take" hidden><p class="big">This phone will show
<b id="who"></b>'s secret hand.</p><button id="take-seat" class="key" type="button">Take the
seat</button></section><section id="type"><label for="code" class="big">The code the laptop
shows for your seat</label><input id="code" autocomplete="off" autocapitalize="characters"
spellcheck="false" maxlength="12"><button id="send-code" class="key" type="button">Join</button>
</section><p id="why" class="notice" role="alert"></p></main>
"""
SEAT = """<meta name="csrf" content="{csrf}"><main class="seat"><p id="link" class="link"
role="status">Connecting</p><pre id="screen" aria-label="{who}'s screen"></pre>
<div class="keys"><button class="key" type="button" data-button="up">Up</button><button
class="key" type="button" data-button="down">Down</button><button class="key" type="button"
data-button="ok">OK</button><button class="key" type="button" data-button="back">Back</button>
<button class="key menu" type="button" data-button="back" data-hold="1">Menu</button></div>
<p id="why" class="notice" role="alert"></p></main>
"""
HOST_CODE = """<main class="join"><section><label for="code" class="big">The host code the
laptop shows (on its terminal, and on its own host page)</label><input id="code" autocomplete="off"
autocapitalize="characters" spellcheck="false" maxlength="12"><button id="send-code" class="key"
type="button">Open the host's page</button></section><p id="why" class="notice" role="alert"></p>
</main>
"""
NO_SEAT = ('<p class="big">This browser holds no seat. Scan your seat\'s code on the laptop, '
           'or type it at <a href="/join">/join</a>.</p>')


def _unavailable() -> Response:
    return HTMLResponse(pages.page("Phone seats are unavailable",
                                   f'<p class="big">{escape(UNAVAILABLE)}</p>'), 404)


def _refused(e: Refused) -> Response:
    return JSONResponse({"why": str(e)}, e.status)


def _encode(data: dict) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


async def _body(request: Request) -> dict:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return {}
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _on_this_computer(request: Request) -> bool:
    """A loopback client, or one at the very address it reached us by (this
    computer opening its own network address): TCP's handshake keeps
    another from posing as either."""
    client, server = _client(request), request.scope.get("server")
    return client in LOOPBACK_CLIENTS or (server is not None and client == server[0])
