"""The live page fits every screen it is shown on: a phone held upright, a
laptop and a 1080p TV across the room, in Debian's Chromium (launched as
tests/test_serve_browser.py launches it). For every title, from two players
(or the fewest the title takes) to the most, in the middle of a game and at
its end, what a player needs (whose turn it is, the standings, every open
offer: the elements of class "need") lies inside the viewport, measured from
the elements' boxes; no word is broken inside; no text needs an emoji font;
the end reads as the end."""

from __future__ import annotations

import json

import pytest

from catnip.rules.rng import Rng
from playout import any_legal
from serverig import GameTable, serving, wait_for
from test_serve_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.xdist_group("browser")

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768},
         "tv": {"width": 1920, "height": 1080}}
# Code points a system without an emoji font draws as empty boxes, or that
# browsers may draw as emoji: symbols, dingbats, arrows, geometric shapes,
# pictographs, and the variation selectors that ask for an emoji's picture.
EMOJI = [(0x2190, 0x21FF), (0x2300, 0x23FF), (0x25A0, 0x27BF), (0x2900, 0x297F),
         (0x2B00, 0x2BFF), (0xFE00, 0xFE0F), (0x1F000, 0x1FAFF)]

# Everything measured in the page itself, from the boxes the browser laid out.
MEASURE = """(emoji) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const out = {below: [], beside: [], needed: 0, cells: [], styles: [], emoji: [],
               wide: document.documentElement.scrollWidth - vw};
  for (const e of document.querySelectorAll(".need")) {
    out.needed++;
    const r = e.getBoundingClientRect();
    const what = e.textContent.slice(0, 60);
    if (r.bottom > vh + 0.5 || r.top < -0.5) out.below.push([what, r.bottom, vh]);
    if (r.right > vw + 0.5 || r.left < -0.5) out.beside.push([what, r.right, vw]);
  }
  for (const c of document.querySelectorAll("td, th, li, p, h1, h2")) {
    if (c.scrollWidth > c.clientWidth + 0.5) {
      out.cells.push([c.textContent, c.scrollWidth, c.clientWidth]);
    }
  }
  for (const e of document.querySelectorAll("*")) {
    const s = getComputedStyle(e);
    if (s.wordBreak === "break-all" || s.wordBreak === "break-word" ||
        s.overflowWrap === "anywhere" || s.overflowWrap === "break-word") {
      out.styles.push([e.tagName, s.wordBreak, s.overflowWrap]);
    }
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const ch of n.nodeValue) {
      const c = ch.codePointAt(0);
      if (emoji.some(([a, b]) => a <= c && c <= b)) out.emoji.push([ch, n.nodeValue]);
    }
  }
  return out;
}"""

# (title, config, least, most): the player counts each layout is measured at.
TITLES = [("heist", {}, 2, 6), ("stack", {}, 2, 6), ("stack", {"mode": "clowder"}, 1, 7),
          ("purrfect", {}, 4, 7)]


def _counts(least: int, most: int) -> list[int]:
    return sorted({max(least, 2), (max(least, 2) + most) // 2, most})


CASES = [(name, config, n) for name, config, least, most in TITLES for n in _counts(least, most)]


def assert_fits(page, where: str) -> dict:
    got = page.evaluate(MEASURE, EMOJI)
    assert got["needed"], f"{where}: nothing on the page is marked as needed"
    assert not got["below"], f"{where}: needed but off the screen: {got['below']}"
    assert not got["beside"], f"{where}: needed but off the side: {got['beside']}"
    assert got["wide"] <= 0, f"{where}: the page is {got['wide']} px wider than the screen"
    assert not got["cells"], f"{where}: text does not fit its box: {got['cells']}"
    assert not got["styles"], f"{where}: words may break inside: {got['styles']}"
    assert not got["emoji"], f"{where}: needs an emoji font: {got['emoji']}"
    return got


def _open(chromium, url: str) -> dict:
    pages = {}
    for name, size in SIZES.items():
        page = chromium.new_page(viewport=size)
        page.problems = []
        page.on("pageerror", lambda e, page=page: page.problems.append(str(e)))
        page.goto(url)
        pages[name] = page
    return pages


def _shown(site, table: GameTable, pages: dict) -> None:
    """Wait until every page has drawn the table's newest move whole. A move
    reaches the page as two states, its act (the title's move number, the
    feed) and then its snap (the public state): the title alone can be a
    move ahead of the board."""
    want = json.loads(json.dumps(table.game.public()))  # as the wire carries it
    moves = len(table.game.log)

    def heard():
        state = json.loads(site.hub.data)
        return state["moves"] == moves and state["public"] == want

    wait_for(heard, 15, f"the site never heard move {moves} and its state")
    version = site.hub.version
    for page in pages.values():
        page.wait_for_function("(v) => window.catnipShown.some(([n]) => n >= v)"
                               " && document.getElementById('link').className.includes('up')",
                               arg=version, timeout=15000)


def _play(table: GameTable, until, seed: str, choose=any_legal) -> None:
    game, rng = table.game, Rng(seed)
    while not until(game):
        assert game.result() is None, "the game ended before the state sought"
        players = game.to_act()
        p = players[rng.below(len(players))]
        table.act(p, choose(game, p, rng))


def _midgame(name: str, config: dict):
    """A busy moment of the game: the most a page has to show at once."""
    if name == "heist":  # a later round, some of its cards played
        return lambda g: (g.public()["round"] >= 3 and g.public()["phase"] == "play"
                          and 0 < len(g.to_act()) < g.players())
    if name == "purrfect":  # a swap made, and every player with offers open
        return lambda g: (any(ev.get("type") == "swap" for _, _, evs in g.seen for ev in evs)
                          and len({o["player"] for o in g.public()["offers"]}) == g.players()
                          and len(g.public()["offers"]) >= 2 * g.players())
    return lambda g: len(g.log) >= 4


def _offering(game, player, rng):
    """Purrfect played to crowd the page: offers mostly, a swap now and then."""
    options = game.legal(player)
    pick = [a for a in options if a[0] == "offer"] if rng.below(5) else \
        [a for a in options if a[0] == "accept"]
    return rng.choice(pick or options)


def _scoring(game, player, rng):
    """Purrfect with the cards on the table: a round scored each move."""
    n = game.players()
    declarer = rng.below(n)
    return ("score", declarer, (declarer + 1 + rng.below(n - 1)) % n)


@pytest.mark.parametrize(("name", "config", "players"), CASES,
                         ids=[f"{n}-{c.get('mode', 'plain')}-{p}" for n, c, p in CASES])
def test_what_a_player_needs_is_on_every_screen(browser, tmp_path, name, config,  # noqa: F811
                                                players):
    table = GameTable(tmp_path)
    with serving(tmp_path / "s.sqlite3", None, table=table) as site:
        pages = _open(browser, site.url + "/")
        seats = list(range(players))
        table.begin(name, dict(config, players=players), "fit", seats)
        if name == "purrfect":
            _track_events(table)
        _play(table, _midgame(name, config), "fit " + name,
              _offering if name == "purrfect" else any_legal)
        _shown(site, table, pages)
        for size, page in pages.items():
            page.screenshot(path=str(tmp_path / f"{size}-mid.png"))
            assert_fits(page, f"{name} {players} players, mid-game, {size}")
            assert page.text_content("#link") == "Connected to the table"
            if name == "purrfect":
                _assert_every_offer_shown(page, table.game.public())
        if name == "purrfect":  # the end comes quicker with the cards on the table
            table.begin(name, dict(config, players=players, mode="scorekeeper"), "end", seats)
        _play(table, lambda g: g.result() is not None, "end " + name,
              _scoring if name == "purrfect" else any_legal)
        for page in pages.values():
            page.wait_for_selector("text=Game over", timeout=15000)
        for size, page in pages.items():
            page.screenshot(path=str(tmp_path / f"{size}-end.png"))
            assert_fits(page, f"{name} {players} players, the end, {size}")
            _assert_the_end(page, players)
            assert page.problems == [], page.problems
            page.close()


def _track_events(table: GameTable) -> None:
    """Keep the events the game made (the test's own view; the page gets
    only what the table sends)."""
    act = table.act
    table.game.seen = []

    def acting(player, action):
        events = act(player, action)
        if hasattr(table.game, "seen"):
            table.game.seen.append((player, action, events))
        return events

    table.act = acting


def _assert_every_offer_shown(page, public: dict) -> None:
    rows = page.evaluate("""() => [...document.querySelectorAll("#game table.need tbody tr")]
        .map((r) => [...r.cells].map((c) => c.textContent))""")
    for p, row in enumerate(rows):
        mine = [o["meow"] for o in public["offers"] if o["player"] == p]
        assert row[-1].split(" · ") == mine if mine else row[-1] == "", (p, row, mine)


def _assert_the_end(page, players: int) -> None:
    game = page.text_content("#game")
    assert "Game over" in game and "Standings" in game
    for stale in ("waiting", "Waiting", " of 6", "to play", "reveals next"):
        assert stale not in game, f"the end still says {stale!r}: {game}"
    rows = page.locator("#game table.need tbody tr").count()
    assert rows == players, f"{rows} standings rows for {players} players"


def test_purrfect_shows_only_this_rounds_swaps(browser, tmp_path):  # noqa: F811
    table = GameTable(tmp_path)
    with serving(tmp_path / "s.sqlite3", None, table=table) as site:
        page = _open(browser, site.url + "/")["phone"]
        table.begin("purrfect", {"players": 4}, "swaps", [0, 1, 2, 3])
        _track_events(table)
        _play(table, lambda g: any(ev.get("type") == "swap" for *_, evs in g.seen
                                   for ev in evs), "swaps", _offering)
        _shown(site, table, {"phone": page})
        assert page.locator(".swaps li").count() >= 1, page.evaluate("document.body.innerText")
        # The round ends: P1 is dealt a hand of one cat (the test's own hand
        # on the rules' state; the table sends what the rules then say) and
        # declares it.
        game = table.game
        _one_cat(game, 0)
        table.act(0, ("declare",))
        assert game.public()["round"] == 2
        _shown(site, table, {"phone": page})
        assert page.locator(".swaps").count() == 0, page.text_content(".swaps")
        assert "Swaps" not in page.text_content("#game")
        first = page.locator("#game table.need tbody tr").first  # two pawprints, drawn
        assert first.locator("svg.paw").count() == 2
        assert first.locator(".count").text_content() == "2"


def _one_cat(game, player: int) -> None:
    """Trade the player's cards for every card of one cat in play."""
    from catnip.rules.purrfect import HAND

    cat = game.cats[0]
    mine = [c for c in game.hand(player) if c // HAND != cat]
    for c in range(cat * HAND, cat * HAND + HAND):
        if game.owner[c] != player:
            game.owner[mine.pop()], game.owner[c] = game.owner[c], player
