"""Named tampers of a recorded session, for `replay --verify` to catch.

A session is the frames the table sent for one game played live and pulled
(test_verify._frames), numbered as its line numbers them. Each tamper changes
one thing the way someone editing the file or the store would, and re-seals
every frame's CRC, so only the checks of meaning can see it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator

from catnip import rules, wire
from catnip.rules import rng
from catnip.rules.engine import RuleError

Numbered = list[tuple[int, str, dict]]  # (seq, kind, fields)


def numbered(frames: list[tuple[str, dict]]) -> Numbered:
    out, seq = [], 0
    for kind, f in frames:
        if wire.MESSAGES[kind][0] == wire.STREAMED:
            seq += 1
            out.append((seq, kind, f))
        else:
            out.append((0, kind, dict(f, re=1)))
    return out + [(0, "acked", {"gid": 1, "re": 2})]


def encoded(frames: Numbered) -> bytes:
    return b"".join(wire.encode(k, s, f) for s, k, f in frames)


def _all(frames: Numbered, kind: str) -> list[dict]:
    return [f for _, k, f in frames if k == kind]


def _index(frames: Numbered, kind: str, nth: int = 0) -> int:
    return [i for i, (_, k, _) in enumerate(frames) if k == kind][nth]


def _header(frames: Numbered) -> dict:
    return _all(frames, "game")[0]["header"]


def _move(frames: Numbered, nth: int) -> None:
    entry = [f for f in _all(frames, "entry") if f["e"][0] == "action"][nth]["e"]
    ints = [i for i, x in enumerate(entry[2]) if isinstance(x, int)]
    if ints:
        entry[2][ints[-1]] += 1
    else:
        entry[1] = (entry[1] + 1) % 2


def _forged_commitment(frames: Numbered) -> None:
    h = _header(frames)
    h["seed"], h["salt"] = "forged", "f" * len(h.get("salt", "") or "0" * 32)
    h["seed_commit"] = rng.commit(h["seed"], h["salt"])


def _swap(frames: Numbered, kind: str, a: int, b: int) -> None:
    i, j = _index(frames, kind, a), _index(frames, kind, b)
    frames[i], frames[j] = frames[j], frames[i]


def _swap_entries_renumbered(frames: Numbered) -> None:
    entries = _all(frames, "entry")
    entries[2]["e"], entries[3]["e"] = entries[3]["e"], entries[2]["e"]


def _first_config_key(frames: Numbered) -> str:
    return sorted(_header(frames)["config"])[0]


def _bend(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    return [value]


def _config(frames: Numbered, where: str) -> None:
    key = _first_config_key(frames)
    for _, k, f in frames:
        if (k == "begin" and where in ("live", "both")) or (k == "game" and where in
                                                            ("pulled", "both")):
            f["header"]["config"][key] = _bend(f["header"]["config"][key])


def _drop(frames: Numbered, kind: str, nth: int = 0) -> None:
    del frames[_index(frames, kind, nth)]


def _result(frames: Numbered, where: str) -> None:
    f = _all(frames, "end")[0] if where == "live" else _all(frames, "entry")[-1]["e"][1]
    target = f["result"] if where == "live" else f
    key = sorted(target)[0]
    target[key] = _bend(target[key])


def _renumber(frames: Numbered) -> None:
    """The stream numbered again from 1, as if nothing had been taken out."""
    seq = 0
    for i, (s, kind, f) in enumerate(frames):
        if s:
            seq += 1
            frames[i] = (seq, kind, f)


def _begin_taken(frames: Numbered, gap: bool) -> None:
    """The live begin removed, the stream renumbered (or a gap where it was)."""
    i = _index(frames, "begin")
    seq = frames[i][0]
    if gap:
        frames[i] = (0, "gap", {"first": seq, "last": seq, "re": 1})
    else:
        del frames[i]
        _renumber(frames)


def _rewritten(frames: Numbered) -> None:
    """The pulled record changed so it still holds together: one move made
    differently (a move the rules take, the rest of the game still legal and
    over), the journal's end the result the rules now give (the winner may
    change or not)."""
    h = _header(frames)
    entries = [f["e"] for f in _all(frames, "entry")]
    moves = [(e[1], tuple(e[2])) for e in entries if e[0] == "action"]
    for k in range(len(moves) - 1, -1, -1):
        for other in _replayed(h, moves[:k]).legal(moves[k][0]):
            if tuple(other) == moves[k][1]:
                continue
            try:
                game = _replayed(h, moves[:k] + [(moves[k][0], tuple(other))] + moves[k + 1:])
            except RuleError:
                continue
            if game.result() is not None:
                actions = [e for e in entries if e[0] == "action"]
                actions[k][2] = list(other)
                entries[-1][1] = game.result()
                return
    raise AssertionError("no move of this game can be made otherwise")


def _replayed(h: dict, moves: list):
    game = rules.game_class(h["game"])(h["config"], h["seed"], h["salt"])
    for p, a in moves:
        game.act(p, a)
    return game


def _drop_pull(frames: Numbered) -> None:
    frames[:] = [x for x in frames if x[1] not in ("game", "entry", "page")]


TAMPERS: dict[str, Callable[[Numbered], None]] = {
    "move: an early move changed": lambda f: _move(f, 1),
    "move: the last move changed": lambda f: _move(f, -1),
    "seed: the revealed seed changed": lambda f: _header(f).__setitem__("seed", "other"),
    "salt: the revealed salt changed": lambda f: _header(f).__setitem__("salt", "0" * 32),
    "commitment: the live begin's changed": lambda f: _all(f, "begin")[0]["header"].__setitem__(
        "seed_commit", "0" * 64),
    "commitment: seed, salt and commitment forged alike": _forged_commitment,
    "config: the live begin's changed": lambda f: _config(f, "live"),
    "config: the pulled header's changed": lambda f: _config(f, "pulled"),
    "config: both changed alike": lambda f: _config(f, "both"),
    "config: who sat where, pulled": lambda f: _header(f).__setitem__("seats", [2, 1, 0]),
    "config: who sat where, live": lambda f: _all(f, "begin")[0].__setitem__("seats", [1, 0, 2]),
    "status: finished made abandoned": lambda f: _all(f, "game")[0].__setitem__(
        "status", "abandoned"),
    "events: an announced move's events changed": lambda f: [
        a for a in _all(f, "act") if a["events"]][2]["events"][0].__setitem__("tampered", 1),
    "result: the live result changed": lambda f: _result(f, "live"),
    "result: the journal's result changed": lambda f: _result(f, "journal"),
    "order: two announced moves swapped": lambda f: _swap(f, "act", 2, 3),
    "order: two pulled entries swapped": lambda f: _swap(f, "entry", 2, 3),
    "order: two pulled entries swapped, renumbered": _swap_entries_renumbered,
    "deletion: an announced move removed": lambda f: _drop(f, "act", 3),
    "deletion: a pulled entry removed": lambda f: _drop(f, "entry", 3),
    "deletion: the journal's end removed": lambda f: _drop(f, "entry", -1),
    "deletion: the live end removed": lambda f: _drop(f, "end"),
    "deletion: the pulled game removed": _drop_pull,
    "deletion: an announced move removed, the stream renumbered": lambda f: (
        _drop(f, "act", 3), _renumber(f)),
    "deletion: the live end removed, the stream renumbered": lambda f: (
        _drop(f, "end"), _renumber(f)),
    "deletion: the live begin removed, renumbered, the record rewritten": lambda f: (
        _begin_taken(f, gap=False), _rewritten(f)),
    "deletion: a gap for the live begin, the record rewritten": lambda f: (
        _begin_taken(f, gap=True), _rewritten(f)),
}


def tampered(frames: Numbered) -> Iterator[tuple[str, Numbered]]:
    for name, tamper in TAMPERS.items():
        copy_ = copy.deepcopy(frames)
        tamper(copy_)
        yield name, json.loads(json.dumps(copy_))
