# Two secret choices the public cannot tell apart, for the secrecy tests of
# the wire (test_link_secrecy.py) and of the web page (tests/test_serve.py):
# Meow Heist, which card is locked while others still choose; Purrfect,
# which cat is offered, the same number of cards.
from catnip.rules.purrfect import cat_of


def secret_pair(game, name, rng):
    """(player, a, b): two different secret choices the public cannot tell
    apart, available now, or None."""
    players = game.to_act()
    if name == "heist":
        v = game.public()
        waiting = [p for p in players if not v["seats"][p]["committed"]]
        if len(waiting) < 2:
            return None  # the last lock starts the reveal: that is public
        p = waiting[rng.below(len(waiting))]
        plays = [a for a in game.legal(p) if a[0] == "play"]
        if len(plays) < 2:
            return None
        a = plays[rng.below(len(plays))]
        others = [x for x in plays if x != a]
        return p, a, others[rng.below(len(others))]
    if name == "purrfect":
        for p in players:
            offers = [a for a in game.legal(p) if a[0] == "offer" and len(a) == 2]
            for a in offers:
                for b in offers:
                    if cat_of(a[1]) != cat_of(b[1]):
                        return p, a, b
    return None
