"""catnip serve: frame sent by the table to the page's DOM updated, with 20
real browser pages open at once (headless Debian Chromium through
Playwright, 20 pages of one browser); the server's memory over a store of
1,000 games and a long evening of frames; the live page's weight; its first
paint on a phone-sized viewport.

The server is the real command (`catnip serve`) in a process of its own,
following a table over `socket://` (pyserial's TCP port): the table's real
line and journal under CPython (tests/serverig.py GameTable), its moves
chosen by the rules engine. The latency is timed from the table writing the
move's frame, so it includes the wire, the Keeper's fsync'd store and the
event stream; the DOM time is the page's own clock (the same machine's).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware"),
                str(ROOT / "devsim"), str(ROOT)]

Row = tuple[str, str, float | int | str, str, str]
PAGES = 20  # the pages, with one event stream more that says which move each state is
TIMED_MOVES = 300  # moves watched by the 20 pages,
GAP_S = 0.1  # this far apart: several times the pace of real play
EVENING_MOVES = 4000  # the long evening: some 12,000 frames, more than 4 hours of play
GAMES = 1000
MOVES_A_GAME = 200  # then the next game begins (random play can keep Purrfect going for ever)
PHONE = {"width": 390, "height": 844}
GAMES_PLAYED = (("heist", {"players": 4}), ("stack", {"players": 3}),
                ("purrfect", {"players": 5}))


class SocketTable:
    """A table (GameTable) whose serial line is a TCP socket the server
    opens as socket://; a move is timed from its frame's write."""

    def __init__(self, folder: Path) -> None:
        from catnip.rules.rng import Rng
        from serverig import GameTable

        self.table = GameTable(folder)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None
        self.table.port.write = self._write
        self.rng = Rng("bench serve")
        self.sent: dict[tuple[int, int], float] = {}  # (gid, move) -> when written
        self.games = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _write(self, data: bytes) -> None:
        if self.conn is not None:
            self.conn.sendall(data)

    def _serve(self) -> None:
        self.conn, _ = self.listener.accept()
        while True:
            data = self.conn.recv(4096)
            if not data:
                return
            self.table.port.laptop_write(data)

    def move(self) -> None:
        from playout import any_legal

        game = self.table.game
        if game is None or game.result() is not None or len(game.log) >= MOVES_A_GAME:
            name, config = GAMES_PLAYED[self.games % len(GAMES_PLAYED)]
            self.table.begin(name, dict(config), f"bench {self.games}",
                             list(range(config["players"])))
            self.games += 1
            game = self.table.game
        p = game.to_act()[self.rng.below(len(game.to_act()))]
        t = time.time()
        self.table.act(p, any_legal(game, p, self.rng))
        self.sent[(self.table.gid, len(game.log))] = t


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


class Recorder:
    """One more event stream, read in the bench: which game and move each
    state number shows."""

    def __init__(self, url: str) -> None:
        self.stream = urllib.request.urlopen(url + "/events", timeout=60)
        self.moves: dict[int, tuple[int, int]] = {}  # state number -> (gid, move)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        version = 0
        try:
            for line in self.stream:
                if line.startswith(b"id: "):
                    version = int(line[4:])
                elif line.startswith(b"data: "):
                    state = json.loads(line[6:])
                    self.moves[version] = (state["gid"], state["moves"])
        except (OSError, ValueError, AttributeError):
            pass  # closed

    def close(self) -> None:
        self.stream.close()


def _latencies(sent: dict[tuple[int, int], float], moves: dict[int, tuple[int, int]],
               shown: list[list]) -> tuple[list[float], int]:
    """Milliseconds from each move's write to the page first drawing a state
    that shows it; and how many moves the page never drew (a newer state
    came first)."""
    first: dict[tuple[int, int], float] = {}
    for version, ms in shown:
        key = moves.get(int(version))
        if key in sent and key not in first:
            first[key] = ms
    return [ms - sent[key] * 1000 for key, ms in first.items()], len(sent) - len(first)


def _pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def rows() -> Iterator[Row]:
    from recordrig import engine_store, mixed_games
    from test_serve_browser import CHROMIUM, FLAGS, chromium_missing

    missing = chromium_missing()
    if missing:
        yield ("serve", "browser figures", "skipped", "", missing)
        return
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-serve-"))
    server = None
    try:
        store = engine_store(folder / "s.sqlite3", mixed_games(GAMES, "serve"), 1.7e9,
                             every_s=3 * 3600)
        table = SocketTable(folder)
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "catnip_host", "serve", "--port", str(port), "--table",
             f"socket://127.0.0.1:{table.port}", "--store", str(store)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while b'"connected":true' not in _try(url + "/state.json"):
            assert time.monotonic() < deadline and server.poll() is None, "serve did not start"
            time.sleep(0.1)
        weight = sum(len(_get(url + p)) for p in ("/", "/static/live.js", "/static/app.css",
                                                  "/static/icon.svg"))
        yield ("serve", "live page weight", round(weight / 1024, 1), "KB",
               "HTML, script, styles and icon as served; the target is under 100 KB")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            yield from _first_paint(browser, url)
            for real in (PAGES, 1):
                yield _timed(browser, table, url, real)
            browser.close()
        yield from _evening(table, server, url)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _timed(browser, table: SocketTable, url: str, real: int) -> Row:
    """`real` Chromium pages and PAGES - real plain event streams watch
    TIMED_MOVES moves; the pages' DOM times are the figure."""
    pages = []
    for _ in range(real):
        page = browser.new_page(viewport=PHONE)
        page.goto(url + "/")
        pages.append(page)
    recorder = Recorder(url)
    streams = [urllib.request.urlopen(url + "/events", timeout=60)
               for _ in range(PAGES - real - 1)]
    for s in streams:
        threading.Thread(target=_drain, args=(s,), daemon=True).start()
    table.sent.clear()
    for _ in range(TIMED_MOVES):
        table.move()
        time.sleep(GAP_S)
    time.sleep(1)
    all_ms, skipped = [], 0
    for page in pages:
        ms, skips = _latencies(table.sent, recorder.moves, page.evaluate("window.catnipShown"))
        all_ms += ms
        skipped += skips
        page.close()
    for s in [*streams, recorder]:
        s.close()
    who = f"{real} Chromium pages" if real == PAGES else \
        f"1 Chromium page, {PAGES - real} event streams"
    return ("serve", f"frame sent to DOM updated, p95, {who}", round(_pct(all_ms, 95), 1), "ms",
            f"p50 {_pct(all_ms, 50):.1f}, max {max(all_ms):.0f}; {len(all_ms):,} page updates "
            f"of {TIMED_MOVES} moves {GAP_S * 1000:.0f} ms apart, {skipped} skipped for a newer "
            f"state; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
            "target <= 100")


def _try(url: str) -> bytes:
    try:
        return _get(url)
    except OSError:
        return b""


def _first_paint(browser, url: str) -> Iterator[Row]:
    paints, states = [], []
    for _ in range(5):
        page = browser.new_page(viewport=PHONE)
        t0 = time.time()
        page.goto(url + "/")
        page.wait_for_function("() => document.getElementById('link').className !== 'link'")
        states.append((time.time() - t0) * 1000)
        paints.append(page.evaluate(
            "() => performance.getEntriesByName('first-contentful-paint')[0].startTime"))
        page.close()
    yield ("serve", "first paint, phone viewport", round(max(paints), 1), "ms",
           f"first contentful paint, the slowest of 5 loads (median {statistics.median(paints):.0f}"
           f"); the table's state drawn by {max(states):.0f} ms; target < 1,000")


def _evening(table: SocketTable, server: subprocess.Popen, url: str) -> Iterator[Row]:
    """Memory over the 1,000-game store's pages and a long evening of frames."""
    for path in ("/sessions", "/sessions/3", "/games/500", "/charts/wins.png"):
        _get(url + path)
    streams = [urllib.request.urlopen(url + "/events", timeout=60) for _ in range(PAGES)]
    for s in streams:  # pages that read every state as it comes
        threading.Thread(target=_drain, args=(s,), daemon=True).start()
    samples = []
    for k in range(EVENING_MOVES):
        table.move()
        if k % 200 == 0:
            samples.append(_rss_kb(server.pid))
            _get(url + f"/games/{1 + k % GAMES}")
        time.sleep(0.002)
    samples.append(_rss_kb(server.pid))
    for s in streams:
        s.close()
    warm, end = samples[len(samples) // 4], samples[-1]
    frames = EVENING_MOVES * 3 // 4 * 2  # an act and a snapshot a move
    yield ("serve", "server memory, 1,000-game store", warm // 1024, "MB",
           "RSS after its pages, charts and a quarter of the evening")
    yield ("serve", "server memory growth over the evening", round((end - warm) * 1024 / frames, 1),
           "B/frame", f"RSS {warm // 1024} -> {end // 1024} MB (max {max(samples) // 1024}) "
           f"over the last {EVENING_MOVES * 3 // 4:,} moves ({table.games} games in all, some "
           f"{frames:,} frames), {PAGES} event streams read, a game page every 200 moves; "
           "target 0")


def _drain(stream) -> None:
    try:
        while stream.read1(65536):
            pass
    except (OSError, ValueError, AttributeError):
        pass  # closed
