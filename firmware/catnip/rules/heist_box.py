# What is in the Meow Heist box: the gems in the bag, each player's cat cards
# by player count and edition, the safe cards, and the phases of a round.
# Shared by the rounds (catnip.rules.heist) and their checks (heist_checks).
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


RED = const(0)
BLUE = const(2)
COLOURS = ("red", "yellow", "blue")
BAG = (10, 30, 60)

FULL_SET = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6)
ONE_EACH = (1, 2, 3, 4, 5, 6)
# Cards each player puts back in the box, by player count (one card per value).
SET_ASIDE = {2: (2, 3, 4, 5), 3: (2, 5), 4: (), 5: (2, 4, 5), 6: (2, 5)}
SAFE_CARDS = {2: 4, 3: 6, 4: 8, 5: 5, 6: 6}

GEMS, PLAY, REVEAL, OVER = "gems", "play", "reveal", "over"
UNLOCK = "unlock"  # a locked card taken back to the hand, until the last player locks


def cat_cards(players, variant):
    """The cat cards each player starts with, ascending."""
    if variant == "original":
        return list(ONE_EACH)
    cards = list(FULL_SET)
    for value in SET_ASIDE[players]:
        cards.remove(value)
    return cards


def safe_cards(players):
    """The safe cards in the box for this player count (5-16, without 15 and
    16 for four or fewer players)."""
    return [n for n in range(5, 17) if players > 4 or n < 15]
