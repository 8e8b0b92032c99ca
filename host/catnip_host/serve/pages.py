"""The evening's pages: every stored session, one session's games with their
standings and chart, one game with its verification, charts and a move by
move replay. Plain HTML; every value from the store is escaped, and the
replay's moves travel as JSON that no browser runs."""

from __future__ import annotations

import json
import time
from html import escape

from catnip_host.records import Play
from catnip_host.serve.evening import Evening, Game, replay
from catnip_host.store import SessionInfo
from catnip_host.verify import VERIFIED
from catnip_host.words import Words, kind

HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>{title}</title><link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/icon.svg">{scripts}</head>
<body><header><h1 id="title">{title}</h1></header>
<nav><a href="/">The table, live</a> · <a href="/sessions">Every session</a></nav>
"""


def page(title: str, body: str, scripts: tuple[str, ...] = ()) -> str:
    tags = "".join(f'<script src="/static/{s}" defer></script>' for s in scripts)
    return HEAD.format(title=escape(title), scripts=tags) + body + "</body></html>\n"


def _when(at: float | None, form: str = "%Y-%m-%d %H:%M") -> str:
    return "date unknown" if at is None else time.strftime(form, time.localtime(at))


def _table(head: list[str], rows: list[list[str]]) -> str:
    """Cells are HTML already (escape what came from the store). A table
    wider than a phone scrolls on its own; the page and its words stay whole."""
    out = '<div class="wide"><table><thead><tr>' + "".join(f"<th>{h}</th>" for h in head) + \
        "</tr></thead><tbody>"
    for row in rows:
        out += "<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
    return out + "</tbody></table></div>"


def _at(at: float | None, form: str = "%Y-%m-%d %H:%M") -> str:
    return f'<span class="when">{_when(at, form)}</span>'


def label(play: Play) -> str:
    """A game as the table, the terminal, the feed and the charts number it."""
    return f"game {play.gid} of session {play.session}"


GAME_HEAD = ["game", "title", "players and scores", "result"]


def _game_row(evening: Evening, play: Play) -> list[str]:
    n = evening.number_of(play)
    scores = play.scores() if play.finished else []
    winners = {play.players[s] for s in play.winners()}
    who = ", ".join(escape(name) + (f" {scores[s]}" if scores else "")
                    for s, name in enumerate(play.players))
    result = ("won by " + escape(", ".join(sorted(winners)))) if winners else \
        ("finished" if play.finished else "abandoned")
    return [f'<a href="/games/{n}">game {play.gid}</a><br>{_at(play.began, "%H:%M")}',
            escape(play.title), who, result]


def sessions_page(evening: Evening, every: bool = False) -> str:
    """The sessions that stored a game, newest first, with each game's
    title, players and winners; `every` adds the sessions with none (a
    table plugged in without a game finished)."""
    found = evening.sessions()
    if not found:
        return page("The evening's games", "<p class=\"big\">No sessions stored yet: they "
                    "appear as soon as the table is plugged in.</p>")
    loaded = evening.plays()
    body, empty = "", 0
    for s in reversed(found):
        games = [p for p in loaded.plays if p.session == s.id]
        empty += not games
        if games or every:
            body += (f'<h2><a href="/sessions/{s.id}">Session {s.id}</a> · {_at(s.opened)}</h2>'
                     + (_table(GAME_HEAD, [_game_row(evening, p) for p in reversed(games)])
                        if games else f'<p class="dim">No game stored (board '
                        f"{escape(s.board)}, {s.frames} frames).</p>"))
    if empty and not every:
        body += (f'<p class="dim">{empty} session(s) with no game stored are not listed: '
                 '<a href="/sessions?every=1">list every session</a>.</p>')
    _, why_not = evening.wins_chartable()
    body += "<h2>Wins over time</h2>" + (
        '<img class="chart" src="/charts/wins.png" alt="each player\'s wins so far, play by play">'
        if why_not is None else f'<p class="dim">Not drawn: {escape(why_not)}.</p>')
    return page("The evening's games, newest first", body + _waiting(loaded.waiting,
                                                                     loaded.broken))


def _waiting(waiting: int, broken: list[str]) -> str:
    out = ""
    if waiting:
        out += (f'<p class="dim">{waiting} game(s) not pulled from the table yet are left '
                "out (still in play, or the table has not been plugged in since).</p>")
    out += "".join(f'<p class="dim">Left out {escape(why)}</p>' for why in broken)
    return out


def session_page(evening: Evening, info: SessionInfo) -> str:
    plays = evening.plays_of(info.id)
    body = (f"<p>Opened {_when(info.opened)} · board {escape(info.board)} · firmware "
            f"{escape(info.firmware)} · {info.frames} frames</p>")
    for first, last, why in evening.store.gaps(info.id):
        body += f'<p class="dim">Frames {first}-{last} were lost: {escape(why)}</p>'
    if not plays:
        return page(f"Session {info.id}", body + "<p>No game of this session is stored yet.</p>")
    body += "<h2>Games</h2>" + _table(GAME_HEAD, [_game_row(evening, p) for p in plays])
    body += (f'<h2>Scores</h2><img class="chart" src="/sessions/{info.id}/scores.png" '
             'alt="every seat\'s score round by round, a panel per game">')
    return page(f"Session {info.id}", body)


def game_page(evening: Evening, game: Game) -> str:
    play, check = game.play, game.check
    verdict = "verified" if check.status == VERIFIED else "NOT verified"
    body = (f"<p>{escape(play.title)} · {_when(play.began)} · game {play.gid} of "
            f'<a href="/sessions/{play.session}">session {play.session}</a></p>'
            f'<p class="{"" if check.status == VERIFIED else "notice"}">'
            f"{escape(check.summary())}</p>")
    body += "".join(f'<p class="notice">{escape(why)}</p>' for why in check.problems)
    if not play.finished:
        return page(f"{play.title}, {label(play)}: {verdict}", body + "<p>This game was "
                    "abandoned: it has no standings, and its hidden cards are never shown.</p>")
    ranks, scores = play.final()["ranks"], play.scores()
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    body += "<h2>Standings</h2>" + _table(
        ["rank", "player", "score"],
        [[str(ranks[s]), escape(play.players[s]), str(scores[s])] for s in order])
    charts = ["scores"] + (["tower"] if play.name == "stack" else [])
    body += "".join(f'<img class="chart" src="/games/{game.number}/{c}.png" alt="the {c} chart">'
                    for c in charts)
    if check.status != VERIFIED:
        return page(f"{play.title}, {label(play)}: {verdict}", body)
    body += _replay(play)
    return page(f"{play.title}, {label(play)}", body, ("live.js", "replay.js"))


def _replay(play: Play) -> str:
    from catnip import rules

    start = rules.replay(dict(play.record, log=[], finished=False)).public()
    words = Words([name if not play.anonymous(p) else "" for p, name in enumerate(play.players)])
    moves = [dict(m, said=[{"kind": kind(e), "text": words.event(e)}
                           for e in m["events"]]) for m in replay(play)]
    head, rows = words.standings(play.name, play.final())
    data = {"game": play.name, "title": play.title, "start": start, "moves": moves,
            "result": play.result, "players": words.labels(len(play.players)),
            "standings": {"end": words.end(play.name, play.final()), "head": head, "rows": rows}}
    script = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return ('<h2>Move by move</h2><div class="controls">'
            '<button id="back" type="button">‹ back</button>'
            '<input id="move" type="range" min="0" value="0" aria-label="move">'
            '<button id="next" type="button">next ›</button></div>'
            '<p id="at" class="big" role="status"></p><section id="game"></section>'
            f'<script id="moves" type="application/json">{script}</script>')
