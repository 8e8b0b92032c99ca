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
    (catnip.rules.engine.Game.result), plus the rocks, the shields and the
    tie-breaks as data."""
    n = len(shields)
    scores = [score(s) for s in shields]
    rocks = [s[ROCKS] for s in shields]
    ranks = []
    for p in range(n):
        ahead = [q for q in range(n)
                 if scores[q] > scores[p] or (scores[q] == scores[p] and rocks[q] < rocks[p])]
        ranks.append(1 + len(ahead))
    tiebreaks = _tiebreaks(scores, rocks, ranks)
    return {
        "ranks": ranks,
        "winners": [p for p in range(n) if ranks[p] == 1],
        "scores": scores,
        "reasons": [t["why"] for t in tiebreaks],
        "unit": "points",
        "fewest": False,
        "together": False,
        "rocks": rocks,
        "shields": [list(s) for s in shields],
        "tiebreaks": tiebreaks,
    }


def _tiebreaks(scores, rocks, ranks):
    """Why tied scores ended where they did: fewer black rocks ranks higher;
    equal rocks too share the rank."""
    notes = []
    n = len(scores)
    for s in sorted(set(scores), reverse=True):
        tied = [p for p in range(n) if scores[p] == s]
        if len(tied) < 2:
            continue
        if len(set(rocks[p] for p in tied)) > 1:
            notes.append({"players": tied, "by": "rocks",
                          "why": "tied on %d points; fewer black rocks ranks higher (%s)"
                          % (s, ", ".join("player %d: %d" % (p, rocks[p]) for p in tied))})
        for r in sorted(set(rocks[p] for p in tied)):
            shared = [p for p in tied if rocks[p] == r]
            if len(shared) > 1:
                notes.append({"players": shared, "by": "shared",
                              "why": "tied on %d points and %d black rocks; they share rank %d"
                              % (s, r, ranks[shared[0]])})
    return notes
