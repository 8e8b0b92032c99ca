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
when it was handed the state and when its DOM showed it (the bench checks
the page's clock against its own and says by how much they differ).

The moves come at the pace of people pressing the stations (serve_rig.PRESS_S
says which and why): the quickest a table is played, with no time to think.
A stress figure plays 20 pages ten moves a second, four times that, to show
what the machine has left over; it is not the target's.

Each figure says its spread and how busy the machine was while it was
measured (other work on the shared cores, and the load average), and the
processor time the browser spent per page update, which depends little on
that load. The 20 pages run at a lower priority than the server: at a real
table every phone draws on its own processor (see serve_rig.niced).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware"),
                str(ROOT / "devsim"), str(ROOT)]

from bench.serve_rig import (PRESS_S, Load, PtyTable, Recorder, drain, free_port,  # noqa: E402
                             get, latencies, niced, pct, rss_kb, try_get)

Row = tuple[str, str, float | int | str, str, str]
PAGES = 20  # the pages, with one event stream more that says which move each state is
TIMED_MOVES = bench.sized("CATNIP_BENCH_SERVE_MOVES", 100, 300)  # moves watched by the pages, at the pace of presses (serve_rig.PRESS_S)
STRESS_MOVES = 150  # and these, STRESS_GAP_S apart: what is left over on this machine
STRESS_GAP_S = 0.1
EVENING_MOVES = bench.sized("CATNIP_BENCH_EVENING_MOVES", 1000, 4000)  # full: 12,000 frames,
# more than 4 hours of play
GAMES = bench.sized("CATNIP_BENCH_GAMES", 200, 1000)
PHONE = {"width": 390, "height": 844}


def rows() -> Iterator[Row]:
    from recordrig import engine_store, mixed_games
    from test_serve_browser import CHROMIUM, chromium_missing, launch

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
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "catnip_host", "serve", "--port", str(port), "--table", table.path, "--store", str(store)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while b'"connected":true' not in try_get(url + "/state.json"):
            assert time.monotonic() < deadline and server.poll() is None, "serve did not start"
            time.sleep(0.1)
        weight = sum(len(get(url + p)) for p in ("/", "/static/live.js", "/static/app.css",
                                                  "/static/icon.svg"))
        yield ("serve", "live page weight", round(weight / 1024, 1), "KB",
               "HTML, script, styles and icon as served; the target is under 100 KB")
        with sync_playwright() as pw:
            browser = launch(pw, niced(folder, CHROMIUM))
            yield from _first_paint(browser, url)
            for real in (PAGES, 1):
                yield from _timed(browser, table, url, real)
            yield from _timed(browser, table, url, PAGES, STRESS_GAP_S)
            browser.close()
        yield from _evening(table, server, url)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _timed(browser, table: PtyTable, url: str, real: int,
           gap: float | None = None) -> Iterator[Row]:
    """`real` Chromium pages and PAGES - real plain event streams watch
    TIMED_MOVES moves played at the pace of presses (or STRESS_MOVES, `gap`
    seconds apart): the pages' DOM times, where they went, the load."""
    pages = []
    for _ in range(real):
        page = browser.new_page(viewport=PHONE)
        page.goto(url + "/")
        pages.append(page)
    recorder = Recorder(url)
    streams = [urllib.request.urlopen(url + "/events", timeout=60)
               for _ in range(PAGES - real - 1)]
    for s in streams:
        threading.Thread(target=drain, args=(s,), daemon=True).start()
    skew = _clock_skew(pages[0])
    time.sleep(1)
    table.sent.clear()
    load, start, played = Load(), time.time() * 1000, time.monotonic()
    moves = TIMED_MOVES if gap is None else STRESS_MOVES
    for _ in range(moves):
        time.sleep(table.presses() * PRESS_S if gap is None else gap)
        table.move()
    played = time.monotonic() - played
    time.sleep(1)
    busy, spent = load.done()
    split: dict[str, list[float]] = {"dom": [], "heard": [], "draw": []}
    skipped = 0
    drawn = [page.evaluate("window.catnipShown") for page in pages]
    for page, shown in zip(pages, drawn):
        got, skips = latencies(table.sent, recorder.moves, shown)
        for part, ms in got.items():
            split[part] += ms
        skipped += skips
        page.close()
    for s in [*streams, recorder]:
        s.close()
    who = f"{real} Chromium page{'s' * (real > 1)}" + \
        (f", {PAGES - real} event streams" if real < PAGES else "")
    pace = (f"at the pace of presses ({PRESS_S * 1000:.0f} ms a press, a move every "
            f"{played / moves * 1000:.0f} ms on average)" if gap is None else
            f"{gap * 1000:.0f} ms apart (a stress: not a table's pace)")
    dom = split["dom"]
    yield ("serve", f"frame received to DOM updated, p95, {who}" + (", stress" if gap else ""),
           round(pct(dom, 95), 1), "ms",
           f"p50 {pct(dom, 50):.0f}, p90 {pct(dom, 90):.0f}, p99 {pct(dom, 99):.0f}, max "
           f"{max(dom):.0f}; {len(dom):,} page updates of {moves} moves {pace}, {skipped} "
           f"skipped for a newer state; {busy}; the page's clock {skew}"
           + ("; target <= 100" if gap is None else ""))
    yield ("serve", f"  of which to the page, p95, {who}", round(pct(split["heard"], 95), 1),
           "ms", f"frame received to the page handed the state (the server, then the browser; "
           f"p50 {pct(split['heard'], 50):.0f}); the page's drawing after it: p50 "
           f"{pct(split['draw'], 50):.0f}, p95 {pct(split['draw'], 95):.0f} ms")
    updates = sum(1 for shown in drawn for _, _, at in shown if at >= start)
    yield ("serve", f"  processor time per page update, {who}",
           round(spent["browser"] * 1000 / max(1, updates), 2), "ms",
           f"the browser's processes, all of them, over {updates:,} states drawn; the "
           f"server's: {spent['server'] * 1000 / max(1, 2 * moves):.1f} ms a frame")


def _clock_skew(page) -> str:
    """The page stamps its times by its own clock (Date.now()), the bench by
    this process's: both are this machine's wall clock, checked here by the
    smallest of 20 round trips (the page's reading against the middle of the
    bench's before and after)."""
    best = None
    for _ in range(20):
        t0 = time.time() * 1000
        at = page.evaluate("Date.now()")
        t1 = time.time() * 1000
        if best is None or t1 - t0 < best[0]:
            best = (t1 - t0, at - (t0 + t1) / 2)
    assert best is not None
    return f"{best[1]:+.1f} ms off this machine's (within {best[0] / 2:.1f})"


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
        get(url + path)
    streams = [urllib.request.urlopen(url + "/events", timeout=60) for _ in range(PAGES)]
    for s in streams:  # pages that read every state as it comes
        threading.Thread(target=drain, args=(s,), daemon=True).start()
    samples = []
    for k in range(EVENING_MOVES):
        table.move()
        if k % 200 == 0:
            samples.append(rss_kb(server.pid))
            get(url + f"/games/{1 + k % GAMES}")
        time.sleep(0.002)
    samples.append(rss_kb(server.pid))
    for s in streams:
        s.close()
    warm, end = samples[len(samples) // 4], samples[-1]
    frames = EVENING_MOVES * 3 // 4 * 2  # an act and a snapshot a move
    yield ("serve", f"server memory, {GAMES:,}-game store", warm // 1024, "MB",
           "RSS after its pages, charts and a quarter of the evening")
    yield ("serve", "server memory growth over the evening", round((end - warm) * 1024 / frames, 1),
           "B/frame", f"RSS {warm // 1024} -> {end // 1024} MB (max {max(samples) // 1024}) "
           f"over the last {EVENING_MOVES * 3 // 4:,} moves ({table.games} games in all, some "
           f"{frames:,} frames), {PAGES} event streams read, a game page every 200 moves; "
           "target 0")


