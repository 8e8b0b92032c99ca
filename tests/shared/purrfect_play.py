# Seeded Purrfect players for tests and benches, under both interpreters.
#
# Uniformly random legal swaps almost never gather nine of a cat, so games
# would not end. A sensible player keeps its most-held cat, gives away its
# least-held one (as many of them as it likes, up to four), and declares as
# soon as its hand is purrfect. It decides
# from its own view() only, as a person at the table would. Mixing in a share
# of uniformly random legal actions keeps every kind of action in play.
import sys

from playout import any_legal, play_randomly

# Under MicroPython, collect after every action, as the device's main loop
# does, so heap figures measure what the game holds, not uncollected garbage.
TIDY = sys.implementation.name == "micropython"


def _by_cat(cards):
    groups = {}
    for card in cards:
        groups.setdefault(card // 9, []).append(card)
    return groups


def sensible_action(game, player, rng):
    """The action a sensible player takes now, or None to wait."""
    v = game.view(player)
    held = _by_cat(v["hand"])
    if len(held) == 1:
        return ("declare",)
    offered = set()
    for _, cards in v["offered"]:
        for card in cards:
            offered.add(card)
    free = _by_cat([c for c in v["hand"] if c not in offered])
    # The most-held cat, the lowest on a tie. Every order here is spelled
    # out: dict order differs between the interpreters and MicroPython's
    # sort is not stable, and the same seed must make the same choices on both.
    keep = sorted((-len(held[cat]), cat) for cat in held)[0][1]
    # Give from the least-held cats first; ties in random order: shuffle,
    # then sort on (count, place in the shuffle), a key with no ties.
    spare = sorted(cat for cat in free if cat != keep)
    rng.shuffle(spare)
    spare = [cat for _, _, cat in sorted((len(held[cat]), i, cat)
                                         for i, cat in enumerate(spare))]
    size = {}
    for i, pair in enumerate(v["meows"]):
        size[pair[0]] = i + 1
    offers = [o for o in v["offers"] if o["player"] != player]
    if offers:
        start = rng.below(len(offers))
        for o in offers[start:] + offers[:start]:
            k = size[o["meow"]]
            for cat in spare:
                if len(free[cat]) >= k:
                    return ("accept", o["offer"]) + tuple(free[cat][:k])
    if not v["offered"] and spare:
        group = free[spare[0]]
        return ("offer",) + tuple(group[:1 + rng.below(min(4, len(group)))])
    if v["offered"] and rng.below(4) == 0:
        return ("withdraw", v["offered"][0][0])
    return None


def play_sensibly(game, seed, noise=0, max_actions=200000, each=None, collect=TIDY):
    """Play a game to its end: each step a random player takes a uniformly
    random legal action with probability noise/16, else its sensible one.
    `each(game, player, action, events)` runs after every action."""

    def choose(game, player, pick):
        if noise and pick.below(16) < noise:
            return any_legal(game, player, pick)
        return sensible_action(game, player, pick)

    return play_randomly(game, seed, max_actions, each, choose, collect)
