"""`catnip serve`'s door, fuzzed (tests/laptop_doors.py): odd requests to
every route and its live stream, over a store of real games. Every answer
is one of the server's own (200, 304, 404, 405, 503, ...), never a 500,
and the connection never ends without one."""

from __future__ import annotations

import http.client
import random
import shutil
import tempfile
from pathlib import Path
from urllib.parse import quote

NUMBERS = ["1", "2", "0", "-1", "01", "2147483648", str(2**63 - 1), str(2**63), str(2**64),
           "9" * 40, "1e3", "٣", "x", "", "%00", "%ff", "%2e%2e", "..", "NaN", " 1"]
PATHS = ["/", "/state.json", "/events", "/sessions", "/sessions/{}", "/sessions/{}/scores.png",
         "/games/{}", "/games/{}/scores.png", "/games/{}/tower.png", "/charts/wins.png",
         "/static/{}", "/static/live.js", "/{}", "//games/1", "/games/{}/", "/sessions/{}/x"]
STATIC = ["live.js", "app.css", "../app.py", "%2e%2e%2fapp.py", "icon.svg", "x" * 300]
METHODS = ["GET"] * 8 + ["HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "BREW"]
HEADERS = [{}, {"Accept": "text/event-stream"}, {"Last-Event-ID": "x"}, {"Range": "bytes=9-1"},
           {"If-None-Match": "*"}, {"Accept-Encoding": "gzip"}, {"Host": "evil.example"},
           {"Content-Length": "5"}, {"X-Odd": "\u00ff"}]


def serve(n: int, seed: int = 1) -> dict:
    from laptop_doors import _run
    from recordrig import engine_store, mixed_games
    from serverig import serving

    folder = Path(tempfile.mkdtemp(prefix="catnip-fuzz-"))
    rng = random.Random(seed)
    try:
        path = engine_store(folder / "s.sqlite3", mixed_games(4, "door"), start=1_790_000_000)
        with serving(path) as site:
            host, port = site.server.sock.getsockname()[:2]

            def inputs():
                while True:
                    route = rng.choice(PATHS)
                    value = rng.choice(STATIC if route.startswith("/static") else NUMBERS)
                    target = route.replace("{}", value)
                    if rng.random() < 0.2:
                        target += "?" + rng.choice(["n=1", "x=%ff", "a" * 500, "%", "=&=", "n=[]"])
                    if rng.random() < 0.1 or not target.isascii() or " " in target:  # as sent
                        target = quote(target, safe="/?=&%")
                    yield rng.choice(METHODS), target, rng.choice(HEADERS)

            def feed(item):
                method, target, headers = item
                conn = http.client.HTTPConnection(host, port, timeout=60)  # a chart is slow
                try:
                    sent = method != "GET" or "Content-Length" in headers  # as it says
                    conn.request(method, target, body=b"x" * 5 if sent else None,
                                 headers=headers)
                    r = conn.getresponse()
                    if target.startswith("/events") and r.status == 200:
                        r.read1(64)  # the stream's first bytes, then hung up on
                    else:
                        r.read()
                    assert r.status < 500 or r.status == 503, (r.status, method, target)
                finally:
                    conn.close()

            return _run(inputs(), feed, n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
