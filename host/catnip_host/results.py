"""A game's result and events in the shape the rules give them now (see
catnip.rules.engine.Game.result): a score per seat, ranks, winners, the
reasons as data ({"why": a code, "seats": [...], ...}), what a score counts,
whether the fewest wins and whether the seats play together; every event's
kind under "type".

Tables that ran older firmware stored and announced other shapes: each
game's own result (Purrfect's pawprints, winner and reason; the Clowder's
team and ended; Meow Heist's tiebreaks; Stack O' Cats' ended beside its
reasons), reasons as English sentences, and Stack O' Cats' events keyed
"event". Wherever the laptop reads a stored or announced result or event,
common() and in_events() bring it to today's shape, so old journals and
session stores read, verify, display and export as new ones do. The
sentences are not read: the reasons are worked out again from the result's
own numbers by the rules' scoring (what the sentences were written from);
the scores, ranks and winners they come from are compared with the rules'
as before. What is already in today's shape is returned as it is.
"""

from __future__ import annotations

from typing import Any

from catnip.rules import heist_score, purrfect_score, stack_score

SHAPE = ("scores", "ranks", "winners", "reasons", "unit", "fewest", "together")
# What older tables wrote where a reason is now: the two ways a Stack O' Cats
# game ends, in the words the rules used for them.
ENDED = {"the bag is empty": "bag empty", "the tower collapsed": "collapse"}
GONE = ("tiebreaks", "ended", "reason")  # older fields today's reasons replace


def common(result: Any) -> Any:
    """`result` in today's shape; anything that is not a result of a known
    older shape (None, a newer table's, damage) is returned unchanged, for
    the caller's own checks to name."""
    if not isinstance(result, dict) or not isinstance(result.get("ranks"), list) \
            or not isinstance(result.get("reasons", []), list):
        return result
    if "unit" in result and not any(isinstance(r, str) for r in result.get("reasons", ())) \
            and not any(key in result for key in GONE):
        return result  # today's shape
    try:
        r = _reasoned(result)
    except (KeyError, TypeError, ValueError, IndexError):
        return result  # not a whole result of that shape: left for the caller to refuse
    if r is None:
        return result
    for key in GONE:
        r.pop(key, None)
    return r


def _reasoned(old: dict) -> dict | None:
    """An older result with today's fields and reasons, from its numbers."""
    r = dict(old)
    if "pawprints" in r:  # Purrfect: a tie went to the declarer, who won
        _, reason = purrfect_score.decide(r["pawprints"], r["winner"])
        r.update(scores=list(r["pawprints"]), winners=[r["winner"]], reasons=[reason],
                 unit="pawprints", fewest=False, together=False)
    elif "shields" in r:  # Meow Heist
        r.update(reasons=heist_score.standings(r["shields"])["reasons"], unit="points",
                 fewest=False, together=False)
    elif "team" in r or "ended" in r or "goal" in r:  # Stack O' Cats
        ended = r.get("ended") or (r.get("reasons") or [None])[0]
        if "team" in r:
            mode, scores = "clowder", [r["team"]] * len(r["ranks"])
        else:
            mode = "patient" if r["goal"] == "fewest points" else "composure"
            scores = r["scores"]
        r = dict(r, **stack_score.result(mode, scores, r.get("team", 0), ENDED[ended]))
    else:
        return None
    return r


def in_events(events: Any) -> Any:
    """The public events of one action in today's shape: the kind under
    "type", any result they carry (Meow Heist's end) and any reason (the end
    of Purrfect and of Stack O' Cats) as data."""
    if not isinstance(events, list):
        return events
    out: list = []
    for e in events:
        if isinstance(e, dict):
            e = _event(e, out)
        out.append(e)
    return out


def _event(e: dict, before: list) -> dict:
    if "event" in e and "type" not in e:  # Stack O' Cats, before one key
        e = {("type" if k == "event" else k): v for k, v in e.items()}
    if "result" in e:
        e = dict(e, result=common(e["result"]))
    if isinstance(e.get("reason"), str):
        e = dict(e, reason=_reason(e, before))
        e.pop("tied", None)  # today in the reason's seats
    return e


def _reason(e: dict, before: list) -> Any:
    """An older end event's reason as data: Stack O' Cats' from its two
    endings, Purrfect's from the pawprints the round before it left; None
    (unknown) for a sentence without them, never the sentence: its seats are
    numbered from 0."""
    if e.get("type") == "over" and e["reason"] in ENDED:
        return stack_score.ending(ENDED[e["reason"]])
    paws = [b["pawprints"] for b in before if isinstance(b, dict) and "pawprints" in b]
    if e.get("type") == "game over" and paws:
        return purrfect_score.decide(paws[-1], e["winner"])[1]
    return None
