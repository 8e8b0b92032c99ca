"""Phone seats in Debian's Chromium (launched as tests/test_serve_browser.py
does): from a seat's join link to its hand on screen in two taps, the
screen the table drew read back from the page's DOM, every button's tap
reaching the table and its new screen coming back, a second phone with the
same link refused, the table unplugged said plainly, a phone put away told
to the table, the public page marking the phone seats, and a TV let in to
the host's page by the host code."""

from __future__ import annotations

import pytest

from catnip_host.serve.phones import join_link
from phonerig import Fed, Keypad, fed_site, screen
from serverig import wait_for
from test_serve_browser import PHONE, browser  # noqa: F401

pytestmark = pytest.mark.xdist_group("browser")
PHONES = [0, 2, 4]


def shown(page) -> list[str]:
    """The screen's rows as the page shows them, trailing spaces dropped."""
    return [r.rstrip() for r in page.eval_on_selector_all(
        "#screen .row", "rows => rows.map(r => r.textContent)")]


def lit(page) -> list[str]:
    return page.eval_on_selector_all("#screen .lit", "spans => spans.map(s => s.textContent)")


def open_seat(context, site, seat: int) -> tuple:
    """A phone scans the seat's code (the first tap opens its link) and
    takes the seat (the second): returns the page and the taps it took."""
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.goto(join_link(site.url, seat, site.seats.seats[seat].token))
    page.click("#take-seat")
    page.wait_for_url("**/seat")
    return page, 2


def test_a_phone_joins_in_two_taps_and_plays_its_own_screen(browser, tmp_path):  # noqa: F811
    with fed_site(tmp_path / "s.sqlite3") as site:
        fed = Fed(site, "heist", {"players": 6}, "browser", PHONES)
        keypad = Keypad(fed)
        wait_for(lambda: set(site.seats.seats) == set(PHONES))
        contexts = {seat: browser.new_context(viewport=PHONE) for seat in PHONES}
        pages = {}
        for seat in PHONES:
            pages[seat], taps = open_seat(contexts[seat], site, seat)
            assert taps <= 2
            rows = screen(fed.game, seat, fed.cursors[seat])[0]
            wait_for(lambda p=pages[seat], r=rows: shown(p) == [x.rstrip() for x in r],
                     why=f"P{seat + 1}'s hand is not on its phone")
        wait_for(lambda: [a for a in keypad.asked if a[0] == "claim"][:len(PHONES)] == [
            ("claim", {"seat": s}) for s in PHONES], why="the seats were not claimed in order")
        page = pages[2]
        # Each button: the tap reaches the table, and the seat's new screen comes back.
        for button, move in (("down", 1), ("down", 1), ("up", -1), ("ok", 0), ("back", 0)):
            before, asked = fed.cursors[2], len(keypad.asked)
            page.click(f'button[data-button="{button}"]:not([data-hold])')
            # This tap's press, not the last one's: two taps of DOWN ask alike.
            wait_for(lambda b=button, n=asked: ("press", {"seat": 2, "button": b, "hold": False})
                     in keypad.asked[n:])
            assert fed.cursors[2] == before + move
            rows, spans = screen(fed.game, 2, fed.cursors[2])
            # The rows alike at every cursor: the new screen is the one whose
            # cursor's row is shown inverse.
            wait_for(lambda r=rows, s=spans: shown(page) == [x.rstrip() for x in r]
                     and lit(page)[1:2] == [r[s[1][0]]],
                     why=f"after {button}, the phone does not show the cursor's row inverse")
        asked = len(keypad.asked)
        page.click('button[data-hold="1"]')  # Menu: BACK held
        wait_for(lambda: ("press", {"seat": 2, "button": "back", "hold": True})
                 in keypad.asked[asked:])
        # The screen fills the phone's width, all 16 columns in it; the keys are touch-sized.
        box = page.eval_on_selector("#screen", "s => [s.getBoundingClientRect().width, "
                                    "s.scrollWidth, s.clientWidth]")
        assert box[0] >= 0.85 * PHONE["width"] and box[1] <= box[2], box
        heights = page.eval_on_selector_all("button.key", "bs => bs.map(b => "
                                            "b.getBoundingClientRect().height)")
        assert len(heights) == 5 and min(heights) >= 44, heights
        # Another phone with P3's link: refused, and told what to do.
        thief = browser.new_context(viewport=PHONE).new_page()
        thief.goto(join_link(site.url, 2, site.seats.seats[2].token))
        thief.click("#take-seat")
        wait_for(lambda: "already open on another phone" in thief.inner_text("#why"))
        assert thief.url.endswith("/join") or "/join" in thief.url
        thief.goto(f"{site.url}/seat")
        assert "holds no seat" in thief.inner_text("body")
        # The table unplugged: the phone says so.
        site._plugged(False)
        wait_for(lambda: "unplugged" in page.inner_text("#link"))
        site._plugged(True)
        wait_for(lambda: page.inner_text("#link") == "Your hand")
        # The public page marks the phone seats; a phone put away is "away".
        tv = browser.new_page(viewport=PHONE)
        tv.goto(site.url + "/")
        wait_for(lambda: "P3 (phone)" in tv.inner_text("#game"))
        pages[4].close()
        wait_for(lambda: ("away", {"seat": 4, "away": True}) in keypad.asked)
        wait_for(lambda: "P5 (away)" in tv.inner_text("#game"))
        for p in pages.values():
            assert p.is_closed() or not p.problems, p.problems
        for c in contexts.values():
            c.close()


def test_a_tv_types_the_host_code_and_shows_the_seats_codes(browser, tmp_path, monkeypatch):  # noqa: F811
    """The TV is told apart from the laptop by its browser's name here (both
    run on this computer): the server takes it for another device."""
    from catnip_host.serve import phones

    here = phones._on_this_computer
    monkeypatch.setattr(phones, "_on_this_computer", lambda r: "catnip-tv" not in r.headers.get(
        "user-agent", "") and here(r))
    with fed_site(tmp_path / "s.sqlite3") as site:
        Fed(site, "heist", {"players": 6}, "browser", PHONES)
        wait_for(lambda: set(site.seats.seats) == set(PHONES))
        tv = browser.new_context(viewport={"width": 1920, "height": 1080},
                                 user_agent="Mozilla/5.0 catnip-tv").new_page()
        problems: list[str] = []
        tv.on("pageerror", lambda e: problems.append(str(e)))
        tv.goto(f"{site.url}/host")
        assert "host code" in tv.inner_text("body") and not tv.query_selector("svg")
        tv.fill("#code", "AAAA-AAAA")
        tv.click("#send-code")
        wait_for(lambda: "not the host code" in tv.inner_text("#why"))
        code = site.seats.hosts.code
        tv.fill("#code", f"{code[:4].lower()} {code[4:]}")
        tv.press("#code", "Enter")
        wait_for(lambda: _body(tv).count("Release P") == len(PHONES))
        assert len(tv.query_selector_all("section.phone svg")) == len(PHONES)
        old = site.seats.seats[2].code
        assert f"{old[:4]}-{old[4:]}" in tv.inner_text("body")
        assert "On the TV too" not in tv.inner_text("body")
        tv.click('button[data-seat="2"]')  # releases P3: its new code comes up
        wait_for(lambda: site.seats.seats[2].code != old and
                 site.seats.seats[2].code[:4] in _body(tv))
        laptop = browser.new_page()
        laptop.goto(f"{site.url}/host")
        assert "1 other screen shows this page" in laptop.inner_text("body")
        laptop.click("#sign-out")
        wait_for(lambda: "On the TV too" in _body(laptop) and "other screen" not in _body(laptop))
        tv.reload()
        assert "host code" in tv.inner_text("body") and not tv.query_selector("svg")
        assert not problems, problems


def _body(page) -> str:
    """The page's text, or "" while it is between two loads."""
    from playwright.sync_api import Error

    try:
        return page.inner_text("body")
    except Error:
        return ""
