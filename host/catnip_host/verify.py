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
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from catnip import wire
from catnip_host import readable
from catnip_host.game_frames import KINDS, Game, gather
from catnip_host.replay import DISAGREES, UNVERIFIABLE, VERIFIED, Check, check
from catnip_host.store_errors import explained

__all__ = ["DISAGREES", "KINDS", "UNVERIFIABLE", "VERIFIED", "Check", "Game", "check",
           "exit_status", "from_file", "from_store", "gather", "stored_games"]


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
        uid = store.uid(session)
        games = stored_games(store, uid, KINDS, stray)
        from catnip_host.signatures import pinned_key, sealed

        key, problem = pinned_key(store, uid)  # the table's signatures checked too
        stray += [problem] if problem is not None else []
        return _frames_check(stray) + [sealed(check(g), g, uid, key)
                                       for _, g in sorted(_paired(games).items())
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
            record = readable.load_file(data)
        except ValueError as e:
            raise ValueError(f"{path} is not a game record: {e}") from None
        return [_check_record(record)]
    items = readable.reader().feed(data + b"\n")
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


def _check_record(record: object) -> Check:
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
