# Purrfect: swap same-cat cards face down until one hand holds nine of a cat.
# Rules: shared/rules/purrfect-rulebook.txt; our readings are in docs/purrfect.md.
#
# Hands live on the players' stations and the device carries out every swap,
# so the engine enforces what the paper game leaves to honesty: an offer holds
# one cat only, an accepted offer is answered with as many cards of one cat,
# and no screen but its holder's ever shows a hand or an offered cat.
#
# A card is an int, cat * 9 + pose, over all seven cats. `owner` is a 63-byte
# array holding each card's player (NOBODY for the cats left in the box), so
# every hand holds exactly its cards and no card can be in two places. An open
# offer is a tuple (id, player, cards); ids count up through the game. The id,
# the player and the meow for the offer's size are public; the size is shown
# only as its meow, and the cat never.
from catnip.rules.about import about, settle
from catnip.rules.engine import Game, RuleError, describe
from catnip.rules.purrfect_cards import (  # noqa: F401
    CATS, HAND, MEOWS, POSES, card_name, cat_of, combinations, free_groups, offer_holding,
    take_offer)
from catnip.rules.purrfect_score import GOAL, check_score, decide, ranks  # noqa: F401

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


MAX_OFFER = const(4)
NOBODY = const(255)

STATIONS = "stations"  # the device holds the hands and makes the swaps
SCOREKEEPER = "scorekeeper"  # paper cards; the device keeps meows and score


class Purrfect(Game):
    NAME = "purrfect"
    EXAMPLE = "('offer', 12, 13)"
    CORRECTABLE = ("accept", "score")
    CORRECTS = ("only the last answer to an offer or round scored, by whoever made it, "
                "until anyone acts next")

    # ---- setting up ----------------------------------------------------------

    def settle(self, config):
        return settle(about(self.NAME), config, "Purrfect")

    def setup(self):
        n = self.players()
        words = list(range(len(MEOWS)))
        self.rng.shuffle(words)
        self.meows = words[:MAX_OFFER]  # meows[k - 1] is said for k cards
        self.pawprints = [0] * n
        self.rounds = []  # [declarer, [best...]] per finished round
        self.round = 1
        self.winner = None
        self.reason = None  # why the game ended (engine.Game.result's reasons)
        self.offers = []
        self.next_offer = 1
        self.owner = bytearray([NOBODY] * (len(CATS) * HAND))
        self.cats = []
        if self.config["mode"] == STATIONS:
            order = list(range(len(CATS)))
            self.rng.shuffle(order)
            # Which decks are in play is seen at the table; the draw order is not.
            self.cats = sorted(order[:n])
            self._deal()

    def _deal(self):
        # The deck in one piece of its own size, not a list grown card by
        # card: a long game's heap may have no hole for the list's last step.
        deck = bytearray(len(self.cats) * HAND)
        i = 0
        for cat in self.cats:
            for c in range(cat * HAND, cat * HAND + HAND):
                deck[i] = c
                i += 1
        self.rng.shuffle(deck)
        for i, card in enumerate(deck):
            self.owner[card] = i // HAND
        self.offers = []

    # ---- who acts, and what they may do -------------------------------------

    def to_act(self):
        # Offers, swaps and declarations have no turn order.
        return [] if self.winner is not None else list(range(self.players()))

    def options(self, player):
        return list(self._each_legal(player))

    def each_legal(self, player):
        """legal() one action at a time. A player with nine of a cat facing
        many 4-card offers has nearly 2,000 actions, so a station never lists
        them: it builds an action from the player's picks and vets it with
        check()."""
        return self._each_legal(self.seat(player))

    def _each_legal(self, player):
        if self.winner is not None:
            return
        if self.config["mode"] == SCOREKEEPER:
            n = self.players()
            for declarer in range(n):
                others = [p for p in range(n) if p != declarer]
                for mask in range(1, 1 << len(others)):
                    best = tuple(p for i, p in enumerate(others) if mask >> i & 1)
                    yield ("score", declarer) + best
            return
        yield ("declare",)
        groups = free_groups(self.owner, self.offers, self.cats, player)
        for k in range(1, MAX_OFFER + 1):
            for group in groups:
                for cards in combinations(group, k):
                    yield ("offer",) + cards
        for oid, by, cards in self.offers:
            if by == player:
                yield ("withdraw", oid)
        for oid, by, cards in self.offers:
            if by != player:
                for group in groups:
                    for given in combinations(group, len(cards)):
                        yield ("accept", oid) + given

    def check(self, player, action):
        """The action in canonical form (cards and players in ascending order)
        if `player` may take it now, else RuleError saying why, exactly as
        act() would refuse it. Changes nothing: a station can call it to vet
        an action before sending it."""
        return self._check(player, self.admit(player, action))

    def _check(self, player, action):
        kind = action[0]
        if kind == "correct":  # admit() checked it
            return action
        if self.config["mode"] == SCOREKEEPER:
            if kind != "score":
                raise RuleError(
                    "in scorekeeper mode the only action is ('score', declarer, "
                    "best, ...): who declared, then who held the best hand"
                )
            return check_score(action, self.players())
        if kind == "declare":
            if len(action) != 1:
                raise RuleError("('declare',) takes nothing else")
            return action
        if kind == "offer":
            return ("offer",) + self._own_cards(player, action[1:], "an offer")
        if kind == "withdraw":
            if len(action) != 2:
                raise RuleError("write it as ('withdraw', offer_id)")
            offer = self._open_offer(action[1])
            if offer[1] != player:
                raise RuleError(
                    "offer #%d is player %d's; only they can withdraw it"
                    % (offer[0], offer[1])
                )
            return action
        if kind == "accept":
            if len(action) < 2:
                raise RuleError("write it as ('accept', offer_id, card, ...)")
            offer = self._open_offer(action[1])
            if offer[1] == player:
                raise RuleError(
                    "offer #%d is your own; withdraw it instead of accepting it" % offer[0]
                )
            given = self._own_cards(player, action[2:], "an answer")
            if len(given) != len(offer[2]):
                raise RuleError(
                    "offer #%d is a '%s': answer with the number of cards that "
                    "meow stands for (you gave %d)"
                    % (offer[0], self._meow(offer[2]), len(given))
                )
            return ("accept", offer[0]) + given
        raise RuleError(
            "unknown action %r; Purrfect takes 'offer', 'withdraw', 'accept' "
            "and 'declare'" % (kind,)
        )

    def _own_cards(self, player, cards, what):
        """Cards `player` may put face down now, sorted; RuleError if not."""
        if not 1 <= len(cards) <= MAX_OFFER:
            raise RuleError("%s is 1 to %d cards, not %d" % (what, MAX_OFFER, len(cards)))
        owner, offers = self.owner, self.offers  # locals: every offer and answer comes here
        for card in cards:
            if type(card) is not int or not 0 <= card < len(owner):
                raise RuleError("%r is not a card; cards are numbered 0-62" % (card,))
            if owner[card] != player:
                raise RuleError("%s is not in your hand" % card_name(card))
            offer = offer_holding(offers, card) if offers else None
            if offer is not None:
                raise RuleError(
                    "%s is already in your offer #%d; withdraw that offer to use it"
                    % (card_name(card), offer[0])
                )
        cards = tuple(sorted(cards))
        cat = cards[0] // HAND  # cat_of(), inlined: every offer and answer comes here
        for i in range(1, len(cards)):
            if cards[i] == cards[i - 1]:
                raise RuleError("%s is listed twice" % card_name(cards[i]))
            if cards[i] // HAND != cat:
                raise RuleError(
                    "%s must show one cat only: %s and %s differ"
                    % (what, card_name(cards[0]), card_name(cards[i]))
                )
        return cards

    def _open_offer(self, oid):
        if type(oid) is not int:
            raise RuleError("an offer is named by its number, e.g. ('withdraw', 3), not %s"
                            % describe(oid))
        for offer in self.offers:
            if offer[0] == oid:
                return offer
        raise RuleError(
            "offer #%s is not open (withdrawn, taken, or from another round); "
            "choose one of the open offers" % (oid,)
        )

    # ---- carrying actions out ----------------------------------------------

    def apply(self, player, action):
        action = self._check(player, action)
        kind = action[0]
        if kind == "offer":
            return self._offer(player, action[1:])
        if kind == "withdraw":
            return self._withdraw(action[1])
        if kind == "accept":
            return self._accept(player, action[1], action[2:])
        if kind == "declare":
            return self._declare(player)
        return self._end_round(action[1], list(action[2:]), None)

    def _offer(self, player, cards):
        oid = self.next_offer
        self.next_offer += 1
        self.offers.append((oid, player, cards))
        return [{"type": "offer", "offer": oid, "player": player, "meow": self._meow(cards)}]

    def _withdraw(self, oid):
        offer = take_offer(self.offers, oid)
        return [{"type": "withdraw", "offer": oid, "player": offer[1],
                 "meow": self._meow(offer[2])}]

    def _accept(self, player, oid, given):
        offer = take_offer(self.offers, oid)
        for card in offer[2]:
            self.owner[card] = player
        for card in given:
            self.owner[card] = offer[1]
        return [{"type": "swap", "offer": oid, "player": offer[1], "by": player,
                 "meow": self._meow(given)}]

    def _declare(self, player):
        hand = self.hand(player)  # ascending, so one cat iff the ends agree
        if cat_of(hand[0]) != cat_of(hand[-1]):
            # Everyone heard the claim; only the fact that it failed is public.
            return [{"type": "false declaration", "player": player}]
        # The others count their best combinations aloud: these are public.
        counts = [self.best_count(p) for p in range(self.players())]
        others = [p for p in range(self.players()) if p != player]
        top = max(counts[p] for p in others)
        return self._end_round(player, [p for p in others if counts[p] == top], counts)

    # ---- scoring, one mechanism for both modes ------------------------------

    def _end_round(self, declarer, best, counts):
        """Score a round: two pawprints to the declarer, one to each holder of
        the best hand among the others; then end the game or start the next."""
        self.pawprints[declarer] += 2
        for p in best:
            self.pawprints[p] += 1
        self.rounds.append([declarer, best])
        event = {"type": "round over", "round": self.round, "declarer": declarer,
                 "best": list(best), "pawprints": list(self.pawprints)}
        if counts is not None:
            event["counts"] = counts
        events = [event]
        self.offers = []
        self.winner, self.reason = decide(self.pawprints, declarer)
        if self.winner is not None:
            events.append({"type": "game over", "winner": self.winner, "reason": self.reason})
            return events
        self.round += 1
        if self.config["mode"] == STATIONS:
            self._deal()
            events.append({"type": "deal", "round": self.round})
        return events

    # ---- what the screens show ----------------------------------------------

    def hand(self, player):
        """The player's nine cards, ascending (their own station only)."""
        return [c for c, p in enumerate(self.owner) if p == player]

    def best_count(self, player):
        """How many cards of one cat the player's best combination holds."""
        counts = [0] * len(CATS)
        for c, p in enumerate(self.owner):
            if p == player:
                counts[c // HAND] += 1
        return max(counts)

    def _meow(self, cards):
        return MEOWS[self.meows[len(cards) - 1]][0]

    def public(self):
        v = {
            "game": self.NAME,
            "mode": self.config["mode"],
            "players": self.players(),
            # The table's legend: meows[k - 1] is said to offer k cards.
            "meows": [list(MEOWS[i]) for i in self.meows],
            "round": self.round,
            "pawprints": list(self.pawprints),
            "rounds": [[d, list(b)] for d, b in self.rounds],
            "winner": self.winner,
        }
        if self.config["mode"] == STATIONS:
            v["cats"] = [CATS[c][0] for c in self.cats]
            v["offers"] = [{"offer": oid, "player": by, "meow": self._meow(cards)}
                           for oid, by, cards in self.offers]
        return v

    def private(self, player):
        if self.config["mode"] != STATIONS:
            return {}
        return {
            "hand": self.hand(player),
            "offered": [[oid, list(cards)] for oid, by, cards in self.offers if by == player],
        }

    def standing(self):
        return list(self.pawprints)

    def result(self):
        if self.winner is None:
            return None
        return {"ranks": ranks(self.pawprints, self.winner), "winners": [self.winner],
                "scores": list(self.pawprints),
                "reasons": [self.reason], "unit": "pawprints", "fewest": False,
                "together": False, "winner": self.winner,
                "pawprints": list(self.pawprints)}
