# Invariants of Purrfect, checked after every action of a played game. The
# hypothesis properties (tests/test_purrfect_properties.py) and the seeded
# runs in test_purrfect_properties_seeded.py share these, so MicroPython
# checks the same properties on a smaller sample.
from catnip import rules
from catnip.rules.engine import RuleError
from catnip.rules.purrfect import CATS, HAND, MEOWS, NOBODY, STATIONS
from catnip.rules.rng import Rng


def deck(game):
    return [c for cat in game.cats for c in range(cat * HAND, cat * HAND + HAND)]


def hands(game):
    """Every player's cards, read straight from the table."""
    held = [[] for _ in range(game.players())]
    for card, p in enumerate(game.owner):
        if p != NOBODY:
            held[p].append(card)
    return held


def check_table(game):
    """Nine cards a hand, every card of the decks in play held once and no
    other, every open offer 1-4 cards of one cat held by its offerer, no
    card in two offers. Returns the hands."""
    if game.config["mode"] != STATIONS:
        assert not game.cats and not game.offers
        return []
    held = hands(game)
    total = 0
    for p, hand in enumerate(held):
        assert len(hand) == HAND, "player %d holds %d cards" % (p, len(hand))
        total += len(hand)
        for card in hand:
            assert card // HAND in game.cats, "card %d is from a deck not in play" % card
    assert total == len(game.cats) * HAND, "cards of the decks in play went missing"
    seen = set()
    last = 0
    for oid, by, cards in game.offers:
        assert last < oid < game.next_offer, "offer ids out of order"
        last = oid
        assert 1 <= len(cards) <= 4
        for card in cards:
            assert game.owner[card] == by, "offered card %d is not the offerer's" % card
            assert card // HAND == cards[0] // HAND, "offer #%d mixes cats" % oid
            assert card not in seen, "card %d is in two open offers" % card
            seen.add(card)
    return held


def secret_in(game, text):
    """The seed appears in text (checked for seeds long enough to mean it)."""
    return len(game.seed) >= 16 and game.seed in text


EVENT_KEYS = ("type", "offer", "player", "by", "meow", "round", "declarer",
              "best", "counts", "pawprints", "winner", "reason")


def check_events(game, events):
    """Events hold only the fields we promise: no card, no cat, no count."""
    words = [MEOWS[i][0] for i in game.meows]
    for e in events:
        for key in e:
            assert key in EVENT_KEYS, "event field %r is not public" % key
        if "meow" in e:
            assert e["meow"] in words
    assert not secret_in(game, repr(events))


def check_public(game):
    pub = game.public()
    for o in pub.get("offers", []):
        assert sorted(o) == ["meow", "offer", "player"], o
    assert not secret_in(game, repr(pub))
    return pub


class Watch:
    """Called after every action: the table holds, only a swap moves cards
    and exactly as agreed, and events carry nothing secret."""

    def __init__(self, game):
        self.before = check_table(game)
        self.offers = list(game.offers)
        self.actions = 0

    def __call__(self, game, player, action, events):
        self.actions += 1
        after = check_table(game)
        check_events(game, events)
        if game.config["mode"] != STATIONS or events[-1]["type"] == "deal":
            pass  # no hands, or a new deal: nothing to compare across
        elif action[0] == "accept":
            self.check_swap(game, player, action, events, after)
        else:
            assert after == self.before, "%r moved cards" % (action,)
        self.before = after
        self.offers = list(game.offers)

    def check_swap(self, game, player, action, events, after):
        offer = [o for o in self.offers if o[0] == action[1]][0]
        offered, given = sorted(offer[2]), sorted(action[2:])
        by = offer[1]
        assert len(offered) == len(given)
        for p in range(game.players()):
            if p == player:
                want = sorted([c for c in self.before[p] if c not in given] + offered)
            elif p == by:
                want = sorted([c for c in self.before[p] if c not in offered] + given)
            else:
                want = self.before[p]
            assert after[p] == want, "the swap of offer #%d moved the wrong cards" % action[1]
        assert events[0] == {"type": "swap", "offer": action[1], "player": by,
                             "by": player, "meow": game._meow(given)}


class Twin:
    """The same game with its cats and poses relabelled by a random symmetry,
    played in lockstep with relabelled actions. Events and public() must
    not change: then they cannot depend on who holds which cat, nor on which
    cat an offer shows. Each player's own view changes exactly by the
    relabelling. `deep()` also swaps two players' cards for a moment and
    checks that public() and nobody else's view() notice."""

    def __init__(self, game, seed):
        self.rng = Rng(seed)
        self.game = rules.new("purrfect", game.config, game.seed)
        self.relabel(game)
        self.deep(game)

    def relabel(self, game):
        cats = list(game.cats)
        self.rng.shuffle(cats)
        self.map = list(range(len(CATS) * HAND))
        for i, cat in enumerate(game.cats):
            poses = list(range(HAND))
            self.rng.shuffle(poses)
            for pose in range(HAND):
                self.map[cat * HAND + pose] = cats[i] * HAND + poses[pose]
        for card in deck(game):
            self.game.owner[self.map[card]] = game.owner[card]
        self.game.offers = [(oid, by, tuple(sorted(self.map[c] for c in cards)))
                            for oid, by, cards in game.offers]

    def __call__(self, game, player, action, events):
        mapped = action
        if action[0] == "offer":
            mapped = ("offer",) + tuple(self.map[c] for c in action[1:])
        elif action[0] == "accept":
            mapped = action[:2] + tuple(self.map[c] for c in action[2:])
        twin_events = self.game.act(player, mapped)
        assert twin_events == events, "events depend on the cats: %r / %r" % (events, twin_events)
        if events[-1]["type"] == "deal":
            self.relabel(game)

    def deep(self, game):
        assert self.game.public() == check_public(game), "public() depends on the cats"
        for p in range(game.players()):
            mine = game.private(p)
            twin = self.game.private(p)
            if not mine:
                assert not twin
                continue
            assert sorted(twin) == sorted(mine) == ["hand", "offered"]
            assert twin["hand"] == sorted(self.map[c] for c in mine["hand"])
            assert twin["offered"] == [[oid, sorted(self.map[c] for c in cards)]
                                       for oid, cards in mine["offered"]]
        if game.result() is None:
            self.check_others_blind(game)

    def check_others_blind(self, game):
        """Exchange a card between two players behind the engine's back:
        public() and every other player's view() must stay the same."""
        n = game.players()
        a = self.rng.below(n)
        b = (a + 1 + self.rng.below(n - 1)) % n
        ca = self.rng.choice(game.hand(a))
        cb = self.rng.choice(game.hand(b))
        views = [game.view(p) for p in range(n)]
        game.owner[ca], game.owner[cb] = b, a
        try:
            for p in range(n):
                if p not in (a, b):
                    assert game.view(p) == views[p], "player %d sees others' cards" % p
        finally:
            game.owner[ca], game.owner[cb] = a, b
        assert game.view(a) == views[a]


def check_legal(game, player, rng, samples=12):
    """legal() is exact: listed actions (a random sample of them) pass
    check() unchanged, and random probes near the legal ones pass check()
    exactly when their canonical form is listed. The game is not changed.
    Returns the number of legal actions."""
    listed = game.legal(player)
    actions = set(listed)
    assert len(actions) == len(listed), "legal() lists an action twice"
    refused = None
    for _ in range(samples):
        action = rng.choice(listed)
        assert game.check(player, action) == action, "legal %r refused" % (action,)
        probe = random_probe(game, player, rng)
        try:
            canonical = game.check(player, probe)
        except RuleError:
            assert canonical_form(probe) not in actions, "legal %r refused" % (probe,)
            refused = probe
        else:
            assert canonical in actions, "%r accepted but not listed" % (probe,)
            assert canonical == canonical_form(probe)
    if refused is not None:
        before = snapshot(game)
        try:
            game.act(player, refused)
        except RuleError:
            pass
        else:
            raise AssertionError("act() took %r, which check() refused" % (refused,))
        assert snapshot(game) == before, "a refused %r changed the game" % (refused,)
    return len(listed)


def snapshot(game):
    """The whole state as text, the log by its length (it only ever grows)."""
    state = game.state()
    state["log"] = len(state["log"])
    return repr(state)


def canonical_form(action):
    if action[0] == "offer":
        return ("offer",) + tuple(sorted(action[1:]))
    if action[0] == "accept":
        return action[:2] + tuple(sorted(action[2:]))
    if action[0] == "score":
        return action[:2] + tuple(sorted(action[2:]))
    return action


def random_probe(game, player, rng):
    """An action near the legal ones: mostly the player's own cards, now and
    then someone else's, a stale offer id or a wrong count."""
    kind = rng.choice(("offer", "accept", "withdraw", "declare", "offer", "accept"))
    if kind == "declare":
        return ("declare",) if rng.below(8) else ("declare", 1)
    ids = [o[0] for o in game.offers] + [game.next_offer, 0]
    oid = rng.choice(ids)
    if kind == "withdraw":
        return ("withdraw", oid)
    hand = game.hand(player)
    cat = rng.choice(hand) // HAND
    same = [c for c in hand if c // HAND == cat]
    pool = same if rng.below(3) else hand
    if rng.below(8) == 0:
        pool = pool + [rng.below(len(CATS) * HAND)]
    cards = tuple(rng.choice(pool) for _ in range(rng.below(5) + (rng.below(6) == 0)))
    if kind == "offer":
        return ("offer",) + cards
    return ("accept", oid) + cards


def check_replay(game):
    """A game is its log: replaying it gives the identical state."""
    again = rules.replay(game.record() if game.result() is not None else game.journal())
    assert again == game, "replay differs from the game"


def rig(game, cats, hands, pawprints=None):
    """Set the table by hand for a scenario: the decks in play and each
    player's cards (and, if given, the pawprints so far)."""
    game.cats = sorted(cats)
    for card in range(len(game.owner)):
        game.owner[card] = NOBODY
    for p, hand in enumerate(hands):
        for card in hand:
            game.owner[card] = p
    game.offers = []
    if pawprints is not None:
        game.pawprints = list(pawprints)
    check_table(game)
    return game


def checked_game(players, seed, chooser, noise=2, deep=1):
    """Play a whole game with the sensible players (plus noise/16 uniformly
    random legal actions). After every action: the table, the swap, the
    events, and the relabelled twin's events. After one action in `deep`
    (at random): public() and every view() against the twin, others blind
    to a hand, and legal() exact for a random player. At the end: replay.
    Returns (game, largest legal() checked)."""
    from purrfect_play import play_sensibly

    game = rules.new("purrfect", {"players": players}, seed)
    watch = Watch(game)
    twin = Twin(game, chooser + ":twin")
    pick = Rng(chooser + ":deep")
    largest = [0]

    def each(game, player, action, events):
        watch(game, player, action, events)
        twin(game, player, action, events)
        if pick.below(deep) == 0:
            twin.deep(game)
            if game.result() is None:
                largest[0] = max(largest[0], check_legal(game, pick.below(players), pick))

    play_sensibly(game, chooser, noise=noise, each=each)
    twin = None  # let the twin go before replay builds another game
    check_replay(game)
    return game, largest[0]
