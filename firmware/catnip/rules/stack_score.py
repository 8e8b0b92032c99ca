# Stack O' Cats' scoring: what a placement or a collapse is worth in each
# mode, the counts a screen shows by colour, and the final ranks. Plain
# functions over the numbers the game (catnip.rules.stack) holds.

ENDINGS = {
    "bag empty": "the bag is empty",
    "collapse": "the tower collapsed",
}


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


def result(mode, scores, team, reason):
    """The final result once the game ended for `reason` (a key of ENDINGS),
    in the shape every game's result() has."""
    players = len(scores)
    ended = ENDINGS[reason]
    if mode == "clowder":
        # One team: everyone shares rank 1 with its score; nobody wins alone.
        return {"ranks": [1] * players, "winners": [], "scores": [team] * players,
                "reasons": [ended], "unit": "points", "fewest": False, "together": True,
                "team": team, "ended": ended}
    most = mode == "composure"
    s = scores
    ranks = [1 + sum(1 for q in s if (q > v if most else q < v)) for v in s]
    reasons = [ended]
    for rank in sorted(set(ranks)):
        tied = [p for p in range(players) if ranks[p] == rank]
        if len(tied) > 1:
            reasons.append("players %s share rank %d with %d points: the rulebook "
                           "has no tie-breaker" % (_and(tied), rank, s[tied[0]]))
    return {"ranks": ranks, "winners": [p for p in range(players) if ranks[p] == 1],
            "scores": list(s), "reasons": reasons, "unit": "points", "fewest": not most,
            "together": False, "goal": "most points" if most else "fewest points",
            "ended": ended}


def _and(items):
    words = [str(x) for x in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
