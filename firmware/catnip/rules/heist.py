# Meow Heist: every player secretly plays a numbered cat card, then the cards
# are revealed in turn; a number seen for the first time this round takes that
# many gems from the safe (most valuable first, black rocks for any shortage),
# a repeated number steals everything from its most recent revealer.
#
# Rules: the Meow Heist rulebook (3-6 players, 2-player rules) and the original
# edition (six cards 1-6 for everyone, returned each round). catnip's reading
# of the open points is in docs/heist.md.
#
# Seats are numbered clockwise. Gem counts are lists in colour order
# [red, yellow, blue]; loot adds black rocks: [red, yellow, blue, rocks].
from catnip.rules.about import about, settle
from catnip.rules.engine import Game, RuleError
from catnip.rules.heist_box import (  # noqa: F401
    BAG, BLUE, COLOURS, FULL_SET, GEMS, ONE_EACH, OVER, PLAY, RED, REVEAL, SAFE_CARDS, SET_ASIDE,
    UNLOCK, cat_cards, safe_cards)
from catnip.rules.heist_checks import (check_gems, check_play, check_reveal, gem_entries,
                                       wrong_action)
from catnip.rules.heist_picks import choices as _choices, distinct as _distinct
from catnip.rules.heist_score import POINTS, ROCKS, score, standings  # noqa: F401


class Heist(Game):
    NAME = "heist"
    CORRECTS = ("a locked card is taken back with ('unlock',) until the last player locks; "
                "a revealed card stands")

    # ---- setup -------------------------------------------------------------

    def settle(self, config):
        return settle(about(self.NAME), config, "Meow Heist")

    def setup(self):
        n = self.players()
        cards = cat_cards(n, self.config["variant"])
        # Cards come back every round with two players and in the original edition.
        self.returning = n == 2 or self.config["variant"] == "original"
        self.hands = [list(cards) for _ in range(n)]  # available cards, ascending
        self.used = [[] for _ in range(n)]  # set aside face down for good
        self.face_down = [[] for _ in range(n)]  # this round's secret choices
        self.committed = [False] * n
        self.safe_deck = self.deal_safe_cards()  # secret order; top card last
        self.safe_shown = []
        self.bag = list(BAG)
        self.safe = [0, 0, 0]  # gems in the safe this round
        self.removed = [0, 0, 0]  # gems left in the safe at a round's end
        self.shields = [[0, 0, 0, 0] for _ in range(n)]
        self.table = []  # [seat, card, loot] per revealed card, in reveal order
        self.round = 0
        self.phase = PLAY
        self.turn = None  # the seat due to reveal next
        self._open_round([])

    def deal_safe_cards(self):
        """Shuffle the safe cards face down and count out this game's."""
        deck = safe_cards(self.players())
        self.rng.shuffle(deck)
        return deck[:SAFE_CARDS[self.players()]]

    # ---- the contract ------------------------------------------------------

    def start_player(self):
        return (self.config["start"] + self.round - 1) % self.players()

    def cards_per_round(self):
        return self.round if self.players() == 2 else 1

    def to_act(self):
        if self.phase == GEMS:
            return [self.start_player()]
        if self.phase == PLAY:
            return [p for p in range(self.players()) if not self.committed[p]]
        if self.phase == REVEAL:
            return [self.turn]
        return []

    def options(self, player):
        if player not in self.to_act():
            return []
        if self.phase == GEMS:
            return gem_entries(self)
        if self.phase == PLAY:
            return [("play",) + c for c in _choices(self.hands[player], self.cards_per_round())]
        return [("reveal", v) for v in _distinct(self.face_down[player])]

    def takes_back(self, player, name):
        return name == UNLOCK and self.phase == PLAY and self.committed[player]

    def apply(self, player, action):
        name = action[0]
        if name == UNLOCK:
            return self._unlock(player, action)
        if name != self.phase:  # each phase takes the action of its name
            raise RuleError(wrong_action(self, name))
        events = []
        if name == GEMS:
            check_gems(self, action)
            self.bag = [self.bag[c] - action[1 + c] for c in range(3)]
            self._fill_safe(list(action[1:]), events)
        elif name == PLAY:
            self._play(player, action, events)
        else:
            check_reveal(self, player, action)
            self._reveal(player, action[1], events)
            self._continue_reveals(events)
        return events

    def public(self):
        n = self.players()
        seats = []
        for p in range(n):
            loot = [0, 0, 0, 0]
            for seat, _, on_card in self.table:
                if seat == p:
                    for i in range(4):
                        loot[i] += on_card[i]
            seats.append({
                "hand": len(self.hands[p]),
                "face_down": len(self.face_down[p]),
                "committed": self.committed[p],
                "loot": loot,
            })
        v = {
            "round": self.round,
            "rounds": len(self.safe_shown) + len(self.safe_deck),
            "phase": self.phase,
            "start": self.start_player(),
            "to_act": self.to_act(),
            "turn": self.turn,
            "cards_per_round": self.cards_per_round(),
            "safe_card": self.safe_shown[-1],
            "safe_cards_shown": list(self.safe_shown),
            "safe_cards_left": len(self.safe_deck),
            "safe": list(self.safe),
            "bag": list(self.bag),
            "removed": list(self.removed),
            "table": [[p, card, list(loot)] for p, card, loot in self.table],
            "seats": seats,
        }
        if self.phase == OVER:
            v["result"] = self.result()
        return v

    def private(self, player):
        return {
            "hand": list(self.hands[player]),
            "used": list(self.used[player]),
            "face_down": sorted(self.face_down[player]),
            "shield": list(self.shields[player]),
            "score": score(self.shields[player]),
        }

    def result(self):
        return standings(self.shields) if self.phase == OVER else None

    def standing(self):
        return [score(s) for s in self.shields]

    # ---- rounds ------------------------------------------------------------

    def _open_round(self, events):
        """Reveal the next safe card and fill the safe, or end the game."""
        if not self.safe_deck:
            self.phase = OVER
            events.append({"type": "end", "result": self.result()})
            return
        self.round += 1
        card = self.safe_deck.pop()
        self.safe_shown.append(card)
        events.append({"type": "safe", "round": self.round, "start": self.start_player(),
                       "card": card})
        if self.config["gems"] == "physical":
            self.phase = GEMS
        else:
            self._fill_safe(self._draw(card), events)

    def _draw(self, count):
        """Draw `count` gems from the bag without replacement. The bag never
        runs dry: no player count's safe cards add up to 100 gems."""
        got = [0, 0, 0]
        left = self.bag[0] + self.bag[1] + self.bag[2]
        for _ in range(count):
            k = self.rng.below(left)
            c = RED
            while k >= self.bag[c]:
                k -= self.bag[c]
                c += 1
            self.bag[c] -= 1
            got[c] += 1
            left -= 1
        return got

    def _fill_safe(self, gems, events):
        self.safe = gems
        self.phase = PLAY
        events.append({"type": "draw", "gems": list(gems)})

    def _play(self, player, action, events):
        cards = action[1:]
        check_play(self, player, cards)
        hand = self.hands[player]
        for card in cards:
            hand.remove(card)
        self.face_down[player] = list(cards)
        self.committed[player] = True
        events.append({"type": "play", "player": player, "cards": len(cards)})
        if all(self.committed):
            self.phase = REVEAL
            self.turn = self.start_player()
            self._continue_reveals(events)

    def _unlock(self, player, action):
        if len(action) != 1:
            raise RuleError("('unlock',) takes nothing else: it takes back what you locked")
        if self.phase != PLAY:
            raise RuleError("nothing to take back: cards are taken back only until the last "
                            "player locks")
        if not self.committed[player]:
            raise RuleError("nothing to take back: you have not locked a card this round")
        cards = self.face_down[player]
        self.hands[player] = sorted(self.hands[player] + cards)
        self.face_down[player] = []
        self.committed[player] = False
        return [{"type": UNLOCK, "player": player, "cards": len(cards)}]

    def _continue_reveals(self, events):
        """Pass the turn clockwise to the next seat with face-down cards and
        reveal for it when it has no choice left; end the round when every
        card is up."""
        n = self.players()
        while True:
            seat = self.turn
            for _ in range(n):
                if self.face_down[seat]:
                    break
                seat = (seat + 1) % n
            else:
                self._close_round(events)
                return
            self.turn = seat
            if len(_distinct(self.face_down[seat])) > 1:
                return
            self._reveal(seat, self.face_down[seat][0], events)

    def _reveal(self, player, card, events):
        self.face_down[player].remove(card)
        victim = None
        for entry in self.table:
            if entry[1] == card:
                victim = entry
        if victim is None:
            loot = self._take_from_safe(card)
            events.append({"type": "take", "player": player, "card": card, "loot": list(loot)})
        else:
            # The Thief's Code: the latest card of this number holds its loot.
            loot = victim[2]
            victim[2] = [0, 0, 0, 0]
            events.append({"type": "steal", "player": player, "card": card,
                           "from": victim[0], "loot": list(loot)})
        self.table.append([player, card, loot])
        self.turn = (player + 1) % self.players()

    def _take_from_safe(self, count):
        loot = [0, 0, 0, 0]
        for c in range(RED, BLUE + 1):
            k = min(count, self.safe[c])
            self.safe[c] -= k
            loot[c] = k
            count -= k
        loot[ROCKS] = count  # the rock supply never runs out
        return loot

    def _close_round(self, events):
        for player, card, loot in self.table:
            shield = self.shields[player]
            for i in range(4):
                shield[i] += loot[i]
            if self.returning:
                self.hands[player].append(card)
            else:
                self.used[player].append(card)
        for p in range(self.players()):
            self.hands[p].sort()
            self.used[p].sort()
        left = self.safe
        self.removed = [self.removed[c] + left[c] for c in range(3)]
        events.append({"type": "collect", "round": self.round, "removed": list(left)})
        self.safe = [0, 0, 0]
        self.table = []
        self.committed = [False] * self.players()
        self.turn = None
        self._open_round(events)
