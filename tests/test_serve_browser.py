"""`catnip serve` in a real browser: Debian's Chromium, headless, driven by
Playwright (launched with the system browser's path; Playwright's own
browser downloads are never used). The real firmware plays a game on the
virtual table (tests/shared/linkplay.py, through the relay of
tests/linkrig.py) while the page is open: every move shows, the cable is
unplugged and the page says so and catches up, the standings show at the
end, and the page fits a phone held upright and a TV.

CATNIP_SCREENS=1 writes the README's screenshots (docs/screens/serve-*.png,
a Stack O' Cats game with the tray's gauge) from this run; otherwise they go
to the test's own folder."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from linkrig import Relay, sent_stream, start_table
from serverig import serving, wait_for

CHROMIUM = Path(os.environ.get("CATNIP_CHROMIUM", "/usr/bin/chromium"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
# Chromium keeps a Unix socket in the temporary folder, and a socket's path has
# room for 107 bytes: under a long TMPDIR (macOS's, or CI's) it aborts at launch.
SOCKET_ROOM = 60
SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
# Every line the feed ever showed, and how the link looked, kept by the page
# itself as it changes (an observer, so nothing between two looks is missed).
WATCH = """
document.addEventListener("DOMContentLoaded", () => {
  window.seenFeed = new Set(); window.seenLink = new Set();
  const look = () => {
    document.querySelectorAll("#feed li").forEach((li) => window.seenFeed.add(li.textContent));
    const link = document.getElementById("link");
    if (link) window.seenLink.add(link.className);
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
    characterData: true, attributes: true});
});
"""

pytestmark = pytest.mark.xdist_group("browser")


def chromium_missing() -> str | None:
    if not CHROMIUM.is_file():
        return (f"Chromium is not installed at {CHROMIUM}: `apt-get install chromium` "
                "(.ci/run installs it), or set CATNIP_CHROMIUM to its path")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed: make test installs it into .venv"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = chromium_missing()
    if missing and os.environ.get("CATNIP_BROWSER_REQUIRED"):
        pytest.fail(missing)  # CI installs Chromium (.ci/run): a skip there would hide it
    if missing:
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def launch(playwright, executable: Path = CHROMIUM):
    """Chromium, headless, with a temporary folder short enough for its socket."""
    env = dict(os.environ)
    if len(tempfile.gettempdir()) > SOCKET_ROOM:
        short = tempfile.mkdtemp(prefix="catnip-chromium-", dir="/tmp")
        atexit.register(shutil.rmtree, short, True)
        env["TMPDIR"] = short
    return playwright.chromium.launch(executable_path=str(executable), args=FLAGS, env=env)


def _page(browser, url: str, size: dict):
    page = browser.new_page(viewport=size)
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.add_init_script(WATCH)
    page.goto(url)
    return page


def _moves_shown(page) -> int:
    title = page.text_content("#title") or ""
    return int(title.rsplit("move ", 1)[1]) if "move " in title else 0


def test_a_game_on_the_virtual_table_shows_move_by_move_through_an_unplug(browser, tmp_path):
    relay = Relay(tmp_path)
    table = start_table(relay, tmp_path, "heist", {"variant": "standard", "gems": "digital"},
                        [0, 1, 2], pace_ms=60)
    try:
        with serving(tmp_path / "s.sqlite3", str(relay.path), pause=0.05) as site:
            phone = _page(browser, site.url + "/", PHONE)
            tv = _page(browser, site.url + "/", TV)
            phone.wait_for_function("() => document.getElementById('link').className.includes('up')")
            wait_for(lambda: _moves_shown(phone) >= 6, 120, "the game never got going")
            unplugged = threading.Thread(target=relay.unplug, args=(2.5,))
            unplugged.start()
            phone.wait_for_function("() => document.getElementById('link').className.includes('down')",
                                    timeout=15000)
            assert "unplugged" in phone.text_content("#link")
            at_unplug = _moves_shown(phone)
            unplugged.join()
            phone.wait_for_function("() => document.getElementById('link').className.includes('up')",
                                    timeout=20000)
            wait_for(lambda: _moves_shown(phone) > at_unplug + 2, 60, "no catching up")
            for page, name in ((phone, "phone"), (tv, "tv")):
                page.screenshot(path=str(tmp_path / f"heist-{name}.png"))
            phone.wait_for_selector("text=Standings", timeout=300_000)
            sent = sent_stream(tmp_path)
            acts, end = _announced(sent)
            for page in (phone, tv):
                seen = page.evaluate("[...window.seenFeed]")
                shown = [n for n in acts if any(s.startswith(f"Move {n}:") for s in seen)]
                # Moves made before the page first drew are history the feed
                # may have scrolled past; from then on, every one is shown.
                missing = [n for n in acts if shown and n > shown[0] and n not in shown]
                assert shown and not missing, f"moves never shown: {missing or acts}"
                assert page.evaluate("[...window.seenLink]") >= ["link down", "link up"]
                _assert_standings(page, end)
                assert page.problems == [], page.problems
            _assert_fits_a_phone(phone)
            _assert_two_columns_on_a_tv(tv)
    finally:
        if table.poll() is None:
            table.kill()
        relay.close()


def _announced(sent: dict[int, bytes]) -> tuple[list[int], dict]:
    acts, end = [], None
    for seq in sorted(sent):
        kind, fields = _kind(sent[seq])
        if kind == "act":
            acts.append(fields["n"])
        elif kind == "end":
            end = fields["result"]
    assert acts and end is not None
    return acts, end


def _kind(raw: bytes):
    from catnip import wire

    item = wire.Reader().feed(raw + b"\n")[0]
    return item[2], item[3]


def _assert_standings(page, result: dict) -> None:
    rows = page.evaluate("""() => {
      const h = [...document.querySelectorAll("#game h2")].find((e) => e.textContent === "Standings");
      return [...h.nextElementSibling.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent));
    }""")
    ranks = result["ranks"]
    order = sorted(range(len(ranks)), key=lambda p: (ranks[p], p))
    assert [row[:3] for row in rows] == \
        [[str(ranks[p]), f"P{p + 1}", str(result["scores"][p])] for p in order]


def _assert_fits_a_phone(page, first: str = "#game", then: str = "#side") -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 18, f"body text is {size} px on a phone"
    if first != then:
        game, side = page.locator(first).bounding_box(), page.locator(then).bounding_box()
        assert side["y"] >= game["y"] + game["height"] - 1, "on a phone the feed follows the game"


def _assert_two_columns_on_a_tv(page) -> None:
    game, side = page.locator("#game").bounding_box(), page.locator("#side").bounding_box()
    assert side["x"] > game["x"] + game["width"] - 1, "on a TV the feed stands beside the game"
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 30, f"body text is {size} px on a 1080p TV: too small across a room"


def test_a_finished_game_replays_by_the_arrow_keys(browser, tmp_path):
    from recordrig import engine_store, mixed_games

    path = engine_store(tmp_path / "s.sqlite3", mixed_games(3, "replay"), start=1_790_000_000)
    with serving(path) as site:
        page = _page(browser, site.url + "/games/2", PHONE)
        assert page.text_content("#at") == "Before the first move"
        for k in range(1, 4):
            page.keyboard.press("ArrowRight")
            assert page.text_content("#at").startswith(f"Move {k} of ")
        assert page.text_content("#title") == "Stack O' Cats, game 2 of session 1"
        assert page.text_content("#game .huge").isdigit()  # the tower
        page.keyboard.press("End")
        assert "Standings" in page.text_content("#game")
        page.keyboard.press("Home")
        assert page.text_content("#at") == "Before the first move"
        page.screenshot(path=str(tmp_path / "replay.png"), full_page=True)
        assert page.problems == [], page.problems
        _assert_fits_a_phone(page, "#game", "#game")


def test_the_trays_proposal_and_lean_gauge_show_live_on_a_phone_and_a_tv(browser, tmp_path):
    from catnip.rules.rng import Rng
    from playout import any_legal
    from serverig import GameTable

    (tmp_path / "t").mkdir()
    table = GameTable(tmp_path / "t")
    shots = SCREENS if os.environ.get("CATNIP_SCREENS") else tmp_path
    with serving(tmp_path / "t" / "s.sqlite3", None, table=table) as site:  # "the Pico"
        phone, tv = _page(browser, site.url + "/", PHONE), _page(browser, site.url + "/", TV)
        table.begin("stack", {"players": 3}, "gauge", [0, 1, 2])
        game, rng = table.game, Rng("serve gauge")
        while len(game.log) < 12 or game.public()["tower"] < 2:  # a tower, and a feed
            assert game.result() is None, "the game ended before the tray was shown"
            p = game.to_act()[rng.below(len(game.to_act()))]
            table.act(p, any_legal(game, p, rng))
        for page in (phone, tv):
            page.wait_for_function(f"() => document.title !== '' && document.getElementById("
                                   f"'title').textContent.endsWith('move {len(game.log)}')")
        with table.lock:
            table.line.send("tray", proposes="place", value=1, conf=87, lean=[612, 433, -433],
                            fault=None)
        for page in (phone, tv):
            page.wait_for_selector(".gauge", timeout=15000)
            assert page.text_content(".tray-says") == "The tray saw 1 cat placed, 87% sure"
            assert "Lean 61% to the right-front" in page.text_content(".lean")
            box, dot = (page.locator(".gauge").bounding_box(),
                        page.locator(".gauge .dot").bounding_box())
            right = (dot["x"] + dot["width"] / 2 - box["x"]) / box["width"]
            down = (dot["y"] + dot["height"] / 2 - box["y"]) / box["height"]
            assert abs(right - (0.5 + 433 / 2400)) < 0.02 and abs(down - (0.5 + 433 / 2400)) < 0.02
            assert "wary" in page.get_attribute(".gauge", "class")
            size = box
            assert size["width"] >= 0.6 * min(page.viewport_size.values()) or \
                size["width"] >= 250, f"the gauge is {size['width']} px wide"
        _assert_fits_a_phone(phone, "#game", "#game")
        gauge = tv.locator(".gauge").bounding_box()
        assert gauge["y"] + gauge["height"] <= TV["height"], "on a TV the gauge is off the screen"
        phone.screenshot(path=str(shots / "serve-phone.png"), full_page=True)
        tv.screenshot(path=str(shots / "serve-tv.png"))
        with table.lock:  # the player reported: the proposal is gone, the tower leans on
            table.line.send("tray", proposes=None, value=None, conf=None, lean=[950, -950, 0],
                            fault=None)
        phone.wait_for_function("() => document.querySelector('.gauge.tipping')",
                                timeout=15000)
        assert phone.text_content(".tray-says") == "The tray has nothing to propose yet"
        assert phone.locator(".gauge .dot").get_attribute("data-x") == "-950"
        box, dot = phone.locator(".gauge").bounding_box(), phone.locator(".gauge .dot").bounding_box()
        assert abs((dot["x"] + dot["width"] / 2 - box["x"]) / box["width"] - (0.5 - 950 / 2400)) < 0.02
        assert abs((dot["y"] + dot["height"] / 2 - box["y"]) / box["height"] - 0.5) < 0.02
        phone.screenshot(path=str(tmp_path / "tray-phone.png"), full_page=True)
        for page in (phone, tv):
            assert page.problems == [], page.problems
