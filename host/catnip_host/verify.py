"""Replay and verify: rebuild each game from its revealed seed and moves with
the shared rules (catnip.rules), check the seed against the commitment the
table sent when the game began, and compare every move's events with what the
table announced live, naming the first move that disagrees.

A game's frames: "begin" (its public header: the seed's commitment), "act"
(the events of move n, as announced), "end" (the result), all live; then,
pulled from the journal once it ended, "game" (the header with the seed
revealed) and one "entry" per journal record.

Besides the moves, a check binds the pulled game to the live one: the
header pulled must be the one announced when the game began (its
commitment, its config, who sat where), its status must be what the moves
give (finished only with a result the rules reach), the pulled entries must
be whole and in order, and the table's stream frames must follow each other
without a hole that no "gap" accounts for. A frame whose CRC fails or whose
fields are not what its kind needs (catnip.wire.MESSAGES) is named; such a
record is never "verified".

A store of a thousand games holds hundreds of thousands of these frames. The
moves' frames ("act", "entry") are kept as the bytes stored until their game
is checked, then parsed in one go: only one game's frames are ever alive as
Python objects, and a call per frame would cost more than the parsing.
"""

from __future__ import annotations

import gc
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from catnip import rules, wire
from catnip.rules.engine import RuleError
from catnip_host.results import common, in_events
from catnip_host.store import explained, fields_of, frame_fields

VERIFIED, DISAGREES, UNVERIFIABLE = 0, 1, 3  # exit statuses
# The frames a check reads: a game's own, and those that tell of the stream
# (every numbered kind, the gaps) and of its pull (its last page, the ack).
STREAM_KINDS = tuple(k for k, (how, _) in wire.MESSAGES.items() if how == wire.STREAMED)
KINDS = tuple(dict.fromkeys(("begin", "act", "end", "game", "entry", "page", "acked", "gap",
                             "bad") + STREAM_KINDS))  # "bad": a malformed frame, as it came
PUBLIC_ONLY = ("seed", "salt")  # what the pulled header adds to the one sent live
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
    status: str | None = None  # pulled: "finished", "abandoned", "pulled" or "broken"
    began: float | None = None  # when the laptop first heard of it (Unix time)
    ended: float | None = None  # when its end was announced live
    live_headers: list[tuple[dict, list]] = field(default_factory=list)  # (header, seats) begun
    page: dict | None = None  # the pull's last "page"
    acked: bool = False  # the laptop told the table it had stored the game
    problems: list[str] = field(default_factory=list)  # its frames that are not right
    live_in: int | None = None  # the power-up it was last begun (or resumed) in, live
    pulled_in: int | None = None  # the power-up it was pulled in
    gapless: bool = False  # that power-up lost no frames (a check follows the stream)

    def journal(self) -> list[list]:
        """The pulled journal's entries: ["action", player, action],
        ["note", {...}] or ["end", result]."""
        return [f["e"] for f in _parsed(self.entries)]


@dataclass
class Check:
    gid: int | None  # None: the frames of the session or file, not one game's
    name: str
    status: int
    moves: int = 0
    compared: int = 0
    unseen: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.gid is None:
            return f"the frames themselves: {'DOES NOT VERIFY' if self.status else 'verified'}"
        title = rules.TITLES.get(self.name, self.name)
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


def gather(frames: Iterable[Stored], stray: list[str] | None = None
           ) -> dict[tuple[int, str], Game]:
    """Games from frames (session, kind, gid, the frame, when it was stored)
    in the order they arrived. With `stray` given (a check), every frame
    but the acts and entries is decoded again (CRC and fields; those two, most
    of a store, are checked a game at a time), the table's stream numbers are
    followed for holes, and what is wrong with a frame lands on its game's
    problems, or in `stray` when it belongs to none."""
    games: dict[tuple[int, str], Game] = {}
    current: dict[tuple[int, int], tuple[int, str]] = {}  # (session, gid) -> game key
    pulling: Game | None = None
    follow = _Stream(games, current, stray) if stray is not None else None
    last = follow.last if follow is not None else {}  # session -> newest stream number
    for session, kind, gid, raw, at in frames:  # the commonest kinds first
        if kind == "act":
            if follow is not None:  # its number only, inline: most of a store is acts
                try:
                    seq = int(raw[4:raw.index(b" ", 4)])
                except ValueError:
                    follow.damaged(session, gid)
                    continue
                if seq == last.get(session, 0) + 1:
                    last[session] = seq
                else:
                    follow.numbered(session, gid, seq)
            key = current.get((session, gid))
            if key is not None:  # else its begin was lost in a gap: nothing to pin it to
                games[key].acts.append(raw)
        elif kind == "entry":  # its number and fields are checked with its game's
            if pulling is not None and pulling.gid == gid:
                pulling.entries.append(raw)
        elif follow is not None and not follow.sound(session, kind, gid, raw):
            continue
        elif kind in ("begin", "game"):
            f = orjson.loads(frame_fields(raw))
            h = f["header"]
            key = (f["gid"], str(h.get("seed_commit")))
            g = games.setdefault(key, Game(f["gid"], key[1], h.get("game", "?")))
            g.sessions.add(session)
            g.began = at if g.began is None else g.began
            if kind == "begin":
                current[(session, f["gid"])] = key
                g.live_in = session
                g.live_from = f.get("moves", 0) + 1 if g.live_from is None else g.live_from
                g.live_headers.append((dict(h, names=f["names"]) if f.get("names") else h,
                                       f.get("seats")))
            else:
                g.header, g.entries, g.page, pulling = h, [], None, g
                g.status, g.pulled_in = f.get("status"), session
                g.gapless = follow is not None and session not in follow.gapped
        elif kind == "end":
            key = current.get((session, gid))
            if key is not None:
                games[key].live_result = orjson.loads(frame_fields(raw))["result"]
                games[key].ended = at
        elif kind == "page":
            if pulling is not None and pulling.gid == gid:
                pulling.page = orjson.loads(frame_fields(raw))
        elif kind == "acked":  # the game begun in this power-up, else the newest of that number
            key = current.get((session, gid)) or next(
                (k for k in reversed(games) if k[0] == gid), None)
            if key is not None:
                games[key].acked = True
    return games


class _Stream:
    """Follows a check's frames as they come: a frame whose CRC fails or
    whose fields do not fit its kind is named and left out; the stream
    numbers of each power-up must go up by one, bar the gaps it reported."""

    def __init__(self, games: dict, current: dict, stray: list[str]) -> None:
        self.games, self.current, self.stray = games, current, stray
        self.last: dict[int, int] = {}  # session -> its newest stream number
        self.gapped: set[int] = set()  # sessions with frames lost (a gap, a hole)

    def sound(self, session: int, kind: str, gid: int | None, raw: bytes) -> bool:
        raw = raw.rstrip(b"\r\n")
        try:
            seq, kind_sent, fields = wire.decode(raw)
        except wire.WireError as e:
            self._say(session, gid, f"a stored {kind} frame is damaged ({e})")
            return False
        if kind == "bad":  # the Keeper kept it so, as it came
            why = wire.message(seq, kind_sent, fields) or "it was not expected there"
        else:
            why = wire.message(seq, kind_sent, fields) if kind_sent == kind else \
                f"it is stored as {kind} but is a {kind_sent} frame"
        if why is not None:
            self._say(session, gid, f"a stored {kind_sent} frame is malformed ({why})")
            if seq:
                self.last[session] = max(seq, self.last.get(session, 0))
            return False
        if kind == "gap":
            self.gapped.add(session)
            self.last[session] = max(self.last.get(session, 0), fields["last"])
        return self.numbered(session, gid, seq)

    def damaged(self, session: int, gid: int | None) -> None:
        self._say(session, gid, "a stored act frame is damaged (its number does not read)")

    def numbered(self, session: int, gid: int | None, seq: int) -> bool:
        """A stream frame must follow the one before it."""
        last = self.last.get(session, 0)
        if seq:
            if seq != last + 1:
                self.gapped.add(session)
                self._say(session, gid, f"the table's frame {seq} follows its frame {last}: "
                          + (f"frames {last + 1}-{seq - 1} are missing and no gap says so"
                             if seq > last + 1 else "frames were removed, repeated or reordered"))
            self.last[session] = max(seq, last)
        return True

    def _say(self, session: int, gid: int | None, why: str) -> None:
        key = self.current.get((session, gid)) if type(gid) is int else None
        if key is not None:
            self.games[key].problems.append(why)
        else:
            self.stray.append(why)


def _parsed(frames: list[bytes]) -> list[dict]:
    """Many frames' fields parsed in one call (orjson builds the same objects in
    some two thirds of the time the standard library's json takes)."""
    # frame_fields(), inlined: a call per frame would cost a tenth of the parsing.
    fields = [f.rstrip(b"\r\n")[f.find(b"{"):-9] for f in frames]
    return orjson.loads(b"[" + b",".join(fields) + b"]")


def check(g: Game) -> Check:
    """One game's verdict; a frame not shaped as its kind needs makes it
    "does not verify", named, never an exception."""
    c = Check(g.gid, g.name, VERIFIED)
    for why in g.problems:
        _fail(c, why)
    try:
        return _check(g, c)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as e:
        return _fail(c, f"its record is malformed and cannot be checked ({_malformed(g) or e})")


def _malformed(g: Game) -> str | None:
    """What is wrong with the first act or entry frame of `g` that does not
    fit its kind."""
    for kind, frames in (("act", g.acts), ("entry", g.entries)):
        for i, f in enumerate(_parsed(frames)):
            why = wire.fields_problem(kind, f)
            if why is not None:
                return f"{kind} frame {i + 1}: {why}"
    return None


def _check(g: Game, c: Check) -> Check:
    acts = _parsed(g.acts)
    if any(type(f.get("n")) is not int or type(f.get("events")) is not list for f in acts):
        return _fail(c, f"its record is malformed and cannot be checked ({_malformed(g)})")
    announced = {f["n"]: f["events"] for f in acts}  # move n -> events, latest kept
    if g.header is None:
        if g.acked and g.live_headers:
            return _fail(c, "the laptop acknowledged storing it, but its pulled record is "
                            "missing: it was removed")
        c.status = max(c.status, UNVERIFIABLE)
        c.problems.append("its seed and moves have not been pulled from the table yet (still in "
                          "play, or the table has not been connected since it ended)")
        c.unseen = len(announced)
        return c
    h = g.header
    if not seed_matches(g.seed_commit, h):
        return _fail(c, "the revealed seed does not match the commitment sent when the game "
                        "began: the record was altered or belongs to another game")
    for live, seats in g.live_headers:
        _bound(c, h, live, seats)
    try:
        game = rebuild(h)
    except (RuleError, ValueError, KeyError, TypeError) as e:
        return _fail(c, f"the game cannot be set up from its header: {e}")
    pulled = _parsed(g.entries)
    if any(type(f.get("i")) is not int or type(f.get("e")) is not list or not f["e"]
           for f in pulled):
        return _fail(c, f"its record is malformed and cannot be checked ({_malformed(g)})")
    journal = [f["e"] for f in pulled]
    _whole(c, g, [f["i"] for f in pulled])
    result = None
    act, n, compared, first_wrong = game.act, 0, 0, None
    for entry in journal:
        if entry[0] != "action":
            if entry[0] == "end":
                result = common(entry[1])  # as an older table may have shaped it
            elif entry[0] != "note":
                _fail(c, f"entry {n + 1} is of no kind a journal holds: {entry[0]!r:.40}")
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
        if live != events and first_wrong is None and live != (events := _plain(events)) \
                and (live := in_events(live)) != events:  # an older table's result shape
            first_wrong = f"move {n} ({_move(entry)}) disagrees: {_first_difference(live, events)}"
    c.moves, c.compared, c.unseen = n, compared, n - compared
    if first_wrong is not None:
        _fail(c, first_wrong)
    extra = sorted(k for k in announced if k > c.moves)
    if extra:
        _fail(c, f"the table announced move {extra[0]} but the journal holds {c.moves} moves")
    final = _plain(game.result())  # the journal's and the live result were read from JSON too
    live_result = common(g.live_result)
    if result is not None and result != final:
        _fail(c, f"the journal's result {result} is not the rules' {final}")
    if live_result is not None and live_result != final:
        _fail(c, f"the result announced live {g.live_result} is not the rules' {final}")
    if g.live_result is None and final is not None and g.gapless and g.live_in == g.pulled_in:
        _fail(c, "it ended while the laptop listened, but its end announced live is missing "
                 "from the frames")
    _status(c, g, result, final)
    return c


def _bound(c: Check, pulled: dict, live: dict, seats: list | None) -> None:
    """The pulled header is the one announced when the game began: every
    field sent live, and who sat where."""
    for name in sorted(live):
        if name in PUBLIC_ONLY:
            continue
        if pulled.get(name) != live[name]:
            _fail(c, f"the pulled header's {name} {_short(pulled.get(name))} is not the "
                     f"{_short(live.get(name))} announced when the game began")
    if "seats" in pulled and seats is not None and pulled["seats"] != seats:
        _fail(c, f"the pulled game seats {pulled['seats']}, but it began live with {seats}")


def _whole(c: Check, g: Game, numbers: list[int]) -> None:
    """The pulled entries (their numbers) are all there, in order, as the
    pull's last page says, and a damaged game says it is incomplete."""
    if numbers != list(range(len(numbers))):
        wrong = next(k for k, i in enumerate(numbers) if i != k)
        _fail(c, f"the pulled entries are not whole and in order: entry {wrong} is "
                 f"numbered {numbers[wrong]}")
    if g.page is not None and (not g.page["done"] or g.page["next"] != len(numbers)):
        _fail(c, f"the pull ended at entry {g.page['next']}, but {len(numbers)} entries are "
                 "stored")
    if g.status == "broken":
        c.status = max(c.status, UNVERIFIABLE)
        c.problems.append(f"its journal was damaged on the table: the {len(numbers)} entries "
                          "read before the damage are checked, the rest is lost")


def _status(c: Check, g: Game, result: object, final: object) -> None:
    """The status pulled is what the moves give."""
    if g.status == "record":  # a rules record: no journal, only its flag
        if g.header.get("finished") is True and final is None:
            _fail(c, "the record says it finished, but the rules say it is not over")
    elif g.status == "finished" and (result is None or final is None):
        _fail(c, "it was pulled as finished, but " + (
            "its journal has no end" if result is None else "the rules say it is not over"))
    elif g.status == "abandoned" and (result is not None or final is not None):
        _fail(c, "it was pulled as abandoned, but it ended: the rules give its result")
    elif g.status not in ("finished", "abandoned", "pulled", "broken"):
        _fail(c, f"it was pulled with a status no journal gives: {g.status!r:.40}")


def _short(x: object) -> str:
    text = json.dumps(x, sort_keys=True)
    return text[:60] + ("..." if len(text) > 60 else "")


def _move(entry: list) -> str:
    return f"player {entry[1] + 1}, {tuple(entry[2])}"


def _fail(c: Check, why: str) -> Check:
    c.status = DISAGREES
    if why not in c.problems:
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


def exit_status(checks: list[Check]) -> int:
    """DISAGREES when any game disagrees, whatever else cannot be verified
    yet; else the worst of the rest."""
    statuses = {c.status for c in checks}
    return DISAGREES if DISAGREES in statuses else max(statuses, default=VERIFIED)


def from_store(store, session: int) -> list[Check]:
    """Every game begun or pulled in `session` (with its live frames from every
    power-up of that table, for a game resumed after a power cut)."""
    with _collector_paused():
        stray: list[str] = []
        games = stored_games(store, store.uid(session), KINDS, stray)
        return _frames_check(stray) + [check(g) for key, g in sorted(_paired(games).items())
                                       if session in g.sessions]


def stored_games(store, uid: str, kinds: tuple[str, ...] = KINDS,
                 stray: list[str] | None = None) -> dict[tuple[int, str], Game]:
    """Every game of one table the store holds, by (gid, seed_commit), from
    the frames of these kinds (leave out "act" when the live events are not
    needed); `stray` as gather() takes it."""
    try:
        return gather(store.game_frames(uid, kinds), stray)
    except sqlite3.Error as e:  # a page of the store that does not read
        raise explained(e, store.path) from e


def from_file(path: Path) -> list[Check]:
    """A file of wire frames (a capture, or `catnip sessions show ID --raw`),
    or a JSON record (rules' record(): header, seed and packed log)."""
    data = path.read_bytes()
    if data.lstrip()[:1] == b"{":
        try:
            record = wire.loads(data)
        except ValueError as e:
            raise ValueError(f"{path} is not a game record: {e}") from None
        return [_check_record(record)]
    items = wire.Reader().feed(data + b"\n")
    frames = [(0, i[2], i[3].get("gid"), i[4], None) for i in items if i[0] == "frame"]
    damaged = [i for i in items if i[0] == "bad"]
    if not frames and not damaged:
        raise ValueError(f"{path} holds no catnip frames and is not a JSON record")
    stray = [f"{len(damaged)} of its frames are damaged (the first: {damaged[0][1]}), so what "
             "they said cannot be checked"] if damaged else []
    with _collector_paused():
        games = gather(frames, stray)
        return _frames_check(stray) + [check(g) for key, g in sorted(_paired(games).items())]


def _frames_check(stray: list[str]) -> list[Check]:
    """The problems that belong to no one game, as a check of their own."""
    return [Check(None, "", DISAGREES, problems=stray)] if stray else []


def _paired(games: dict[tuple[int, str], Game]) -> dict[tuple[int, str], Game]:
    """A game announced live but never pulled and a game of the same number
    pulled without ever being announced are one game whose commitment was
    changed on one side (or the journal was erased and its numbers began
    again): they are checked as one, and do not verify."""
    live = {g.gid: key for key, g in games.items() if g.header is None and g.live_headers}
    for key, g in list(games.items()):
        other = live.get(g.gid)
        if g.header is not None and not g.live_headers and other is not None:
            began = games.pop(other)
            g.live_headers, g.acts, g.live_result = began.live_headers, began.acts, \
                began.live_result
            g.sessions |= began.sessions
            g.problems.append(f"it was announced with the commitment {began.seed_commit[:16]} "
                              f"when it began, but pulled with {g.seed_commit[:16]}: the "
                              "record was altered (or the table's journal was erased and its "
                              "game numbers began again)")
            del live[g.gid]
    return games


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

    if not isinstance(record, dict):
        raise ValueError("not a game record: it is not a JSON object")
    try:
        log = Log.unpack(record["log"])
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise ValueError(f"not a game record: {e}") from e
    g = Game(0, str(record.get("seed_commit")), record.get("game", "?"), header=record,
             status="record")
    g.entries = [wire.encode("entry", 0, {"i": i, "e": ["action", p, list(a)]})[:-1]
                 for i, (p, a) in enumerate(log)]
    return check(g)
