# The 2-player rules: six cards 1-6 each, four safe cards, round r plays r
# cards each, reveals alternate from the start player, each player picks the
# order of their own face-down cards, and every card comes back each round.
# One whole game, worked out by hand, ends in a tie broken by black rocks.
from heist_check import loot_of, refused, rigged

from catnip.rules.heist import Heist


def game():
    return rigged([5, 6, 7, 8], players=2, gems="physical")


def round_one(g):
    g.act(0, ("gems", 0, 0, 5))
    g.act(0, ("play", 2))
    return g.act(1, ("play", 3))


def round_two(g):
    g.act(1, ("gems", 0, 0, 6))
    g.act(0, ("play", 1, 3))
    g.act(1, ("play", 1, 2))
    g.act(1, ("reveal", 2))
    return g.act(0, ("reveal", 3))


def round_three(g):
    g.act(0, ("gems", 0, 0, 7))
    g.act(0, ("play", 1, 2, 3))
    g.act(1, ("play", 1, 2, 4))
    events = g.act(0, ("reveal", 3))
    events += g.act(1, ("reveal", 4))
    events += g.act(0, ("reveal", 1))
    return events + g.act(1, ("reveal", 1))


def test_round_one_single_cards_reveal_by_themselves():
    g = game()
    assert g.public()["cards_per_round"] == 1
    g.act(0, ("gems", 0, 0, 5))
    assert g.legal(0) == [("play", v) for v in range(1, 7)]
    g.act(0, ("play", 2))
    events = g.act(1, ("play", 3))
    assert loot_of(events, "take") == [(0, 2, [0, 0, 2, 0]), (1, 3, [0, 0, 3, 0])]
    assert [g.view(p)["hand"] for p in (0, 1)] == [[1, 2, 3, 4, 5, 6]] * 2
    assert g.public()["start"] == 1 and g.public()["cards_per_round"] == 2


def test_round_r_plays_r_cards_each():
    g = game()
    round_one(g)
    g.act(1, ("gems", 0, 0, 6))
    assert len(g.legal(0)) == 15 and ("play", 1, 3) in g.legal(0)
    refused(g, 0, ("play", 3), "round 2: play 2 cards face down")
    refused(g, 0, ("play", 1, 2, 3), "play 2 cards")
    refused(g, 0, ("play", 3, 1), "ascending order")
    refused(g, 0, ("play", 3, 3), "your 3 is in your hand only once")
    refused(g, 0, ("play", 0, 3), "there is no cat card 0")
    g.act(0, ("play", 1, 3))
    pub = g.public()
    assert [s["face_down"] for s in pub["seats"]] == [2, 0]
    assert [s["committed"] for s in pub["seats"]] == [True, False]
    assert g.view(0)["face_down"] == [1, 3] and g.view(0)["hand"] == [2, 4, 5, 6]


def test_reveals_alternate_from_the_start_player_who_chooses_the_order():
    g = game()
    round_one(g)
    g.act(1, ("gems", 0, 0, 6))
    g.act(0, ("play", 1, 3))
    g.act(1, ("play", 1, 2))
    # Seat 1 starts round 2 and picks which face-down card goes first.
    assert g.to_act() == [1] and g.public()["phase"] == "reveal"
    assert g.legal(1) == [("reveal", 1), ("reveal", 2)] and g.legal(0) == []
    refused(g, 0, ("reveal", 3), "cannot act now; waiting for 1")
    refused(g, 1, ("reveal", 3), "3 is not among your face-down cards")
    refused(g, 1, ("reveal",), "reveal one face-down card")
    refused(g, 1, ("play", 4), "being revealed now")
    assert loot_of(g.act(1, ("reveal", 2)), "take") == [(1, 2, [0, 0, 2, 0])]
    assert g.to_act() == [0] and g.legal(0) == [("reveal", 1), ("reveal", 3)]
    events = g.act(0, ("reveal", 3))
    # Each has one card left: no choice, so they turn over in turn by themselves.
    assert [(e["type"], e["player"], e["card"]) for e in events
            if e["type"] in ("take", "steal")] == [
        ("take", 0, 3), ("take", 1, 1), ("steal", 0, 1)]
    assert loot_of(events, "steal") == [(0, 1, [0, 0, 1, 0])]
    assert [g.view(p)["shield"] for p in (0, 1)] == [[0, 0, 6, 0], [0, 0, 5, 0]]
    # Every card comes back for round 3.
    assert [g.view(p)["hand"] for p in (0, 1)] == [[1, 2, 3, 4, 5, 6]] * 2
    assert g.view(0)["used"] == []


def test_a_theft_can_move_black_rocks_between_the_two_players():
    g = game()
    round_one(g)
    round_two(g)
    events = round_three(g)
    assert loot_of(events, "take") == [
        (0, 3, [0, 0, 3, 0]), (1, 4, [0, 0, 4, 0]), (0, 1, [0, 0, 0, 1]), (0, 2, [0, 0, 0, 2])]
    assert loot_of(events, "steal") == [(1, 1, [0, 0, 0, 1]), (1, 2, [0, 0, 0, 2])]
    assert [g.view(p)["shield"] for p in (0, 1)] == [[0, 0, 9, 0], [0, 0, 9, 3]]


def test_a_whole_game_tied_on_points_goes_to_fewer_black_rocks():
    g = game()
    round_one(g)
    round_two(g)
    round_three(g)
    g.act(1, ("gems", 0, 0, 8))
    g.act(0, ("play", 1, 2, 3, 4))
    g.act(1, ("play", 1, 2, 3, 5))
    for seat, card in [(1, 1), (0, 1), (1, 2), (0, 2), (1, 5)]:
        g.act(seat, ("reveal", card))
    # Seat 0 reveals 3 into an empty safe; seat 1's last 3 steals those rocks,
    # then seat 0's 4 brings four more.
    events = g.act(0, ("reveal", 3))
    assert loot_of(events, "steal") == [(1, 3, [0, 0, 0, 3])]
    result = g.result()
    assert result["shields"] == [[0, 0, 12, 4], [0, 0, 14, 6]]
    assert result["scores"] == [8, 8] and result["rocks"] == [4, 6]
    assert result["ranks"] == [1, 2] and result["winners"] == [0]
    assert [t["by"] for t in result["reasons"]] == ["rocks"]
    assert result["reasons"][0]["seats"] == [0, 1]


def test_start_player_alternates_every_round():
    g = Heist({"players": 2, "start": 1}, "alternate")
    starts = {}
    while g.result() is None:
        pub = g.public()
        starts[pub["round"]] = pub["start"]
        seat = g.to_act()[0]
        g.act(seat, g.legal(seat)[0])
    assert starts == {1: 1, 2: 0, 3: 1, 4: 0}
