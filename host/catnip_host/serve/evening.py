"""The evening's story from the session store, opened read-only: sessions,
the plays the rules rebuild from them (catnip_host.records), the charts of
`catnip chart` as PNG bytes, and a finished game move by move from its
verified record.

A game's number on the pages (G in /games/G) is its row in the store's
`pulls` table: every pulled game has one, it never changes (the store is
append-only), and it stays unique across tables.
"""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from catnip_host import charts, records, stats, verify
from catnip_host.records import Loaded, Play
from catnip_host.store import SessionInfo, Store, StoreError


class NotFound(LookupError):
    """No such session or game; the message says which there are."""


class ReadOnlyStore(Store):
    """The session store through a read-only connection: SQLite itself
    refuses every write, whatever a page asks."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise StoreError(f"no session store at {self.path} yet: `catnip serve` creates it "
                             "when it starts following the table")
        self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                  isolation_level=None, timeout=10)


@dataclass(frozen=True)
class Game:
    number: int  # its pulls row
    play: Play
    check: verify.Check


class Evening:
    """Reads of one store; one per request, as SQLite connections stay in
    the thread that opened them."""

    def __init__(self, path: Path | str) -> None:
        self.store = ReadOnlyStore(path)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Evening":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what is stored ---------------------------------------------------------

    def sessions(self) -> list[SessionInfo]:
        return self.store.sessions()

    def session(self, n: int) -> SessionInfo:
        try:
            return self.store.info(n)
        except StoreError:  # its message names the store's path: not for the network
            known = [str(s.id) for s in self.sessions()]
            raise NotFound(f"no session {n} is stored; the sessions are "
                           + (", ".join(known[:30]) if known else "none yet")) from None

    def plays(self) -> Loaded:
        """Every pulled game, rebuilt by the rules; kept while the store's
        games and names stay as they are (one copy, whatever the traffic)."""
        return _loaded(str(self.store.path), self._version())

    def plays_of(self, session: int) -> list[Play]:
        return [p for p in self.plays().plays if p.session == session]

    def numbers(self) -> dict[tuple[str, int, str], int]:
        """(table, gid, seed_commit) -> the game's number."""
        rows = self.store.query("SELECT rowid, uid, gid, seed_commit FROM pulls")
        return {(uid, gid, commit): rowid for rowid, uid, gid, commit in rows}

    def number_of(self, play: Play) -> int:
        return self.numbers()[(play.table, play.gid, play.record["seed_commit"])]

    def game(self, number: int) -> Game:
        rows = self.store.query("SELECT uid, gid, seed_commit FROM pulls WHERE rowid = ?",
                                (number,)) if 0 < number < 1 << 63 else []  # SQLite's rowids
        row = rows[0] if rows else None
        play = None if row is None else next(
            (p for p in self.plays().plays
             if (p.table, p.gid, p.record["seed_commit"]) == tuple(row)), None)
        if play is None:
            known = sorted(self.numbers().values())
            raise NotFound(f"no game {number} in the store; its games are "
                           + (", ".join(map(str, known[:30])) if known else "none yet"))
        return Game(number, play, _check(str(self.store.path), self._version(), row))

    def wins_chartable(self) -> tuple[list[Play], str | None]:
        """The finished plays for the wins chart, or why it is not drawn: a
        line per player reads up to WINS_PLAYERS (seats nobody named are
        each their own player, so a long unnamed history has hundreds)."""
        plays = [p for p in self.plays().plays if p.finished]
        players = {name for p in plays for name in p.players}
        if not plays:
            return plays, "no finished game is stored yet"
        if len(players) > WINS_PLAYERS:
            return plays, (f"{len(players)} players are too many lines for one chart: name the "
                           "seats (catnip players name, catnip players merge) and it appears")
        return plays, None

    def high_scores(self) -> list[tuple[int, list[str], int]]:
        """The Colonnade of Competent Clowders over every stored Clowder game."""
        return stats.clowder_high_scores(self.plays().plays).ranked()

    def _version(self) -> tuple:
        """Changes whenever a game is pulled or a seat is named or merged."""
        q = self.store.query
        return (q("SELECT COUNT(*) FROM pulls")[0][0],
                tuple(q("SELECT * FROM seat_names ORDER BY session, seat")),
                tuple(q("SELECT * FROM aliases ORDER BY alias")))

    # ---- charts -------------------------------------------------------------------

    def chart(self, kind: str, plays: list[Play]) -> bytes:
        """`catnip chart KIND` of these plays as PNG bytes."""
        key = (kind, tuple((p.table, p.gid, p.record["seed_commit"]) for p in plays),
               self._version())
        with _lock:
            png = _charts.get(key)
            if png is None:
                with tempfile.TemporaryDirectory(prefix="catnip-chart-") as folder:
                    path = Path(folder) / "chart.png"
                    charts.draw(_series(kind, plays), path)  # boxes for missing glyphs, as catnip chart
                    png = path.read_bytes()
                while len(_charts) >= CHARTS_KEPT:
                    del _charts[next(iter(_charts))]  # the oldest drawn goes first
                _charts[key] = png
        return png


def _series(kind: str, plays: list[Play]) -> list[charts.Series]:
    if kind == "wins":
        return [charts.wins_over_time(plays)]
    one = charts.scores_by_round if kind == "scores" else charts.tower_by_turn
    return [one(p) for p in plays]


_lock = threading.RLock()  # one rebuild of the plays, one matplotlib figure at a time
CHARTS_KEPT = 32
WINS_PLAYERS = 20
_charts: dict[tuple, bytes] = {}  # drawn PNGs, oldest first


@lru_cache(maxsize=1)
def _loaded(path: str, version: tuple) -> Loaded:
    with _lock:
        store = ReadOnlyStore(path)
        try:
            return records.load(store)
        finally:
            store.close()


@lru_cache(maxsize=16)
def _check(path: str, version: tuple, key: tuple) -> verify.Check:
    """The game's verification (its seed against the commitment, every move
    against the live announcements), as `catnip replay --verify` gives it."""
    store = ReadOnlyStore(path)
    try:
        games = verify.stored_games(store, key[0])
    finally:
        store.close()
    return verify.check(games[(key[1], key[2])])


def replay(play: Play) -> list[dict]:
    """The finished game move by move, as its record replays: who did what,
    the public events, the public state after it and every seat's score."""
    return [{"n": n, "player": player, "action": list(action), "events": events,
             "public": game.public(), "scores": records.standing(game)}
            for n, (player, action, events, game) in enumerate(records.steps(play), 1)]
