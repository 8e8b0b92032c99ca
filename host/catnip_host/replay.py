"""One game's verdict: rebuild it from its revealed seed and moves with the
shared rules (catnip.rules), check the seed against the commitment sent when
it began, compare every move's events with what the table announced live
(naming the first that disagrees), and bind the pulled record to the live
one: the same header and seats, entries whole and in order, a status the
moves give.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter, methodcaller

import orjson

from catnip import rules, wire
from catnip.rules.engine import RuleError
from catnip_host.game_frames import Game, names_game, parsed
from catnip_host.results import common, in_events
from catnip_host.words import plural

VERIFIED, DISAGREES, UNVERIFIABLE = 0, 1, 3  # exit statuses
PUBLIC_ONLY = ("seed", "salt")  # what the pulled header adds to the one sent live


@dataclass
class Check:
    gid: int | None  # None: the frames of the session or file, not one game's
    name: str
    status: int
    moves: int = 0
    compared: int = 0
    unseen: int = 0
    problems: list[str] = field(default_factory=list)
    signature: str = ""  # signed by the table, unsigned, forged (catnip_host.signatures)
    incomplete: bool = False  # part of it cannot be checked yet (see _incomplete)

    def summary(self) -> str:
        if self.gid is None:
            return f"the frames themselves: {'DOES NOT VERIFY' if self.status else 'verified'}"
        title = rules.TITLES.get(self.name, self.name)
        verdict = {VERIFIED: "verified", DISAGREES: "DOES NOT VERIFY",
                   UNVERIFIABLE: "cannot be verified yet"}[self.status]
        if self.status == DISAGREES and self.incomplete:
            verdict += " (and part of it cannot be verified yet)"
        seen = f"{self.compared} of {plural(self.moves, 'move')} compared with the live announcements"
        if self.moves and not self.compared:
            seen = (f"{plural(self.moves, 'move')} replayed; none was seen live (played while no laptop "
                    "listened): checked against its commitment and the rules")
        elif self.unseen:
            seen += f" ({self.unseen} not seen live)"
        sealed = f"; {self.signature}" if self.signature else ""
        return f"game {self.gid} ({title}): {verdict}; {seen}{sealed}"


def seed_matches(commitment: str, header: dict) -> bool:
    """Whether the revealed seed (and salt, where the rules use one) gives
    the commitment sent at the start: the one place this is decided."""
    from catnip.rules import rng

    if "salt" in header:
        return rng.commit(header["seed"], header["salt"]) == commitment
    # Before the salt, a table committed to the seed's own SHA-256.
    return hashlib.sha256(str(header["seed"]).encode()).hexdigest() == commitment


def rebuild(header: dict):
    """The game a revealed header starts, before its first move, keeping its
    moves as a plain list (Moves)."""
    cls = rules.game_class(header["game"])
    game = cls(header["config"], header["seed"], header["salt"]) if "salt" in header else \
        cls(header["config"], header["seed"])
    game.keep_log(Moves())
    return game


class Moves(list):
    """A replayed game's log: its (player, action) moves in a list. The rules'
    packed log (catnip.rules.log) spares the Pico's heap; a check on the
    laptop only replays the moves, and packing each one would cost it a
    tenth of its time."""

    def add(self, player: int, action: tuple) -> None:
        self.append((player, action))


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
        for i, raw in enumerate(frames):
            try:
                (f,) = parsed([raw])
            except ValueError as e:  # its bytes were damaged in the store
                return f"{kind} frame {i + 1} does not read ({e})"
            why = wire.fields_problem(kind, f)
            if why is not None:
                return f"{kind} frame {i + 1}: {why}"
    return None


def _check(g: Game, c: Check) -> Check:
    acts = parsed(g.acts)  # a field missing raises KeyError: check() names the frame
    announced = dict(map(_MOVE, acts))  # move n -> events, latest kept
    if not (_typed(announced, int) and _typed(announced.values(), list)) or \
            len(announced) < len(acts) and not (  # a number twice: every frame looked at
                _typed([f["n"] for f in acts], int) and _typed([f["events"] for f in acts], list)):
        return _fail(c, f"its record is malformed and cannot be checked ({_malformed(g)})")
    other = next((x for x in set(map(_COMMIT, acts))  # the same in every act, or none
                  if x is not None and not names_game(x, g.seed_commit)), None)
    if other is not None:
        _fail(c, f"an act frame of game {g.gid} names the commitment {str(other)[:16]!r}, "
                 f"not its own {g.seed_commit[:16]}")
    if g.header is None:
        if g.acked and g.live_headers:
            return _fail(c, "the laptop acknowledged storing it, but its pulled record is "
                            "missing: it was removed")
        _incomplete(c, "its seed and moves have not been pulled from the table yet (still in "
                       "play, or the table has not been connected since it ended)")
        c.unseen = len(announced)
        return c
    h = g.header
    if not seed_matches(g.seed_commit, h):
        return _fail(c, "the revealed seed does not match the commitment sent when the game "
                        "began: the record was altered or belongs to another game")
    for begun, seats in g.live_headers:
        _bound(c, h, begun, seats)
    try:
        game = rebuild(h)
    except (RuleError, ValueError, KeyError, TypeError) as e:
        return _fail(c, f"the game cannot be set up from its header: {e}")
    pulled = parsed(g.entries)
    numbers, journal = list(map(_NUMBER, pulled)), list(map(_ENTRY, pulled))
    if not (_typed(numbers, int) and _typed(journal, list) and all(journal)):
        return _fail(c, f"its record is malformed and cannot be checked ({_malformed(g)})")
    _whole(c, g, numbers)
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
            events = act(entry[1], entry[2])  # a list: act() makes it a tuple
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
    if max(announced, default=0) > c.moves:
        _fail(c, f"the table announced move {min(k for k in announced if k > c.moves)} but the "
                 f"journal holds {c.moves} moves")
    final = _plain(game.result())  # the journal's and the live result were read from JSON too
    live_result = common(g.live_result)
    if result is not None and result != final:
        _fail(c, f"the journal's result {result} is not the rules' {final}")
    if live_result is not None and live_result != final:
        _fail(c, f"the result announced live {g.live_result} is not the rules' {final}")
    heard_all = g.gapless and g.live_in == g.pulled_in  # its power-up, every frame stored
    unheard = set(range(g.live_since or 1, c.moves + 1)).difference(announced)
    if heard_all and g.live_since is not None and unheard:
        _fail(c, f"move {min(unheard)} is missing from the moves announced live, in a power-up "
                 "that lost no frame: it was removed")
    if g.live_result is None and final is not None and heard_all:
        _fail(c, "it ended while the laptop listened, but its end announced live is missing "
                 "from the frames")
    _status(c, g, h, result, final)
    return c


# A parsed act's move number and events, and its game's commitment; a parsed
# entry's number and entry. (Read in C: a game's every frame comes here.)
_MOVE, _COMMIT = itemgetter("n", "events"), methodcaller("get", "commit")
_NUMBER, _ENTRY = itemgetter("i"), itemgetter("e")


def _typed(values: Iterable, kind: type) -> bool:
    """Whether every value is a `kind` (a bool is no int): a game's frames'
    fields at once, their types compared in C."""
    return set(map(type, values)) <= {kind}


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
        _incomplete(c, f"its journal was damaged on the table: the {len(numbers)} entries "
                       "read before the damage are checked, the rest is lost")


def _status(c: Check, g: Game, header: dict, result: object, final: object) -> None:
    """The status pulled is what the moves give."""
    if g.status == "record":  # a rules record: no journal, only its flag
        if header.get("finished") is True and final is None:
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


def _incomplete(c: Check, why: str) -> None:
    """Part of the game cannot be checked yet: UNVERIFIABLE, unless it already
    disagrees, which no other finding downgrades (both are listed)."""
    c.incomplete = True
    if c.status != DISAGREES:
        c.status = UNVERIFIABLE
    c.problems.append(why)


def _plain(x):
    """As it reads back from JSON (tuples become lists, keys words), as
    orjson writes and reads it: a game's result comes here once per game."""
    return orjson.loads(orjson.dumps(x, option=orjson.OPT_NON_STR_KEYS))


def _first_difference(live: list, rules_say: list) -> str:
    for i in range(max(len(live), len(rules_say))):
        a = live[i] if i < len(live) else "(nothing)"
        b = rules_say[i] if i < len(rules_say) else "(nothing)"
        if a != b:
            return f"event {i + 1}: the table announced {a}, the rules give {b}"
    return "the events differ"
