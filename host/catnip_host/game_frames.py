"""A table's stored frames gathered into its games: which begin, acts, end,
pulled header and entries belong to which game (by number and seed
commitment), and, for a check, whether each frame decodes and the stream
numbers follow each other without a hole that no "gap" accounts for.

The moves' frames ("act", "entry") are kept as the bytes stored; parsed()
reads one game's worth in one call when the game is checked. They come in
runs (one game's, in a row), and a run is filed, its acts' stream numbers
compared, in one go. A pull's pages are read a game at a time too, the last
one kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat
from zlib import crc32

import orjson

from catnip import wire
from catnip_host import kinds, readable
from catnip_host.store import frame_fields

# The frames a check reads: a game's own, and those that tell of the stream
# (every numbered kind, the gaps) and of its pull (its last page, the ack).
STREAM_KINDS = tuple(k for k, (how, _) in wire.MESSAGES.items() if how == wire.STREAMED)
KINDS = tuple(dict.fromkeys(("begin", "act", "end", "game", "entry", "page", "acked", "gap",
                             "bad") + STREAM_KINDS))  # "bad": a malformed frame, as it came
# The kinds whose fields gather() reads from every frame.
READ = (wire.BEGIN, wire.GAME, wire.END)
# A stored frame as a check reads it: (session, kind, gid, the frame's bytes,
# when the laptop stored it: None for frames read from a file).
Stored = tuple[int, str, int | None, bytes, float | None]
# A sound page's bytes begin so, after the marker (its stream number is 0).
_PAGE_HEAD = b"%d 0 page {" % wire.VERSION


@dataclass
class Game:
    """Everything known of one game (gid, seed_commit)."""

    gid: int
    seed_commit: str
    name: str = "?"
    acts: list[bytes] = field(default_factory=list)  # "act" frames, as they came
    live_from: int | None = None  # the first move announced live
    live_result: dict | None = None
    live_signs: bool = False  # its live end said the table would sign it
    header: dict | None = None  # pulled: the header with the seed
    entries: list[bytes] = field(default_factory=list)  # "entry" frames, in order
    sessions: set[int] = field(default_factory=set)  # where its frames were stored
    status: str | None = None  # pulled: "finished", "abandoned", "pulled" or "broken"
    began: float | None = None  # when the laptop first heard of it (Unix time)
    ended: float | None = None  # when its end was announced live
    live_headers: list[tuple[dict, list | None]] = field(default_factory=list)  # (header, seats)
    pages: list[bytes] = field(default_factory=list)  # the pull's "page" frames, in order
    page: dict | None = None  # the last of them, read
    acked: bool = False  # the laptop told the table it had stored the game
    problems: list[str] = field(default_factory=list)  # its frames that are not right
    live_in: int | None = None  # the power-up it was last begun (or resumed) in, live
    live_since: int | None = None  # the first move announced in that power-up
    pulled_in: int | None = None  # the power-up it was pulled in
    gapless: bool = False  # that power-up lost no frames (a check follows the stream)

    def journal(self) -> list[list]:
        """The pulled journal's entries: ["action", player, action],
        ["note", {...}] or ["end", result]."""
        return [f["e"] for f in parsed(self.entries)]


def gather(frames: Iterable[Stored], stray: list[str] | None = None
           ) -> dict[tuple[int, str], Game]:
    """Games from frames (session, kind, gid, the frame, when it was stored)
    in the order they arrived. With `stray` given (a check), every frame but
    the acts and entries is decoded again (CRC and fields; those two, most of
    a store, are checked a game at a time, and a pull's pages at its end), the
    table's stream numbers are followed for holes, and what is wrong with a
    frame lands on its game's problems, or in `stray` when it belongs to none."""
    games: dict[tuple[int, str], Game] = {}
    current: dict[tuple[int, int | None], tuple[int, str]] = {}  # (session, gid) -> game key
    pulling: Game | None = None
    # Acts (their bytes) and ends (their fields) with no begin.
    orphans: list[tuple[int, str, int | None, bytes | dict]] = []
    follow = _Stream(games, current, stray) if stray is not None else None

    def file(kind: str | None, session: int, gid: int | None, run: list[bytes]) -> None:
        """A run of acts or entries, one game's in a row in one power-up,
        filed with their game at once (an act's numbers followed at once in
        a check; an entry's are checked with its game's)."""
        if kind == wire.ENTRY:
            if pulling is not None and pulling.gid == gid:
                pulling.entries += run
            return
        if follow is not None:
            run = follow.acts(session, gid, run)
        key = current.get((session, gid))
        if key is not None:
            games[key].acts += run
        else:  # its begin was lost in a gap, or removed: pinned by its commitment
            orphans.extend((session, wire.ACT, gid, raw) for raw in run)

    # Most of a store is acts and entries, in runs: each costs three
    # compares and an append, and its run is filed at once.
    run: list[bytes] = []
    run_kind: str | None = None  # None: no run (a stored kind is never None)
    run_session = -1  # no power-up's number
    run_gid: int | None = None
    key: tuple[int, str] | None
    page = wire.PAGE
    for session, kind, gid, raw, at in frames:
        if kind == run_kind and gid == run_gid and session == run_session:
            run.append(raw)
            continue
        if run:  # any other frame ends the run: the frames before it are filed first
            file(run_kind, run_session, run_gid, run)
            run = []
        if kind == wire.ACT or kind == wire.ENTRY:
            run.append(raw)
            run_kind, run_session, run_gid = kind, session, gid
            continue
        run_kind = None
        if kind == page and pulling is not None and pulling.gid == gid:
            pulling.pages.append(raw)  # read at the end, the game's at once
        elif (f := follow.sound(session, kind, gid, raw) if follow is not None else
              _read(kind, raw) if kind in READ else {}) is None:
            continue  # stored damaged: a check names it (sound), the rest leave it out
        elif kind in (wire.BEGIN, wire.GAME):
            h = f["header"]
            key = (f["gid"], str(h.get("seed_commit")))
            g = games.setdefault(key, Game(f["gid"], key[1], h.get("game", "?")))
            g.sessions.add(session)
            g.began = at if g.began is None else g.began
            if kind == wire.BEGIN:
                current[(session, f["gid"])] = key
                g.live_in, g.live_since = session, f.get("moves", 0) + 1
                g.live_from = f.get("moves", 0) + 1 if g.live_from is None else g.live_from
                g.live_headers.append((dict(h, names=f["names"]) if f.get("names") else h,
                                       f.get("seats")))
            else:
                g.header, g.entries, g.pages, pulling = h, [], [], g
                g.status, g.pulled_in = f.get("status"), session
                g.gapless = follow is not None and session not in follow.gapped
        elif kind == wire.END:
            key = current.get((session, gid))
            if key is None:
                orphans.append((session, kind, gid, f))
            else:
                games[key].live_result, games[key].ended = f["result"], at
                games[key].live_signs = games[key].live_signs or f.get("signs") is True
                _same_game(games[key], f, "end")
        elif kind == wire.ACKED:  # the game begun in this power-up, else the newest of that number
            key = current.get((session, gid)) or next(
                (k for k in reversed(games) if k[0] == gid), None)
            if key is not None:
                games[key].acked = True
    if run:
        file(run_kind, run_session, run_gid, run)
    _pin(games, orphans, stray, follow.gapped if follow is not None else set())
    for g in games.values():
        if g.pages:
            g.page = follow.pages(g) if follow is not None else _read(page, g.pages[-1])
    return games


def _pin(games: dict[tuple[int, str], Game], orphans: list, stray: list[str] | None,
         gapped: set[int]) -> None:
    """Acts and ends whose begin is not in their power-up's frames, given to
    their game all the same, to be compared with its record: the one of their
    number whose commitment begins with theirs (a frame from before the table
    sent it: the only game of that number). A power-up that lost no frame
    had its begin, so one missing there was removed, and is named."""
    for session, kind, gid, frame in orphans:
        fields = frame if type(frame) is dict else _read(kind, frame)
        if fields is None:
            continue  # an act whose fields do not read: its game's check names it
        commit = fields.get("commit")
        mine = [g for (n, c), g in games.items() if n == gid and (
            commit is None or names_game(commit, c))]
        g = mine[0] if len(mine) == 1 else None
        if g is not None:
            g.sessions.add(session)
            if kind == wire.ACT:
                g.acts.append(frame)
            elif g.live_result is None:
                g.live_result = fields["result"]
        if stray is not None and session not in gapped:
            why = (f"the table's {kind} frame of game {gid} came with no begin of its game "
                   "before it, in a power-up that lost no frame: the begin was removed")
            said = g.problems if g is not None else stray
            if why not in said:
                said.append(why)


def _read(kind: str, raw: bytes) -> dict | None:
    """A stored frame's fields, or None where they do not read or fit its
    kind (a frame stored by an older, laxer laptop, or damaged in the store);
    a check reads them with _Stream.sound instead."""
    try:
        fields = orjson.loads(frame_fields(raw))
    except ValueError:
        return None
    return fields if kinds.fields_problem(kind, fields) is None else None


def names_game(commit: object, seed_commit: str) -> bool:
    """Whether a live frame's "commit" names the game of this commitment."""
    return type(commit) is str and len(commit) == wire.COMMIT_ID and \
        seed_commit.startswith(commit)


def _same_game(g: Game, fields: dict, kind: str) -> None:
    """A live frame that names its game's commitment names this one's."""
    commit = fields.get("commit")
    if commit is not None and not names_game(commit, g.seed_commit):
        g.problems.append(f"an {kind} frame of game {g.gid} names the commitment "
                          f"{str(commit)[:16]!r}, not its begin's {g.seed_commit[:16]}")


class _Stream:
    """Follows a check's frames as they come: a frame whose CRC fails or
    whose fields do not fit its kind is named and left out; the stream
    numbers of each power-up must go up by one, bar the gaps it reported."""

    def __init__(self, games: dict, current: dict, stray: list[str]) -> None:
        self.games, self.current, self.stray = games, current, stray
        self.last: dict[int, int] = {}  # session -> its newest stream number
        self.gapped: set[int] = set()  # sessions with frames lost (a gap, a hole)

    def sound(self, session: int, kind: str, gid: int | None, raw: bytes) -> dict | None:
        """A stored frame's fields, decoded once as they came over the wire,
        or None, named, where they are damaged or do not fit its kind."""
        raw = raw.rstrip(b"\r\n")
        try:
            seq, kind_sent, fields = readable.decode(raw)
        except wire.WireError as e:
            self._say(session, gid, f"a stored {kind} frame is damaged ({e})")
            return None
        why: str | None
        if kind == "bad":  # the Keeper kept it so, as it came
            why = kinds.message(seq, kind_sent, fields) or "it was not expected there"
        else:
            why = kinds.message(seq, kind_sent, fields) if kind_sent == kind else \
                f"it is stored as {kind} but is a {kind_sent} frame"
        if why is not None:
            self._say(session, gid, f"a stored {kind_sent} frame is malformed ({why})")
            if seq:
                self.last[session] = max(seq, self.last.get(session, 0))
            return None
        if kind == wire.GAP:
            self.gapped.add(session)
            self.last[session] = max(self.last.get(session, 0), fields["last"])
        self.numbered(session, gid, seq)
        return fields

    def acts(self, session: int, gid: int | None, run: list[bytes]) -> list[bytes]:
        """A run of acts in a row, numbered on from the frame before them,
        less any whose number does not read (named). Their numbers are
        compared at once, in C; only a run that is not right is read act by
        act, to name what is wrong."""
        first = self.last.get(session, 0) + 1
        if all(map(bytes.startswith, run, map(b"%d ".__mod__, range(first, first + len(run))),
                   repeat(4))):  # "MARK V SEQ ": the number begins at byte 4
            self.last[session] = first + len(run) - 1
            return run
        sound = []
        for raw in run:
            try:
                seq = int(raw[4:raw.index(b" ", 4)])
            except ValueError:
                self._say(session, gid, "a stored act frame is damaged (its number does not read)")
                continue
            self.numbered(session, gid, seq)
            sound.append(raw)
        return sound

    def pages(self, g: Game) -> dict | None:
        """The last of a pull's pages read, each page's CRC and fields checked
        (a page that is not right named, as sound() names it)."""
        pages = g.pages
        try:
            read = parsed(pages)
        except ValueError:
            read = []
        if len(read) == len(pages) and all(map(_sound_page, pages, read)):
            return read[-1]
        sound = [self.sound(g.pulled_in or 0, wire.PAGE, g.gid, raw) for raw in pages]
        return next((f for f in reversed(sound) if f is not None), None)

    def numbered(self, session: int, gid: int | None, seq: int) -> None:
        """A stream frame must follow the one before it."""
        last = self.last.get(session, 0)
        if seq:
            if seq != last + 1:
                self.gapped.add(session)
                self._say(session, gid, f"the table's frame {seq} follows its frame {last}: "
                          + (f"frames {last + 1}-{seq - 1} are missing and no gap says so"
                             if seq > last + 1 else "frames were removed, repeated or reordered"))
            self.last[session] = max(seq, last)

    def _say(self, session: int, gid: int | None, why: str) -> None:
        key = self.current.get((session, gid)) if type(gid) is int else None
        if key is not None:
            self.games[key].problems.append(why)
        else:
            self.stray.append(why)


def _sound_page(raw: bytes, fields: dict) -> bool:
    """Whether a stored page is as the table sent it: its head, CRC and
    fields right (what sound() would find, in under half its time)."""
    try:
        return raw[2:].startswith(_PAGE_HEAD) and raw[-9:-8] == b" " and \
            crc32(raw[2:-9]) == int(raw[-8:], 16) and kinds.message(0, wire.PAGE, fields) is None
    except ValueError:  # a CRC that is no number: sound() says so
        return False


def parsed(frames: list[bytes]) -> list[dict]:
    """Many frames' fields parsed in one call (orjson builds the same objects in
    some two thirds of the time the standard library's json takes)."""
    # frame_fields(), inlined: a call per frame would cost a tenth of the parsing.
    fields = [f.rstrip(b"\r\n")[f.find(b"{"):-9] for f in frames]
    return orjson.loads(b"[" + b",".join(fields) + b"]")


