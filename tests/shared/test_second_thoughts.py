# Second thoughts, as rules actions that are logged and replayed: a Meow
# Heist card taken back until the last player locks (('unlock',)), and the
# last confirmed result taken back by its player so they can report it again
# (('correct',)) until anyone acts next: a Stack O' Cats placement or
# collapse, a Purrfect answer or a scorekeeper's round. Nothing secret is in
# their events, and a refused one changes nothing.
import json

from check import message
from heist_check import refused, rigged

from catnip import rules
from catnip.rules.engine import RuleError, replay
from catnip.rules.heist import Heist
from catnip.rules.purrfect import HAND


def _state(game):
    s = game.state()
    del s["log"], s["last"]  # the log grows; a correction reaches one result back only
    return s


def _replays(game):
    again = replay(type(game), json.loads(json.dumps(game.journal())))
    assert again == game
    assert [again.view(p) for p in range(game.players())] == [
        game.view(p) for p in range(game.players())]


# ---- Meow Heist: a locked card comes back until the last player locks ----------


def test_a_locked_card_is_taken_back_as_if_never_played():
    game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="unlock")
    fresh = _state(game)
    game.act(1, ("play", 5))
    assert game.to_act() == [0, 2] and game.legal(1) == []
    events = game.act(1, ("unlock",))
    assert events == [{"type": "unlock", "player": 1, "cards": 1}]
    assert _state(game) == fresh
    assert game.to_act() == [0, 1, 2]
    game.act(1, ("play", 3))
    game.act(0, ("play", 1))
    events = game.act(2, ("play", 2))
    assert [(e["player"], e["card"]) for e in events if e["type"] == "take"] == [
        (0, 1), (1, 3), (2, 2)]
    assert game.log[1] == (1, ("unlock",))
    _replays(game)


def test_taking_back_shows_no_card_anywhere_but_the_players_own_station():
    # Two tables alike but for the card player 2 locked and took back: every
    # screen but player 2's, and every event, must be the same on both.
    seen = []
    for card in (6, 1):
        game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="unlock quietly")
        events = game.act(2, ("play", card)) + game.act(2, ("unlock",))
        seen.append(json.dumps([events, game.public(), game.view(0), game.view(1)]))
        assert game.view(2)["hand"].count(card) == 1 and game.view(2)["face_down"] == []
        assert [s["committed"] for s in game.public()["seats"]] == [False, False, False]
    assert seen[0] == seen[1]


def test_nothing_is_taken_back_after_the_last_lock_or_before_a_lock():
    game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="too late")
    assert "not locked" in refused(game, 0, ("unlock",))
    game.act(0, ("play", 1))
    assert "takes nothing else" in refused(game, 0, ("unlock", 1))
    game.act(1, ("play", 3))
    game.act(2, ("play", 4))
    assert game.public()["round"] == 2
    assert "not locked" in refused(game, 0, ("unlock",))
    assert "waiting for" not in message(RuleError, game.act, 0, ("unlock",))


def test_two_players_take_back_every_card_of_the_round():
    game = Heist({"players": 2}, "two unlock")
    game.act(0, ("play", 1))
    game.act(1, ("play", 6))
    game.act(0, ("play", 2, 3))  # round 2: two cards each
    held = game.view(0)["hand"]
    assert game.act(0, ("unlock",)) == [{"type": "unlock", "player": 0, "cards": 2}]
    assert game.view(0)["hand"] == sorted(held + [2, 3])
    game.act(0, ("play", 3, 6))
    assert game.view(0)["face_down"] == [3, 6]
    _replays(game)


def test_corrections_are_not_meow_heist_actions():
    game = rigged([9, 5, 6, 7, 8, 10], players=3, seed="no correct")
    game.act(0, ("play", 2))
    assert "unlock" in refused(game, 0, ("correct",), "nothing to correct")


# ---- Stack O' Cats: the last placement or collapse, by its player ------------------


def _stack(players=3, seed="fix"):
    return rules.new("stack", {"players": players}, seed)


def test_a_placement_is_taken_back_and_reported_again():
    game = _stack()
    p = game.to_act()[0]
    game.act(p, ("draw",))
    before = _state(game)
    assert game.corrector() is None
    game.act(p, ("place", 1, 0))
    assert game.corrector() == p and game.to_act() == [(p + 1) % 3]
    assert game.act(p, ("correct",)) == [{"type": "correct", "player": p}]
    assert _state(game) == before and game.corrector() is None
    game.act(p, ("place", 1, 0))
    assert game.public()["scores"][p] == 2
    _replays(game)


def test_a_collapse_is_taken_back_by_the_player_who_is_still_to_act():
    game = _stack(seed="fall")
    while game.public()["tower"] < 5:
        q = game.to_act()[0]
        game.act(q, ("draw",))
        game.act(q, ("place", 1, 0))
    p = game.to_act()[0]
    game.act(p, ("draw",))
    before, score, tower = _state(game), game.public()["scores"][p], game.public()["tower"]
    game.act(p, ("collapse", 3, 0))
    assert game.public()["scores"][p] == score - 3 and game.to_act() == [p]
    game.act(p, ("correct",))
    assert _state(game) == before
    game.act(p, ("collapse", 1, 0))
    assert game.public()["scores"][p] == score - 1 and game.public()["tower"] == tower - 1
    _replays(game)


def test_only_the_reporter_corrects_and_only_until_anyone_acts_next():
    game = _stack(seed="window")
    p = game.to_act()[0]
    q = (p + 1) % 3
    assert "nothing to correct" in refused(game, p, ("correct",))
    game.act(p, ("draw",))
    assert "nothing to correct" in refused(game, p, ("correct",))  # a digital draw stands
    game.act(p, ("place", 1, 0))
    assert "only player %d" % p in refused(game, q, ("correct",))
    assert "takes nothing else" in refused(game, p, ("correct", "place", 2, 0))
    game.act(q, ("draw",))
    assert "nothing to correct" in refused(game, p, ("correct",))
    assert game.corrector() is None


def test_a_colour_reported_from_the_bag_is_corrected_but_a_digital_draw_stands():
    game = rules.new("stack", {"players": 2, "draw": "physical"}, "colours")
    while game.public()["phase"] == "setup":
        p = game.to_act()[0]
        game.act(p, game.legal(p)[0])
    p = game.to_act()[0]
    before = _state(game)
    colours = [a[1] for a in game.legal(p)]
    game.act(p, ("drew", colours[0]))
    assert game.corrector() == p
    game.act(p, ("correct",))
    assert _state(game) == before
    game.act(p, ("drew", colours[-1]))
    assert game.public()["hand"] == colours[-1]
    _replays(game)


def test_a_correction_is_one_step_back_not_a_history_rewrite():
    game = _stack(seed="once")
    p = game.to_act()[0]
    game.act(p, ("draw",))
    game.act(p, ("place", 1, 0))
    game.act(p, ("correct",))
    assert "nothing to correct" in refused(game, p, ("correct",))
    assert [a[0] for _, a in game.log][-3:] == ["draw", "place", "correct"]


# ---- Purrfect: an answer put back, a round scored again ----------------------------


def _purrfect(seed="answer"):
    return rules.new("purrfect", {"players": 4}, seed)


def test_an_answer_is_put_back_and_the_offer_opens_again():
    game = _purrfect()
    h0, h1 = game.hand(0), game.hand(1)
    offer = game.act(0, ("offer", h0[0]))[0]["offer"]
    before = _state(game)
    game.act(1, ("accept", offer, h1[0]))
    assert game.corrector() == 1
    events = game.act(1, ("correct",))
    assert events == [{"type": "correct", "player": 1}]
    assert _state(game) == before
    assert [o["offer"] for o in game.public()["offers"]] == [offer]
    assert game.hand(0) == h0 and game.hand(1) == h1
    _replays(game)


def test_an_answer_stands_once_anyone_acts_and_only_its_giver_takes_it_back():
    game = _purrfect(seed="stands")
    h0, h1, h2 = game.hand(0), game.hand(1), game.hand(2)
    offer = game.act(0, ("offer", h0[0]))[0]["offer"]
    game.act(1, ("accept", offer, h1[0]))
    assert "only player 1" in refused(game, 0, ("correct",))
    game.act(2, ("offer", h2[0]))
    assert "nothing to correct" in refused(game, 1, ("correct",))


def test_a_correction_tells_no_card():
    game = _purrfect(seed="quiet")
    h0, h1 = game.hand(0), game.hand(1)
    offer = game.act(0, ("offer", h0[0]))[0]["offer"]
    game.act(1, ("accept", offer, h1[0]))
    events = game.act(1, ("correct",))
    text = json.dumps([events, game.public(), game.view(2), game.view(3)])
    for card in (h0[0], h1[0]):
        assert game.view(2)["hand"].count(card) == 0
        assert ("%d %s" % (card // HAND, card)) not in text


def test_a_scorekeepers_round_is_entered_again():
    game = rules.new("purrfect", {"players": 4, "mode": "scorekeeper"}, "paper")
    before = _state(game)
    game.act(2, ("score", 1, 3))
    assert game.public()["pawprints"] == [0, 2, 0, 1]
    game.act(2, ("correct",))
    assert _state(game) == before
    game.act(2, ("score", 1, 0))
    assert game.public()["pawprints"] == [1, 2, 0, 0]
    _replays(game)


def test_each_correction_replays_the_log_once_however_many_came_before():
    # A replay that corrected again at every earlier correction would double
    # its work with each one: 20 of them took minutes on the laptop.
    from catnip.rules.stack import Stack

    applied = [0]

    class Counted(Stack):
        def apply(self, player, action):
            applied[0] += 1
            return Stack.apply(self, player, action)

    game = Counted({"players": 3}, "again")
    for _ in range(20):
        p = game.to_act()[0]
        game.act(p, ("draw",))
        game.act(p, ("place", 1, 0))
        applied[0] = 0
        game.act(p, ("correct",))
        assert applied[0] <= len(game.log)
        game.act(p, ("place", 1, 0))
    assert game.corrector() is not None
    _replays(game)
