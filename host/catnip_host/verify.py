"""Replay and verify: rebuild each game from its revealed seed and moves with
the shared rules (catnip.rules), check the seed against the commitment the
table sent when the game began, and compare every move's events with what the
table announced live, naming the first move that disagrees.

A game's frames: "begin" (its public header: the seed's commitment), "act"
(the events of move n, as announced), "end" (the result), all live; then,
pulled from the journal once it ended, "game" (the header with the seed
revealed) and one "entry" per journal record.

A store of a thousand games holds hundreds of thousands of these frames. The
moves' frames ("act", "entry") are kept as the bytes stored until their game
is checked, then parsed in one go: only one game's frames are ever alive as
Python objects, and a call per frame would cost more than the parsing.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from catnip import rules, wire
from catnip.rules.engine import RuleError

VERIFIED, DISAGREES, UNVERIFIABLE = 0, 1, 3  # exit statuses
KINDS = ("begin", "act", "end", "game", "entry")  # the frames a check reads
# A stored frame as a check reads it: (session, kind, gid, the frame's bytes,
# when the laptop stored it).
Stored = tuple[int, str, int | None, bytes, float]


@dataclass
class Game:
    """Everything known of one game (gid, seed_commit)."""

    gid: int
    seed_commit: str
    name: str = "?"
    acts: list[bytes] = field(default_factory=list)  # "act" frames, as they came
    live_from: int | None = None  # the first move announced live
    live_result: dict | None = None
    header: dict | None = None  # pulled: the header with the seed
    entries: list[bytes] = field(default_factory=list)  # "entry" frames, in order
    sessions: set[int] = field(default_factory=set)  # where its frames were stored
    status: str | None = None  # pulled: "finished" or "abandoned"
    began: float | None = None  # when the laptop first heard of it (Unix time)
    ended: float | None = None  # when its end was announced live

    def journal(self) -> list[list]:
        """The pulled journal's entries: ["action", player, action],
        ["note", {...}] or ["end", result]."""
        return [f["e"] for f in _parsed(self.entries)]


@dataclass
class Check:
    gid: int
    name: str
    status: int
    moves: int = 0
    compared: int = 0
    unseen: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        title = {"heist": "Meow Heist", "stack": "Stack O' Cats", "purrfect": "Purrfect"}.get(
            self.name, self.name)
        verdict = {VERIFIED: "verified", DISAGREES: "DOES NOT VERIFY",
                   UNVERIFIABLE: "cannot be verified yet"}[self.status]
        seen = f"{self.compared} of {self.moves} moves compared with the live announcements"
        if self.moves and not self.compared:
            seen = (f"{self.moves} moves replayed; none was seen live (played while no laptop "
                    "listened): checked against its commitment and the rules")
        elif self.unseen:
            seen += f" ({self.unseen} not seen live)"
        return f"game {self.gid} ({title}): {verdict}; {seen}"


def seed_matches(commitment: str, header: dict) -> bool:
    """Whether the revealed seed (and salt, where the rules use one) gives
    the commitment sent at the start: the one place this is decided."""
    from catnip.rules import rng

    if "salt" in header:
        return rng.commit(header["seed"], header["salt"]) == commitment
    return rng.commit(header["seed"]) == commitment


def rebuild(header: dict):
    """The game a revealed header starts, before its first move."""
    cls = rules.game_class(header["game"])
    if "salt" in header:
        return cls(header["config"], header["seed"], header["salt"])
    return cls(header["config"], header["seed"])


def gather(frames: Iterable[Stored]) -> dict[tuple[int, str], Game]:
    """Games from frames (session, kind, gid, the frame, when it was stored)
    in the order they arrived."""
    games: dict[tuple[int, str], Game] = {}
    current: dict[tuple[int, int], tuple[int, str]] = {}  # (session, gid) -> game key
    pulling: Game | None = None
    for session, kind, gid, raw, at in frames:  # the commonest kinds first
        if kind == "act":
            key = current.get((session, gid))
            if key is not None:  # else its begin was lost in a gap: nothing to pin it to
                games[key].acts.append(raw)
        elif kind == "entry":
            if pulling is not None and pulling.gid == gid:
                pulling.entries.append(raw)
        elif kind in ("begin", "game"):
            f = orjson.loads(_fields(raw))
            h = f["header"]
            key = (f["gid"], str(h.get("seed_commit")))
            g = games.setdefault(key, Game(f["gid"], key[1], h.get("game", "?")))
            g.sessions.add(session)
            g.began = at if g.began is None else g.began
            if kind == "begin":
                current[(session, f["gid"])] = key
                g.live_from = f.get("moves", 0) + 1 if g.live_from is None else g.live_from
            else:
                g.header, g.entries, pulling = h, [], g
                g.status = f.get("status")
        elif kind == "end":
            key = current.get((session, gid))
            if key is not None:
                games[key].live_result = orjson.loads(_fields(raw))["result"]
                games[key].ended = at
    return games


def _parsed(frames: list[bytes]) -> list[dict]:
    """Many frames' fields parsed in one call (orjson builds the same objects in
    some two thirds of the time the standard library's json takes)."""
    # _fields(), inlined: a call per frame would cost a tenth of the parsing.
    fields = [f.rstrip(b"\r\n")[f.find(b"{"):-9] for f in frames]
    return orjson.loads(b"[" + b",".join(fields) + b"]")


def check(g: Game) -> Check:
    c = Check(g.gid, g.name, VERIFIED)
    announced = {f["n"]: f["events"] for f in _parsed(g.acts)}  # move n -> events, latest kept
    if g.header is None:
        c.status = UNVERIFIABLE
        c.problems.append("its seed and moves have not been pulled from the table yet (still in "
                          "play, or the table has not been connected since it ended)")
        c.unseen = len(announced)
        return c
    h = g.header
    if not seed_matches(g.seed_commit, h):
        return _fail(c, "the revealed seed does not match the commitment sent when the game "
                        "began: the record was altered or belongs to another game")
    try:
        game = rebuild(h)
    except (RuleError, ValueError, KeyError, TypeError) as e:
        return _fail(c, f"the game cannot be set up from its header: {e}")
    result = None
    act, n, compared, first_wrong = game.act, 0, 0, None
    for entry in [f["e"] for f in _parsed(g.entries)]:
        if entry[0] != "action":
            if entry[0] == "end":
                result = entry[1]
            continue  # else a tray note: not part of the rules' state
        n += 1
        try:
            events = act(entry[1], tuple(entry[2]))
        except RuleError as e:
            c.moves, c.compared, c.unseen = n, compared, n - 1 - compared
            return _fail(c, f"move {n} ({_move(entry)}) is refused by the rules: {e}")
        live = announced.get(n)
        if live is None:
            continue
        compared += 1
        if live != events and first_wrong is None and live != (events := _plain(events)):
            first_wrong = f"move {n} ({_move(entry)}) disagrees: {_first_difference(live, events)}"
    c.moves, c.compared, c.unseen = n, compared, n - compared
    if first_wrong is not None:
        _fail(c, first_wrong)
    extra = sorted(k for k in announced if k > c.moves)
    if extra:
        _fail(c, f"the table announced move {extra[0]} but the journal holds {c.moves} moves")
    final = _plain(game.result())  # the journal's and the live result were read from JSON too
    if result is not None and result != final:
        _fail(c, f"the journal's result {result} is not the rules' {final}")
    if g.live_result is not None and g.live_result != final:
        _fail(c, f"the result announced live {g.live_result} is not the rules' {final}")
    return c


def _move(entry: list) -> str:
    return f"player {entry[1] + 1}, {tuple(entry[2])}"


def _fail(c: Check, why: str) -> Check:
    c.status = DISAGREES
    c.problems.append(why)
    return c


def _plain(x):
    """As it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(x))


def _first_difference(live: list, rules_say: list) -> str:
    for i in range(max(len(live), len(rules_say))):
        a = live[i] if i < len(live) else "(nothing)"
        b = rules_say[i] if i < len(rules_say) else "(nothing)"
        if a != b:
            return f"event {i + 1}: the table announced {a}, the rules give {b}"
    return "the events differ"


# ---- sources ------------------------------------------------------------------------


def from_store(store, session: int) -> list[Check]:
    """Every game begun or pulled in `session` (with its live frames from every
    power-up of that table, for a game resumed after a power cut)."""
    with _collector_paused():
        games = stored_games(store, store.uid(session))
        return [check(g) for key, g in sorted(games.items()) if session in g.sessions]


def stored_games(store, uid: str, kinds: tuple[str, ...] = KINDS) -> dict[tuple[int, str], Game]:
    """Every game of one table the store holds, by (gid, seed_commit), from
    the frames of these kinds (leave out "act" when the live events are not
    needed)."""
    return gather(store.game_frames(uid, kinds))


def from_file(path: Path) -> list[Check]:
    """A file of wire frames (a capture, or `catnip sessions show ID --raw`),
    or a JSON record (rules' record(): header, seed and packed log)."""
    data = path.read_bytes()
    if data.lstrip()[:1] == b"{":
        return [_check_record(json.loads(data))]
    items = wire.Reader().feed(data + b"\n")
    frames = [(0, i[2], i[3].get("gid"), i[4], None) for i in items if i[0] == "frame"]
    if not frames:
        raise ValueError(f"{path} holds no catnip frames and is not a JSON record")
    with _collector_paused():
        return [check(g) for key, g in sorted(gather(frames).items())]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Checking a store builds millions of short-lived lists and dicts (the
    parsed frames, the rules' events), none in a reference cycle: reference
    counting frees each as its game is done, and the cyclic collector would
    only walk them, for an eighth of the time. It runs again afterwards."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _check_record(record: dict) -> Check:
    from catnip.rules.log import Log

    try:
        log = Log.unpack(record["log"])
    except (KeyError, ValueError) as e:
        raise ValueError(f"not a game record: {e}") from e
    g = Game(0, str(record.get("seed_commit")), record.get("game", "?"), header=record)
    g.entries = [wire.encode("entry", 0, {"e": ["action", p, list(a)]})[:-1] for p, a in log]
    return check(g)


def fields_of(frame: bytes | str) -> dict:
    """A stored frame's fields, parsed."""
    return orjson.loads(_fields(frame.encode() if isinstance(frame, str) else frame))


def _fields(frame: bytes) -> bytes:
    """A frame's fields as JSON: from the "{" after its kind to its CRC (which
    was checked when it arrived)."""
    return frame.rstrip(b"\r\n")[frame.find(b"{"):-9]
