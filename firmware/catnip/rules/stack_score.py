# Stack O' Cats' scoring: what a placement or a collapse is worth in each
# mode, the counts a screen shows by colour, and the final ranks. Plain
# functions over the numbers the game (catnip.rules.stack) holds.

ENDINGS = ("bag empty", "collapse")  # why a game ends: the codes of its reason


def placement_points(config, from_table, counts_black, height, touched):
    mode = config["mode"]
    if mode == "clowder":
        return 0 if from_table else 1
    black = 0
    if touched and counts_black:
        black = 2 * (touched if config["black_touch"] == "each" else 1)
    if mode == "composure":
        return 2 * height - black
    return height + black


def collapse_points(mode, fallen):
    if mode == "composure":
        return -fallen
    return fallen if mode == "patient" else 0


def by_colour(colours, counts):
    """{colour: count} for the colours present."""
    d = {}
    for i, n in enumerate(counts):
        if n:
            d[colours[i]] = n
    return d


def ending(reason):
    """The reason (engine.Game.result) a game ended for `reason`, one of ENDINGS."""
    return {"why": reason, "seats": []}


def result(mode, scores, team, reason):
    """The final result once the game ended for `reason` (one of ENDINGS),
    in the shape every game's result() has."""
    players = len(scores)
    if mode == "clowder":
        # One team: everyone shares rank 1 with its score; nobody wins alone.
        return {"ranks": [1] * players, "winners": [], "scores": [team] * players,
                "reasons": [ending(reason)], "unit": "points", "fewest": False,
                "together": True, "team": team}
    most = mode == "composure"
    s = scores
    ranks = [1 + sum(1 for q in s if (q > v if most else q < v)) for v in s]
    reasons = [ending(reason)]
    for rank in sorted(set(ranks)):
        tied = [p for p in range(players) if ranks[p] == rank]
        if len(tied) > 1:  # the rulebook has no tie-breaker: they share the rank
            reasons.append({"why": "tie", "by": "none", "seats": tied, "points": s[tied[0]],
                            "rank": rank})
    return {"ranks": ranks, "winners": [p for p in range(players) if ranks[p] == 1],
            "scores": list(s), "reasons": reasons, "unit": "points", "fewest": not most,
            "together": False, "goal": "most points" if most else "fewest points"}
