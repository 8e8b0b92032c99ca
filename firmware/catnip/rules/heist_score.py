# Meow Heist's scoring: what a shield of loot is worth and how the players
# rank at the end. Loot is a list [red, yellow, blue, rocks]; red gems are
# worth most, each black rock costs a point. Pure and separate from the
# rounds (catnip.rules.heist), so the result's shape can be checked alone.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


ROCKS = const(3)
POINTS = (3, 2, 1, -1)  # red, yellow, blue, black rock


def score(loot):
    return sum(POINTS[i] * loot[i] for i in range(4))


def standings(shields):
    """The final result from each player's loot [red, yellow, blue, rocks]:
    highest score first; a tie goes to fewer black rocks; still tied, the
    players share the rank. The shape every game's result() has
    (catnip.rules.engine.Game.result), plus the rocks and the shields."""
    n = len(shields)
    scores = [score(s) for s in shields]
    rocks = [s[ROCKS] for s in shields]
    ranks = []
    for p in range(n):
        ahead = [q for q in range(n)
                 if scores[q] > scores[p] or (scores[q] == scores[p] and rocks[q] < rocks[p])]
        ranks.append(1 + len(ahead))
    return {
        "ranks": ranks,
        "winners": [p for p in range(n) if ranks[p] == 1],
        "scores": scores,
        "reasons": _tiebreaks(scores, rocks, ranks),
        "unit": "points",
        "fewest": False,
        "together": False,
        "rocks": rocks,
        "shields": [list(s) for s in shields],
    }


def _tiebreaks(scores, rocks, ranks):
    """Why tied scores ended where they did, as reasons (engine.Game.result):
    fewer black rocks ranks higher; equal rocks too share the rank."""
    notes = []
    n = len(scores)
    for s in sorted(set(scores), reverse=True):
        tied = [p for p in range(n) if scores[p] == s]
        if len(tied) < 2:
            continue
        if len(set(rocks[p] for p in tied)) > 1:
            notes.append({"why": "tie", "by": "rocks", "seats": tied, "points": s,
                          "rocks": [rocks[p] for p in tied]})
        for r in sorted(set(rocks[p] for p in tied)):
            shared = [p for p in tied if rocks[p] == r]
            if len(shared) > 1:
                notes.append({"why": "tie", "by": "none", "seats": shared, "points": s,
                              "rank": ranks[shared[0]], "rocks": r})
    return notes
