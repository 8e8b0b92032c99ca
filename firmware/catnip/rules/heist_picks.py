# Meow Heist: picking cards from a hand held as an ascending list, each
# multiset once (two-player rounds play several cards at a time). PURE;
# unloaded with the game (catnip.rules.heist*).


def choices(cards, k, first=0):
    """Every way to pick k of the ascending `cards`, each multiset once, as
    ascending tuples."""
    if k == 0:
        yield ()
        return
    previous = None
    for i in range(first, len(cards) - k + 1):
        if cards[i] == previous:
            continue
        previous = cards[i]
        for rest in choices(cards, k - 1, i + 1):
            yield (cards[i],) + rest


def distinct(cards):
    out = []
    for c in sorted(cards):
        if c not in out:
            out.append(c)
    return out
