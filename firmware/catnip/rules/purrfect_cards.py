# Purrfect's cards and the offers on the table, as plain data: a card is an
# int, cat * 9 + pose; `owner` holds each card's player; an open offer is a
# tuple (id, player, cards). The names a station shows, and the lookups the
# game (catnip.rules.purrfect) makes over its hands and offers.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


HAND = const(9)  # cards per hand, and poses per cat

# (name, colour): every name starts with a different letter.
CATS = (
    ("Ash", "grey"),
    ("Biscuit", "brown"),
    ("Cleo", "orange"),
    ("Dusk", "blue"),
    ("Ember", "red"),
    ("Fern", "green"),
    ("Goldie", "yellow"),
)
POSES = (
    "sitting", "sleeping", "stretching", "grooming", "pouncing",
    "yawning", "loafing", "peeking", "rolling",
)
# (word, language): how cats are heard around the world, in plain ASCII so
# the stations' font can show every one.
MEOWS = (
    ("meow", "English"),
    ("miaou", "French"),
    ("miau", "Spanish"),
    ("miao", "Italian"),
    ("miauw", "Dutch"),
    ("mjau", "Swedish"),
    ("mjav", "Danish"),
    ("mja", "Icelandic"),
    ("miaw", "Welsh"),
    ("meu", "Catalan"),
    ("miaau", "Afrikaans"),
    ("myau", "Russian"),
    ("nyav", "Ukrainian"),
    ("mnau", "Czech"),
    ("mijau", "Croatian"),
    ("mijav", "Slovene"),
    ("niaou", "Greek"),
    ("miyav", "Turkish"),
    ("mlav", "Armenian"),
    ("miyau", "Hebrew"),
    ("myaun", "Hindi"),
    ("miaomiao", "Mandarin"),
    ("nyaa", "Japanese"),
    ("yaong", "Korean"),
    ("meo", "Vietnamese"),
    ("ngiyaw", "Tagalog"),
    ("meong", "Indonesian"),
    ("ngiau", "Malay"),
    ("nyau", "Swahili"),
)


def cat_of(card):
    return card // HAND


def card_name(card):
    """A card as a station shows it, e.g. 'Cleo peeking'."""
    return "%s %s" % (CATS[card // HAND][0], POSES[card % HAND])


def combinations(items, k):
    """Every k-item tuple from `items`, keeping their order."""
    n = len(items)
    if not 0 < k <= n:
        return
    idx = list(range(k))
    while True:
        yield tuple(items[i] for i in idx)
        i = k - 1
        while i >= 0 and idx[i] == i + n - k:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1


def take_offer(offers, oid):
    """Remove the open offer numbered `oid` from `offers` and return it."""
    for i, offer in enumerate(offers):
        if offer[0] == oid:
            return offers.pop(i)


def offer_holding(offers, card):
    """The open offer that holds `card`, or None."""
    for offer in offers:
        if card in offer[2]:
            return offer
    return None


def free_groups(owner, offers, cats, player):
    """The player's cards in no open offer, one ascending list per cat."""
    offered = set()
    for offer in offers:
        if offer[1] == player:
            for card in offer[2]:
                offered.add(card)
    groups = []
    for cat in cats:
        group = [c for c in range(cat * HAND, cat * HAND + HAND)
                 if owner[c] == player and c not in offered]
        if group:
            groups.append(group)
    return groups
