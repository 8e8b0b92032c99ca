# What each screen may show. Face-down cards, the order of the safe cards,
# what is behind each player's shield and the seed stay off public(), public
# events and other players' views; whether a player has committed is public.
import json

from check import message
from heist_check import Watch, play_round, rigged
from playout import play_randomly

from catnip.rules.engine import RuleError
from catnip.rules.heist import Heist


def test_committing_is_public_the_card_is_not():
    game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="committing")
    events = game.act(1, ("play", 5))
    assert events == [{"type": "play", "player": 1, "cards": 1}]
    seats = game.public()["seats"]
    assert [s["committed"] for s in seats] == [False, True, False]
    assert [s["face_down"] for s in seats] == [0, 1, 0]
    assert game.view(1)["face_down"] == [5]
    assert game.view(0)["face_down"] == [] and game.view(2)["face_down"] == []
    assert game.to_act() == [0, 2]


def test_the_safe_cards_still_face_down_are_only_counted():
    game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="safe order")
    pub = game.public()
    assert pub["safe_card"] == 9 and pub["safe_cards_shown"] == [9]
    assert pub["safe_cards_left"] == 5
    text = json.dumps([game.public()] + [game.view(p) for p in range(3)])
    assert "10" not in text  # the last safe card, nowhere yet


def test_shields_hide_earlier_rounds_only_this_rounds_loot_is_open():
    game = rigged([5, 6, 7, 8, 9, 10], players=3, gems="physical")
    play_round(game, [1, 2, 3], gems=(0, 0, 5))
    seats = game.public()["seats"]
    assert [s["loot"] for s in seats] == [[0, 0, 0, 0]] * 3
    assert game.view(2)["shield"] == [0, 0, 2, 1] and game.view(2)["score"] == 1
    assert game.view(0)["shield"] == [0, 0, 1, 0]
    assert "shield" not in json.dumps(game.public())


def test_the_seed_stays_secret_until_the_end():
    game = Heist({"players": 4}, "a secret seed")
    assert game.header()["seed_commit"] == game.seed_commit and "seed" not in game.header()
    assert "until the game ends" in message(RuleError, game.record)
    play_randomly(game, "to the end")
    record = game.record()
    assert record["seed"] == "a secret seed" and record["log"]["count"] == len(game.log)


def test_every_view_is_public_plus_ones_own():
    game = Heist({"players": 5}, "views")
    game.act(2, ("play", 4))
    pub = game.public()
    for p in range(5):
        view = game.view(p)
        assert view["you"] == p
        assert {k: view[k] for k in pub} == pub
        assert sorted(set(view) - set(pub)) == ["face_down", "hand", "score", "shield",
                                                "used", "you"]


# The secrecy checker must catch each kind of leak, or the properties that use
# it prove nothing.

class ShowsFaceDown(Heist):
    def public(self):
        v = Heist.public(self)
        v["peek"] = [list(f) for f in self.face_down]
        return v


class ShowsNextSafeCard(Heist):
    def public(self):
        v = Heist.public(self)
        v["next"] = self.safe_deck[-1] if self.safe_deck else None
        return v


class ShowsShields(Heist):
    def public(self):
        v = Heist.public(self)
        v["scores"] = [sum(s) for s in self.shields]
        return v


class TellsTheCardInEvents(Heist):
    def apply(self, player, action):
        events = Heist.apply(self, player, action)
        for e in events:
            if e["type"] == "play":
                e["cards"] = list(self.face_down[player])
        return events


class ShowsOthersCards(Heist):
    def private(self, player):
        v = Heist.private(self, player)
        v["left"] = list(self.face_down[(player + 1) % self.players()])
        return v


class ShowsTheSeed(Heist):
    def public(self):
        v = Heist.public(self)
        v["s"] = self.seed
        return v


def _leak_found(cls):
    """Play a leaky game under the watch; the message of the first failure."""
    game = cls({"players": 4}, "a leaky table")
    watch = Watch(game)
    msg = message(AssertionError, play_randomly, game, "leak", 200, watch)
    assert game.result() is None, cls.__name__
    return msg


def test_the_checker_catches_every_kind_of_leak():
    cases = [
        (ShowsFaceDown, "public() shows a face-down card"),
        (ShowsNextSafeCard, "public() shows the safe card order"),
        (ShowsShields, "public() shows a shield"),
        (TellsTheCardInEvents, "an event depends on a face-down card"),
        (ShowsOthersCards, "view shows a face-down card"),
        (ShowsTheSeed, "the seed leaked"),
    ]
    for cls, words in cases:
        msg = _leak_found(cls)
        assert words in msg, (cls.__name__, msg)


def test_the_checker_passes_an_honest_game():
    game = Heist({"players": 4}, "honest")
    watch = Watch(game)
    play_randomly(game, "honest", each=watch)
    assert watch.secrecy_checks == len(game.log)
