"""Phone seats through catnip serve, the laptop's side (CPython): how many
taps from a seat's QR code to its hand on the phone, and a tap's time to the
seat's own new screen on the page.

The server is a Site in this process (serve's web server, the Follower, the
Keeper on its thread) following the test table of tests/serverig.py: the
table's real line under CPython, in process, which answers a phone seat's
press by drawing that seat's screen anew (tests/phonerig.PhoneTable). A tap
is timed in Chromium (Debian's, headless, as the serve bench launches it)
from the button's click to the page's screen changed, by the page's own
clock: the page's fetch, serve's CSRF check, Keeper.ask, the line both
ways, the table's answer and view, the seat's event stream and the DOM.
Host-only: the Pico's own work (its scene, its drawing into text, its
serial line at USB speed) is not in it: tests/shared/test_phone_seats.py
and the pico tier measure the table's side.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware"),
                str(ROOT / "devsim"), str(ROOT)]

from bench.serve_rig import Load, pct  # noqa: E402

TAPS = bench.sized("CATNIP_BENCH_PHONE_TAPS", 100, 400)
PHONE = {"width": 390, "height": 844}
# Click a key and wait for the seat's screen to change: the page's own clock.
TAP = """async (button) => {
  const screen = document.getElementById("screen");
  const t0 = performance.now();
  const changed = new Promise((done) => {
    const o = new MutationObserver(() => { o.disconnect(); done(performance.now() - t0); });
    o.observe(screen, {childList: true, subtree: true, characterData: true});
  });
  document.querySelector(`button[data-button="${button}"]:not([data-hold])`).click();
  return await changed;
}"""


def rows() -> Iterator[tuple]:
    from test_serve_browser import chromium_missing, launch

    missing = chromium_missing()
    if missing:
        yield ("serve phones", "browser figures", "skipped", "", missing)
        return
    from playwright.sync_api import sync_playwright

    from catnip_host.serve.phones import join_link
    from phonerig import PHONES, PhoneTable
    from serverig import serving, wait_for

    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-phones-"))
    try:
        table = PhoneTable(folder)
        with serving(folder / "s.sqlite3", table=table, phones=True) as site, \
                sync_playwright() as pw:
            wait_for(lambda: site.follower.keeper is not None
                     and site.follower.keeper.session is not None)
            table.begin_phones("heist", {"players": 4}, "bench phones")
            wait_for(lambda: set(site.seats.seats) == set(PHONES))
            browser = launch(pw)
            page = browser.new_page(viewport=PHONE)
            taps = 0
            page.goto(join_link(site.url, PHONES[0], site.seats.seats[PHONES[0]].token))
            taps += 1  # the scan opens the link
            page.click("#take-seat")
            taps += 1
            page.wait_for_function("() => document.querySelectorAll('#screen .row').length")
            yield ("serve phones", "QR code to the seat's hand on the phone", taps, "taps",
                   "the scan opens the join link, one tap takes the seat; target <= 2")
            load = Load()
            times = [page.evaluate(TAP, "down" if k % 2 else "up") for k in range(TAPS)]
            busy, _ = load.done()
            browser.close()
        yield ("serve phones", "tap to the seat's own new screen, p95", round(pct(times, 95), 1),
               "ms", f"p50 {statistics.median(times):.1f}, max {max(times):.0f}; {TAPS} taps in "
               "Chromium through serve, the Keeper and the table's line in process (host "
               f"only, CPython: the Pico's work is not in it); {busy}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
