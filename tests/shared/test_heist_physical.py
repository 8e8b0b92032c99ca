# Physical gems: players draw real gems from the cloth bag and the start
# player enters how many of each colour came out. catnip keeps count of what
# is left in the bag and refuses an entry the bag could not have produced.
from heist_check import refused, rigged

from catnip.rules.heist import Heist


def test_the_start_player_enters_the_draw_before_anyone_plays():
    game = rigged([7, 9, 11, 13, 16], players=5, gems="physical", start=3)
    pub = game.public()
    assert pub["phase"] == "gems" and pub["safe_card"] == 7 and pub["safe"] == [0, 0, 0]
    assert game.to_act() == [3]
    refused(game, 0, ("gems", 1, 2, 4), "cannot act now; waiting for 3")
    refused(game, 3, ("play", 3), "the safe is still empty", "player 3 enters")
    events = game.act(3, ("gems", 1, 2, 4))
    assert events == [{"type": "draw", "gems": [1, 2, 4]}]
    pub = game.public()
    assert pub["safe"] == [1, 2, 4] and pub["bag"] == [9, 28, 56]
    assert pub["phase"] == "play" and game.to_act() == [0, 1, 2, 3, 4]


def test_entries_that_do_not_match_the_safe_card_are_refused():
    game = rigged([7, 9, 11, 13, 16], players=5, gems="physical")
    refused(game, 0, ("gems", 1, 2, 3), "the safe card says 7 gems", "make 6")
    refused(game, 0, ("gems", 1, 2, 5), "says 7 gems", "make 8")
    refused(game, 0, ("gems", 1, 2), "three counts")
    refused(game, 0, ("gems", 1, 2, 4, 0), "three counts")
    refused(game, 0, ("gems", -1, 4, 4), "three counts")
    refused(game, 0, ("gems", 1, "2", 4), "three counts")
    refused(game, 0, ("gems", 1.0, 2, 4), "item 1 is 1.0")


def test_entries_the_bag_cannot_hold_are_refused():
    game = rigged([16, 15, 14, 13, 12], players=5, gems="physical")
    refused(game, 0, ("gems", 11, 5, 0), "the bag holds only 10 red gems now")
    game.act(0, ("gems", 10, 6, 0))  # every red came out at once
    for seat in range(5):
        game.act(seat, ("play", 1))
    msg = refused(game, 1, ("gems", 1, 5, 9), "only 0 red gems now (10 came out before)")
    assert "count the red gems again" in msg
    game.act(1, ("gems", 0, 15, 0))
    for seat in range(5):
        game.act(seat, ("play", 2))
    refused(game, 2, ("gems", 0, 10, 4), "only 9 yellow gems now (21 came out before)")
    assert game.public()["bag"] == [0, 9, 60]


def test_legal_lists_every_possible_draw_and_nothing_else():
    game = rigged([16, 15, 14, 13, 12], players=5, gems="physical")
    legal = game.legal(0)
    # r + y + b = 16 with r <= 10: all 153 splits except the 6+5+4+3+2+1 with r > 10.
    assert len(legal) == 153 - 21 and len(set(legal)) == len(legal)
    assert ("gems", 10, 6, 0) in legal and ("gems", 0, 0, 16) in legal
    assert ("gems", 11, 5, 0) not in legal
    assert all(sum(a[1:]) == 16 for a in legal)
    game.act(0, ("gems", 10, 6, 0))
    for seat in range(5):
        game.act(seat, ("play", 1))
    assert game.legal(1) == [("gems", 0, y, 15 - y) for y in range(16)]


def test_physical_games_use_no_randomness_for_gems():
    # Same seed and the same entries give the same game; the draws are the
    # players', so only the safe cards come from the seed.
    a = Heist({"players": 3, "gems": "physical"}, "physical")
    b = Heist({"players": 3, "gems": "digital"}, "physical")
    assert a.public()["safe_card"] == b.public()["safe_card"]
    n = a.public()["safe_card"]
    a.act(0, ("gems", 0, 0, n))
    assert a.public()["bag"] == [10, 30, 60 - n]
