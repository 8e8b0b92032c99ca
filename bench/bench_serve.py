"""catnip serve: frame received by the laptop to the page's DOM updated,
with 20 real browser pages open at once (headless Debian Chromium through
Playwright, 20 pages of one browser); the server's memory over a store of
1,000 games and a long evening of frames; the live page's weight; its first
paint on a phone-sized viewport.

The server is the real command (`catnip serve`) in a process of its own,
following a table on a pseudo-terminal that it opens by its path, as it
opens a Pico's USB serial port: the table's real line and journal under
CPython (tests/serverig.py GameTable), its moves chosen by the rules engine.
A move is timed from the first byte of its frame reaching the laptop's end
of the line (the table's own work before it is not the laptop's), so the
figure holds the Keeper, the store, the event stream, the browser and the
page's drawing; the page stamps, by the wall clock of the same machine,
when it was handed the state and when its DOM showed it.

Each figure says its spread and how busy the machine was while it was
measured (other work on the shared cores, and the load average), and the
processor time the browser spent per page update, which depends little on
that load. The 20 pages run at a lower priority than the server: at a real
table every phone draws on its own processor (see _niced).
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
import tty
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
BROWSER_NICE = 10
GAMES_PLAYED = (("heist", {"players": 4}), ("stack", {"players": 3}),
                ("purrfect", {"players": 5}))


class PtyTable:
    """A table (GameTable) on a pseudo-terminal the server opens by its path,
    as a Pico's /dev/ttyACM0 (and as `catnip sim --serve` has it); a move is
    timed from its frame's first byte reaching the laptop's end."""

    def __init__(self, folder: Path) -> None:
        from catnip.rules.rng import Rng
        from serverig import GameTable

        self.table = GameTable(folder)
        self.fd, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open: the line stays up while the server reopens it
        self.table.port.write = self._write
        self.rng = Rng("bench serve")
        self.sent: dict[tuple[int, int], float] = {}  # (gid, move) -> its frame's first byte
        self.first: float | None = None
        self.games = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _write(self, data: bytes) -> None:
        if self.first is None:
            self.first = time.time()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                time.sleep(0.001)

    def _serve(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return  # closed
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
        action = any_legal(game, p, self.rng)
        self.first = None
        self.table.act(p, action)
        self.sent[(self.table.gid, len(game.log))] = self.first


def _niced(folder: Path, chromium: Path) -> Path:
    """Chromium, started below the server's priority. At a real table every
    phone draws on a processor of its own; here the 20 pages share the
    laptop's two cores, and at the same priority they would take them from
    the server they are timing. Niced, they get what the server leaves: they
    still do all their work, and all their waiting counts in the figure."""
    wrapper = folder / "chromium-niced"
    wrapper.write_text(f'#!/bin/sh\nexec nice -n {BROWSER_NICE} "{chromium}" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


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
               shown: list[list]) -> tuple[dict[str, list[float]], int]:
    """Milliseconds from each move's frame reaching the laptop to the page
    having drawn the first state that shows it ("dom"), split where the page
    is handed that state ("heard": the server, and the browser passing it to
    the page; "draw": the page's own work); and how many moves the page never
    drew (a newer state came first)."""
    first: dict[tuple[int, int], tuple[float, float]] = {}
    for version, heard, drawn in shown:
        key = moves.get(int(version))
        if key in sent and key not in first:
            first[key] = (heard, drawn)
    split: dict[str, list[float]] = {"dom": [], "heard": [], "draw": []}
    for key, (heard, drawn) in first.items():
        split["dom"].append(drawn - sent[key] * 1000)
        split["heard"].append(heard - sent[key] * 1000)
        split["draw"].append(drawn - heard)
    return split, len(sent) - len(first)


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
        table = PtyTable(folder)
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "catnip_host", "serve", "--port", str(port), "--table", table.path, "--store", str(store)],
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
            browser = pw.chromium.launch(executable_path=str(_niced(folder, CHROMIUM)),
                                         args=FLAGS)
            yield from _first_paint(browser, url)
            for real in (PAGES, 1):
                yield from _timed(browser, table, url, real)
            browser.close()
        yield from _evening(table, server, url)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _timed(browser, table: PtyTable, url: str, real: int) -> Iterator[Row]:
    """`real` Chromium pages and PAGES - real plain event streams watch
    TIMED_MOVES moves: the pages' DOM times, where they went, the load."""
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
    time.sleep(1)
    table.sent.clear()
    load, start = Load(), time.time() * 1000
    for _ in range(TIMED_MOVES):
        table.move()
        time.sleep(GAP_S)
    time.sleep(1)
    busy, spent = load.done()
    split: dict[str, list[float]] = {"dom": [], "heard": [], "draw": []}
    skipped = 0
    drawn = [page.evaluate("window.catnipShown") for page in pages]
    for page, shown in zip(pages, drawn):
        got, skips = _latencies(table.sent, recorder.moves, shown)
        for part, ms in got.items():
            split[part] += ms
        skipped += skips
        page.close()
    for s in [*streams, recorder]:
        s.close()
    who = f"{real} Chromium page{'s' * (real > 1)}" + \
        (f", {PAGES - real} event streams" if real < PAGES else "")
    dom = split["dom"]
    yield ("serve", f"frame received to DOM updated, p95, {who}", round(_pct(dom, 95), 1), "ms",
           f"p50 {_pct(dom, 50):.0f}, p90 {_pct(dom, 90):.0f}, p99 {_pct(dom, 99):.0f}, max "
           f"{max(dom):.0f}; {len(dom):,} page updates of {TIMED_MOVES} moves "
           f"{GAP_S * 1000:.0f} ms apart, {skipped} skipped for a newer state; {busy}; "
           "target <= 100")
    yield ("serve", f"  of which to the page, p95, {who}", round(_pct(split["heard"], 95), 1),
           "ms", f"frame received to the page handed the state (the server, then the browser; "
           f"p50 {_pct(split['heard'], 50):.0f}); the page's drawing after it: p50 "
           f"{_pct(split['draw'], 50):.0f}, p95 {_pct(split['draw'], 95):.0f} ms")
    updates = sum(1 for shown in drawn for _, _, at in shown if at >= start)
    yield ("serve", f"  processor time per page update, {who}",
           round(spent["browser"] * 1000 / max(1, updates), 2), "ms",
           f"the browser's processes, all of them, over {updates:,} states drawn; the "
           f"server's: {spent['server'] * 1000 / max(1, 2 * TIMED_MOVES):.1f} ms a frame")


class Load:
    """How busy the machine was while a figure was measured: the load
    average, the share of both cores that other processes took, and the
    processor time the server and the browser spent (from /proc/stat and
    /proc/PID/stat): that last one varies little with the machine's load."""

    def __init__(self) -> None:
        self.start = self._now()

    @staticmethod  # when, the cores' busy ticks, each of ours' ticks
    def _now() -> tuple[float, float, dict[str, float]]:
        cpu = [float(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        ours = {"server": 0.0, "browser": 0.0, "bench": 0.0}
        for pid in _ours():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            who = "server" if b"catnip_host\0serve" in cmd else \
                "browser" if b"chromium" in cmd else "bench"
            ours[who] += float(fields[11]) + float(fields[12])  # utime, stime
        return time.monotonic(), sum(cpu) - cpu[3] - cpu[4], ours  # less idle, iowait

    def done(self) -> tuple[str, dict[str, float]]:
        """What it says, and the processor seconds each of ours spent."""
        t0, busy0, ours0 = self.start
        t1, busy1, ours1 = self._now()
        ticks = os.sysconf("SC_CLK_TCK")
        spent = {k: (ours1[k] - ours0[k]) / ticks for k in ours1}
        wall = (t1 - t0) * (os.cpu_count() or 1)
        busy = (busy1 - busy0) / ticks / wall
        others = max(0.0, busy - sum(spent.values()) / wall)
        return (f"cores {busy:.0%} busy, {others:.0%} by other work; load average "
                f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"), spent


def _ours() -> list[int]:  # this process and every one under it (the server, the browser's)
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


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


def _evening(table: PtyTable, server: subprocess.Popen, url: str) -> Iterator[Row]:
    """Memory over the 1,000-game store's pages and a long evening of frames."""
    for path in ("/sessions", "/sessions/3", "/games/500", "/sessions/3/scores.png",
                 "/games/500/scores.png"):  # (the wins chart waits for named seats)
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
