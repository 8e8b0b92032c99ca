# Purrfect's scorekeeping: a reported round checked, the game's end decided
# from the pawprints, and the final ranks. Plain functions over the numbers
# the game (catnip.rules.purrfect) holds.
from catnip.rules.engine import RuleError

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


GOAL = const(5)  # pawprints that end the game


def check_score(action, n):
    """('score', declarer, best, ...) in canonical form for `n` players,
    best ascending; RuleError if it names no such round."""
    if len(action) < 3:
        raise RuleError("write it as ('score', declarer, best, ...): at least one best hand")
    for p in action[1:]:
        if type(p) is not int or not 0 <= p < n:
            raise RuleError("%r is not a player; players are 0-%d" % (p, n - 1))
    declarer = action[1]
    best = sorted(action[2:])
    for i, p in enumerate(best):
        if p == declarer:
            raise RuleError(
                "player %d declared; the best hand is counted among the others" % p
            )
        if i and best[i - 1] == p:
            raise RuleError("player %d is listed twice among the best hands" % p)
    return ("score", declarer) + tuple(best)


def decide(pawprints, declarer):
    """(winner, reason) once someone has five pawprints, else (None, None);
    the reason as engine.Game.result's reasons are.

    The rulebook: the first to five wins; if a round ends with players tied
    for the lead, the one who won two pawprints in it wins, even short of
    five. We read it as: a tie for the lead at five or more goes to this
    round's declarer, whatever their own count (docs/purrfect.md)."""
    top = max(pawprints)
    if top < GOAL:
        return None, None
    leaders = [p for p, n in enumerate(pawprints) if n == top]
    if len(leaders) > 1:
        return declarer, {"why": "tie", "by": "declarer", "seats": leaders, "pawprints": top,
                          "declarer": declarer}
    past = [n for n in pawprints if n >= GOAL]
    why = "first" if len(past) == 1 else "most"  # of those at GOAL or more
    return leaders[0], {"why": why, "seats": leaders, "pawprints": top, "goal": GOAL}


def ranks(pawprints, winner):
    """Each player's rank: the winner first, the others by pawprints, equal
    counts sharing a rank."""
    n = len(pawprints)
    order = sorted(range(n), key=lambda p: -pawprints[p])
    ranks = [0] * n
    ranks[winner] = 1
    rank, last = 1, None
    for i, p in enumerate(q for q in order if q != winner):
        if pawprints[p] != last:
            rank, last = i + 2, pawprints[p]
        ranks[p] = rank
    return ranks
