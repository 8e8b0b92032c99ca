"""Whole games with phone seats, end to end: the real firmware on the virtual
table (MicroPython unix port, tests/phoneweb.py) with its serial line on a
pseudo-terminal that `catnip serve` follows, each phone seat played from
its own Chromium page by taps. Every tap is read off the page first: the
test taps only once the page's DOM shows the seat's screen exactly as the
table draws it at that moment. Each title at its largest count, at least
half its seats on phones; the standings are those of the same seed played
on stations alone (tests/phoneplay.py on the eight-station board)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import mpunix
from linkrig import Relay
from serverig import serving, wait_for
from test_serve_browser import PHONE, browser  # noqa: F401
from test_serve_phone_browser import open_seat, shown

pytestmark = pytest.mark.xdist_group("browser")
TITLES = [("heist", 3), ("stack", 4), ("purrfect", 4)]  # phones of 6, 8 and 7 seats


def start_table(relay: Relay, folder: Path, name: str, phones: int) -> subprocess.Popen:
    dirs = [mpunix.ROOT / "devsim", mpunix.FIRMWARE, mpunix.ROOT, mpunix.ROOT / "tests",
            mpunix.SHARED_TESTS]
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", *map(str, dirs)]))
    return subprocess.Popen(
        [mpunix.tool("micropython"), str(mpunix.ROOT / "tests" / "phoneweb.py"),
         str(relay.a_slave), "direct", name, str(phones), str(folder)],
        env=env, pass_fds=[relay.a_slave], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, cwd=folder)


def on_stations(name: str) -> dict:
    """The same seed played with every seat at a station."""
    done = mpunix.run([str(mpunix.ROOT / "tests" / "phoneplay.py"), "mux", name, "0"],
                      path=[mpunix.ROOT / "tests", mpunix.SHARED_TESTS])
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _said(table: subprocess.Popen) -> str:
    """What the table printed before it stopped (its traceback)."""
    return table.stdout.read()[-3000:] if table.stdout else ""


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


@pytest.mark.parametrize(("name", "phones"), TITLES, ids=[t[0] for t in TITLES])
def test_a_whole_game_with_phone_seats_played_by_taps(browser, tmp_path, name, phones):  # noqa: F811
    folder = tmp_path / "table"
    folder.mkdir()
    relay = Relay(tmp_path)
    table = start_table(relay, folder, name, phones)
    want = folder / "want.json"
    try:
        with serving(tmp_path / "s.sqlite3", str(relay.path), pause=0.05, phones=True) as site:
            ready = wait_for(lambda: table.poll() is not None or _read(want).get("ready"), 120,
                             "the game was not set up")
            assert table.poll() is None, _said(table)
            assert len(ready) == phones
            wait_for(lambda: set(site.seats.seats) == set(ready), 30, "serve has no seats")
            pages = {}
            for seat in ready:
                context = browser.new_context(viewport=PHONE)
                pages[seat], taps = open_seat(context, site, seat)
                assert taps <= 2
            done, handled = folder / "done.json", 0
            while not done.exists():
                asked = _read(want)
                if asked.get("n", 0) <= handled:
                    assert table.poll() is None, _said(table)
                    time.sleep(0.005)
                    continue
                page = pages[asked["seat"]]

                def showing(page=page, n=asked["n"]) -> bool:
                    now = _read(want)  # the screen the table draws now, for this tap
                    return now.get("n") == n and shown(page) == [r.rstrip() for r in now["rows"]]

                try:
                    wait_for(showing, 20)
                except AssertionError:
                    raise AssertionError(f"P{asked['seat'] + 1}'s phone shows {shown(page)}, "
                                         f"not its screen {_read(want)}") from None
                page.click(f'button[data-button="{asked["button"]}"]:not([data-hold])')
                handled = asked["n"]
            result = json.loads(done.read_text())
            for seat, page in pages.items():  # the end reaches the phones too
                assert not page.problems, page.problems
        (folder / "stop").write_text("")
        table.wait(timeout=30)
    finally:
        if table.poll() is None:
            table.kill()
        relay.close()
    assert handled == result["taps"] and handled > 0
    reference = on_stations(name)
    assert result["standings"] == reference["standings"]
    assert result["actions"] == reference["actions"]
