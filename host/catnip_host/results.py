"""A game's result in the one shape every game's result() has now (see
catnip.rules.engine.Game.result): a score per seat, ranks, winners, the
reasons as text, what a score counts, whether the fewest wins and whether
the seats play together.

Tables that ran older firmware stored and announced each game's own shape
(Purrfect's pawprints, winner and reason; the Clowder's team and ended;
Meow Heist's tiebreaks; Stack O' Cats' ended beside its reasons). Wherever
the laptop reads a stored or announced result, common() brings it to the
one shape, so old journals and session stores read, verify and export as
new ones do. A result already in the shape is returned as it is.
"""

from __future__ import annotations

from typing import Any

SHAPE = ("scores", "ranks", "winners", "reasons", "unit", "fewest", "together")


def common(result: Any) -> Any:
    """`result` in the one shape; anything that is not a result of a known
    older shape (None, a newer table's, damage) is returned unchanged, for
    the caller's own checks to name."""
    if not isinstance(result, dict) or "unit" in result or not isinstance(
            result.get("ranks"), list):
        return result
    r = dict(result)
    n = len(r["ranks"])
    try:
        if "pawprints" in r:  # Purrfect
            r.update(scores=list(r["pawprints"]), winners=[r["winner"]], reasons=[r["reason"]],
                     unit="pawprints", fewest=False, together=False)
        elif "team" in r:  # the Clowder: one team, one score
            r.update(scores=[r["team"]] * n, winners=[], reasons=[r["ended"]], unit="points",
                     fewest=False, together=True)
        elif "tiebreaks" in r:  # Meow Heist
            r.update(reasons=[t["why"] for t in r["tiebreaks"]], unit="points", fewest=False,
                     together=False)
        elif "ended" in r:  # Stack O' Cats, played for points
            r.update(reasons=[r["ended"], *r.get("reasons", [])], unit="points",
                     fewest=r.get("goal") == "fewest points", together=False)
        else:
            return result
    except (KeyError, TypeError):
        return result  # not a whole result of that shape: left for the caller to refuse
    return r


def in_events(events: Any) -> Any:
    """Public events with any result they carry (Meow Heist's end) in the
    one shape."""
    if not isinstance(events, list):
        return events
    return [dict(e, result=common(e["result"])) if isinstance(e, dict) and "result" in e else e
            for e in events]
