"""The evening's pages: every stored session and game with its standings,
`catnip chart`'s charts as images, and a finished game move by move from
its verified record; every link on them leads somewhere catnip serves."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from catnip_host import records
from catnip_host.store import Store
from recordrig import engine_store, mixed_games
from serverig import get, serving

LINKS = re.compile(rb'(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = engine_store(tmp_path_factory.mktemp("evening") / "s.sqlite3", mixed_games(6, "serve"),
                        start=1_790_000_000)
    with serving(path) as site:
        yield site


def _page(site, path: str) -> str:
    status, headers, body = get(site, path)
    assert status == 200, (path, body[:300])
    assert headers["content-type"].startswith("text/html")
    return body.decode()


def test_every_link_leads_to_a_page_catnip_serves(site):
    seen, todo = set(), ["/"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        status, headers, body = get(site, path)
        assert status == 200, (path, body[:300])
        if headers["content-type"].startswith("text/html"):
            for link in LINKS.findall(body):
                url = unescape(link.decode())
                assert url.startswith("/") and not url.startswith("//"), (path, url)
                todo.append(url)
    kinds = {p.split("/")[1] for p in seen}
    assert {"sessions", "games", "static", "charts"} <= kinds, seen
    assert sum(p.endswith(".png") for p in seen) >= 6


def test_a_session_lists_its_games_with_the_standings(site):
    store = Store(site.follower.store_path)
    plays = records.load(store).plays
    first = [p for p in plays if p.session == plays[0].session]
    html = _page(site, f"/sessions/{first[0].session}")
    for play in first:
        assert play.title.replace("'", "&#x27;") in html
        if play.winners():
            assert "won by " + play.players[play.winners()[0]] in html
    assert f'src="/sessions/{first[0].session}/scores.png"' in html
    assert "Session 1" in _page(site, "/sessions") and "Wins over time" in _page(site, "/sessions")


def test_the_sessions_list_their_games_titles_players_and_winners(tmp_path):
    path = engine_store(tmp_path / "s.sqlite3", mixed_games(4, "list"), start=1_790_000_000)
    store = Store(path)
    empty = [store.session("e6614c311b7f", f"idle{k}", "direct", "0.1.0") for k in range(3)]
    plays = records.load(store).plays
    store.close()
    with serving(path) as site:
        html = _page(site, "/sessions")
        for play in plays:
            section = html.split(f'<a href="/sessions/{play.session}">Session {play.session}</a>'
                                 )[1].split("<h2>")[0]
            row = re.search(rf'<tr><td><a href="/games/\d+">game {play.gid}</a>.*?</tr>',
                            section).group(0)
            assert play.title.replace("'", "&#x27;") in row
            assert all(name in row for name in play.players), row
            winners = [play.players[s] for s in play.winners()]
            assert ("won by " + ", ".join(sorted(winners))) in row if winners else True
        for s in empty:  # plugged in, no game: left out, a link away
            assert f'href="/sessions/{s}"' not in html
        assert "3 session(s) with no game stored are not listed" in html
        every = _page(site, "/sessions?every=1")
        for s in empty:
            assert re.search(rf'<a href="/sessions/{s}">Session {s}</a> · .*?</h2><p class="dim">'
                             r"No game stored", every)
        assert "not listed" not in every


def test_a_game_is_numbered_as_the_table_numbers_it_on_every_page(site):
    store = Store(site.follower.store_path)
    numbers = dict(store.db.execute("SELECT gid, rowid FROM pulls"))
    plays = records.load(store).plays
    for play in plays:
        number = numbers[play.gid]
        html = _page(site, f"/games/{number}")
        said = f"game {play.gid} of session {play.session}"
        assert f'<h1 id="title">{play.title.replace(chr(39), "&#x27;")}, {said}</h1>' in html
        assert f"Game {number}" not in html
        assert f'<a href="/games/{number}">game {play.gid}</a>' in _page(
            site, f"/sessions/{play.session}")
        from catnip_host import charts

        assert charts.scores_by_round(play).title.endswith(said)


def _moves(html: str) -> dict:
    raw = re.search(r'<script id="moves" type="application/json">(.*?)</script>', html).group(1)
    return json.loads(raw)


@pytest.mark.parametrize("number", range(1, 7))
def test_a_game_replays_move_by_move_from_its_verified_record(site, number):
    html = _page(site, f"/games/{number}")
    assert "verified" in html and "NOT verified" not in html
    store = Store(site.follower.store_path)
    uid, gid, commit = store.db.execute("SELECT uid, gid, seed_commit FROM pulls WHERE rowid = ?",
                                        (number,)).fetchone()
    (play,) = [p for p in records.load(store).plays if (p.table, p.gid) == (uid, gid)]
    data = _moves(html)
    assert [m["player"] for m in data["moves"]] == [a[0] for a in play.actions]
    assert [m["action"] for m in data["moves"]] == [a[1] for a in play.actions]
    assert data["result"] == json.loads(json.dumps(play.result))
    ranks = play.result["ranks"]
    best = min(range(len(ranks)), key=lambda s: (ranks[s], s))
    assert f"<td>1</td><td>{play.players[best]}</td><td>{play.scores()[best]}</td>" in html
    charts = ["scores"] + (["tower"] if play.name == "stack" else [])
    for chart in charts:
        status, headers, png = get(site, f"/games/{number}/{chart}.png")
        assert status == 200 and headers["content-type"] == "image/png"
        assert png.startswith(b"\x89PNG")
    if play.name != "stack":
        status, _, body = get(site, f"/games/{number}/tower.png")
        assert status == 404 and b"the tower chart is for Stack O" in body


def test_a_missing_session_or_game_says_which_there_are(site):
    status, _, body = get(site, "/sessions/99")
    assert status == 404 and b"no session 99" in body and b"sessions are 1, 2" in body
    assert str(site.follower.store_path).encode() not in body  # no path of the laptop's
    status, _, body = get(site, "/games/99")
    assert status == 404 and b"no game 99" in body and b"1, 2, 3" in body
    status, _, body = get(site, "/games/x")
    assert status == 404 and b"there is no page /games/x" in body


def test_wins_over_time_waits_for_names_when_a_chart_would_be_all_lines(tmp_path):
    path = engine_store(tmp_path / "s.sqlite3", mixed_games(30, "many"), start=1_790_000_000)
    with serving(path) as many:
        html = _page(many, "/sessions")
        assert "players are too many lines for one chart: name the seats" in html
        assert "/charts/wins.png" not in html
        status, _, body = get(many, "/charts/wins.png")
        assert status == 404 and b"catnip players name" in body


@pytest.mark.parametrize("number", [2**63, 2**64 + 1, 10**30])
def test_a_game_number_past_sqlites_is_a_404_not_a_500(site, number):
    status, _, body = get(site, f"/games/{number}")
    assert status == 404 and f"no game {number}".encode() in body, (status, body[:300])
    status, _, body = get(site, f"/sessions/{number}")
    assert status == 404, (status, body[:300])
