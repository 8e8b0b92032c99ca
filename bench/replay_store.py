"""A session store of finished games as the laptop keeps them, for the
replay --verify bench. Each game is played by the simulated table's players
(tests/shared/tablepolicy.py) over a mix of titles and table sizes; its rows
are the frames the table sends and the Keeper stores: "begin", a "snap" after
it and after every move's "act", "end", then the answers of the pull that
follows ("games", "game", every journal "entry" in pages, "acked").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "shared"), str(ROOT / "firmware")]

from catnip import rules, wire  # noqa: E402
from catnip_host.store import Store  # noqa: E402
from tablepolicy import choose  # noqa: E402

UID = "e6614c311b7d4a2f"
TITLES = (  # a title, its options at the table and the table sizes played
    ("heist", {"variant": "standard", "gems": "digital"}, (3, 4, 5, 6)),
    ("stack", {"mode": "composure", "black_cat": True, "draw": "digital"}, (2, 3, 4, 5)),
    ("purrfect", {"mode": "stations"}, (4, 5, 6, 7)),
)
PULL_PAGE = 24  # entries per "page", as catnip.link.remote answers a pull


class Frames:
    """The frames one table sends, numbered as its line numbers them."""

    def __init__(self) -> None:
        self.seq = 0
        self.re = 0
        self.rows: list[tuple[int, str, int | None, str]] = []  # (seq, kind, gid, raw)

    def send(self, kind: str, fields: dict) -> None:
        how = wire.MESSAGES[kind][0]  # numbered as catnip.link.line numbers them
        if how == wire.STREAMED:
            self.seq += 1
            seq = self.seq
        elif how == wire.PUSHED:
            seq = 0
        else:
            asked = kind in ("games", "game", "acked") or (  # a command's first answer
                kind == "entry" and fields["i"] > 0 and fields["i"] % PULL_PAGE == 0)
            self.re += asked
            fields = dict(fields, re=self.re)
            seq = 0
        raw = wire.encode(kind, seq, fields)[:-1].decode()
        self.rows.append((seq, kind, fields.get("gid"), raw))


def titles() -> list[str]:
    return [name for name, _, _ in TITLES]


def new_game(k: int):
    """Game number k + 1: the titles in turn, each at its table sizes in turn."""
    name, options, sizes = TITLES[k % len(TITLES)]
    players = sizes[k // len(TITLES) % len(sizes)]
    return rules.new(name, dict(options, players=players), "bench %d" % k)


def moves(game) -> list[tuple[int, tuple]]:
    """The moves the table's players make in `game`, played to its end."""
    done = []
    while game.result() is None:
        seat, action = choose(game, game.NAME)
        game.act(seat, action)
        done.append((seat, action))
    return done


class Played:
    """One game as the table sent it: (kind, fields) from "begin" to "acked"."""

    def __init__(self, k: int) -> None:
        game = new_game(k)
        self.name, self.moves, self.seed_commit = game.NAME, 0, game.seed_commit
        self.frames: list[tuple[str, dict]] = []
        gid, commit = k + 1, game.seed_commit[:wire.COMMIT_ID]  # as the table names its game
        send = self._send
        send("begin", gid=gid, header=game.header(), seats=list(range(game.players())), moves=0)
        send("snap", gid=gid, game=self.name, public=game.public())
        entries = []
        while game.result() is None:
            seat, action = choose(game, self.name)
            events = game.act(seat, action)
            entries.append(["action", seat, list(action)])
            send("act", gid=gid, commit=commit, n=len(game.log), events=events)
            send("snap", gid=gid, game=self.name, public=game.public())
        self.moves = len(game.log)
        entries.append(["end", game.result()])
        send("end", gid=gid, commit=commit, result=game.result())
        send("games", games=[[gid, "finished"]])
        header = game.journal()
        del header["log"]
        send("game", gid=gid, status="finished", header=header)
        for i, entry in enumerate(entries):
            send("entry", gid=gid, i=i, e=entry)
            if (i + 1) % PULL_PAGE == 0 or i + 1 == len(entries):
                send("page", gid=gid, next=i + 1, done=i + 1 == len(entries))
        send("acked", gid=gid)

    def _send(self, kind: str, **fields) -> None:
        self.frames.append((kind, json.loads(json.dumps(fields))))


def play(games: int) -> list[Played]:
    return [Played(k) for k in range(games)]


def build(path: Path, games: list[Played]) -> tuple[int, int]:
    """A store at `path` of one session in which the table sent `games`;
    (the session, the moves played)."""
    store = Store(path)
    sid = store.session(UID, "b0071e", "direct", "0.1.0")
    out, pulls = Frames(), []
    for game in games:
        begun = len(out.rows)
        for kind, fields in game.frames:
            out.send(kind, fields)
        kinds = [row[1] for row in out.rows[begun:]]
        first, last = begun + kinds.index("game"), len(out.rows) - 2  # "game" to the last "page"
        pulls.append((first, last, out.rows[begun][2], game.seed_commit))
    store.db.execute("BEGIN")
    base = store.db.execute("SELECT COALESCE(MAX(id), 0) FROM frames").fetchone()[0] + 1
    store.db.executemany(
        "INSERT INTO frames (session, at, seq, kind, gid, raw) VALUES (?, ?, ?, ?, ?, ?)",
        ((sid, 0.0, seq, kind, gid, raw) for seq, kind, gid, raw in out.rows))
    store.db.executemany(
        "INSERT INTO pulls (uid, gid, seed_commit, session, first_frame, last_frame, at) "
        "VALUES (?, ?, ?, ?, ?, ?, 0)",
        ((UID, gid, commit, sid, base + first, base + last)
         for first, last, gid, commit in pulls))
    store.db.execute("COMMIT")
    store.close()
    return sid, sum(g.moves for g in games)

