"""`catnip serve` on a shared network: localhost unless told otherwise, only
GET, nothing outside its routes, every asset its own, a content security
policy on every answer, the store read-only, and a port in use said
plainly."""

from __future__ import annotations

import re
import sqlite3

import pytest
from click.testing import CliRunner

from catnip_host.cli import main
from catnip_host.serve.app import ASSETS, LIVE_PAGE, ServeError, listen
from catnip_host.serve.evening import ReadOnlyStore
from catnip_host.serve.site import Site
from recordrig import engine_store, mixed_games
from serverig import GameTable, get, serving, wait_for

ROUTES = ["/", "/events", "/state.json", "/static/live.js", "/static/app.css", "/sessions",
          "/sessions/1", "/sessions/1/scores.png", "/games/1", "/games/1/scores.png",
          "/games/2/tower.png", "/charts/wins.png", "/nowhere"]
OUTSIDE = ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
           "/static/live.html", "/static/", "/../../etc/passwd", "//etc/passwd",
           "/static/%2e%2e%2f%2e%2e%2fstore.py", "/sessions/1/../../../etc/passwd",
           "/.git/config", "/host/catnip_host/serve/app.py", "/static/live.js/..",
           "/games/1/../../../../etc/shadow"]


def _dump(path) -> list[str]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(db.iterdump())
    finally:
        db.close()


@pytest.fixture()
def table_site(tmp_path):
    """A site following a table in process, over a store of six games."""
    path = engine_store(tmp_path / "s.sqlite3", mixed_games(6, "safety"), start=1_790_000_000)
    table = GameTable(tmp_path)
    heard: list[str] = []
    command = table.remote.command
    table.remote.command = lambda word, fields: (heard.append(word), command(word, fields))
    with serving(path, table=table) as site:
        wait_for(lambda: b'"connected":true' in get(site, "/state.json")[2])
        wait_for(lambda: "games" in heard)
        # The table's answer to "games" is the follower's last write of its catch-up.
        wait_for(lambda: any("'games'" in line for line in _dump(path)))
        yield site, path, heard


def test_no_request_but_get_is_answered_and_none_changes_the_table_or_the_store(table_site):
    site, path, heard = table_site
    before, asked = _dump(path), list(heard)
    for route in ROUTES + OUTSIDE:
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"):
            status, headers, body = get(site, route, method, body=b'{"start": "heist"}')
            assert status == 405, (method, route, status)
            assert headers["allow"] == "GET, HEAD" and b"nothing was changed" in body
    for route in ROUTES:
        if route != "/events":
            assert get(site, route)[0] in (200, 404)
            assert get(site, route, "HEAD")[0] in (200, 404)
    assert _dump(path) == before
    assert heard == asked, "a request reached the table"
    # What any laptop that follows the table asks (catnip monitor's too): the
    # clock is set so the games it journals are dated; nothing changes a game.
    assert set(heard) <= {"hello", "clock", "resync", "snapshot", "games", "pull", "ack"}


def test_nothing_outside_the_routes_is_served(table_site):
    site, path, _ = table_site
    for route in OUTSIDE:
        status, _, body = get(site, route)
        assert status == 404, (route, status, body[:200])
        for secret in (b"import ", b"root:", b"[core]", b"SQLite"):
            assert secret not in body, route


def test_every_answer_carries_the_security_headers(table_site):
    site, _, _ = table_site
    for route in ROUTES + OUTSIDE[:3]:
        if route == "/events":
            continue
        for method in ("GET", "POST"):
            _, headers, _ = get(site, route, method)
            csp = headers["content-security-policy"]
            assert "default-src 'none'" in csp and "script-src 'self'" in csp, route
            assert "frame-ancestors 'none'" in csp and headers["x-content-type-options"] == \
                "nosniff"


def test_the_pages_need_nothing_from_the_internet():
    text = LIVE_PAGE + b"".join(v for k, v in ASSETS.items() if k != "icon.svg")
    for bad in (b"http://", b"https://", b"//cdn", b"@import", b"url(", b"eval(",
                b"innerHTML", b"document.write"):
        assert bad not in text, bad
    # Only the phone seats' pages post, and only to this server's own routes.
    posting = {"join.js", "seat.js", "host.js"}
    assert b"fetch(" not in LIVE_PAGE + b"".join(v for k, v in ASSETS.items() if k not in posting)
    for name in posting:
        calls = re.findall(rb"fetch\(([^,)]*)", ASSETS[name])
        assert calls and all(c.startswith(b'"/') for c in calls), (name, calls)
    weight = len(LIVE_PAGE) + len(ASSETS["live.js"]) + len(ASSETS["app.css"])
    assert weight < 100_000, weight


def test_a_page_for_another_host_name_is_refused_on_localhost(table_site):
    """A web page elsewhere cannot read the table through a name of its own
    that points at 127.0.0.1 (DNS rebinding)."""
    site, _, _ = table_site
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example"):
        status, _, body = get(site, "/state.json", headers={"Host": host})
        assert status == 421 and b"answers to" in body, host
    for host in ("localhost", "127.0.0.1:8000", "[::1]:8000"):
        assert get(site, "/state.json", headers={"Host": host})[0] == 200, host


def test_the_store_is_opened_read_only(tmp_path):
    path = engine_store(tmp_path / "s.sqlite3", mixed_games(1), start=1_790_000_000)
    store = ReadOnlyStore(path)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.db.execute("INSERT INTO aliases VALUES ('a', 'b')")
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.db.execute("CREATE TABLE x (y)")


def test_localhost_unless_told_otherwise(tmp_path):
    site = Site("unused", tmp_path / "s.sqlite3", port=0)
    try:
        assert site.server.sock.getsockname()[0] == "127.0.0.1"
    finally:
        site.server.sock.close()
    opts = {o.name: o.default for o in main.commands["serve"].params}
    assert opts["bind"] == "127.0.0.1" and opts["http_port"] == 8000


def test_a_port_in_use_is_said_with_what_to_do(tmp_path):
    taken = listen("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(ServeError, match=f"port {port} on 127.0.0.1 is in use.*--web-port"):
            listen("127.0.0.1", port)
        result = CliRunner().invoke(main, ["serve", "--web-port", str(port), "--table", "unused",
                                           "--store", str(tmp_path / "s.sqlite3")])
        assert result.exit_code == 1 and f"port {port} on 127.0.0.1 is in use" in result.output
    finally:
        taken.close()
    with pytest.raises(ServeError, match="not an address of this computer"):
        listen("192.0.2.1", 0)
    with pytest.raises(ServeError, match="not an address"):
        listen("no-such-host.invalid", 0)


def test_ctrl_c_stops_it_cleanly_with_pages_open(tmp_path):
    import signal
    import subprocess
    import sys
    import threading

    port = listen("127.0.0.1", 0)
    number = port.getsockname()[1]
    port.close()
    proc = subprocess.Popen([sys.executable, "-m", "catnip_host", "serve", "--web-port", str(number),
                             "--table", "unused", "--store", str(tmp_path / "s.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{number}/events"
        stream = wait_for(lambda: _open(url), 30, "catnip serve did not start")
        threading.Thread(target=stream.read, daemon=True).start()
        proc.send_signal(signal.SIGINT)
        out = proc.communicate(timeout=20)[0]  # a guard against a hang, not a speed test
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "catnip serve stopped" in out and "Traceback" not in out and "Aborted" not in out


def _open(url: str):
    import urllib.request

    try:
        return urllib.request.urlopen(url, timeout=10)
    except OSError:
        return None


def test_the_old_port_option_still_names_the_web_port_and_says_so(tmp_path):
    from catnip_host.serve.cli import web_port

    assert web_port(None, None) == 8000 and web_port(8001, None) == 8001
    taken = listen("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--table", "unused",
                                           "--store", str(tmp_path / "s.sqlite3")])
    finally:
        taken.close()
    assert "--port is the web server's port here" in result.stderr
    assert f"say --web-port {port}" in result.stderr
    assert f"port {port} on 127.0.0.1 is in use" in result.output  # it was the web port
    both = CliRunner().invoke(main, ["serve", "--port", "9001", "--web-port", "9002"])
    assert both.exit_code == 2 and "give only --web-port" in both.output
