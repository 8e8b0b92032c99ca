# Purrfect with hands on the stations: scenarios from the rulebook and from
# each edge the device must enforce.
from check import message, raises
from purrfect_checks import check_replay, check_table, rig

from catnip import rules
from catnip.rules.engine import RuleError
from catnip.rules.purrfect import CATS, HAND, MEOWS, POSES, card_name, combinations

ASH, BISCUIT, CLEO, DUSK = 0, 1, 2, 3


def cards(cat, *poses):
    return [cat * HAND + pose for pose in poses]


def every(cat):
    return cards(cat, *range(HAND))


def new(players=4, seed="table"):
    return rules.new("purrfect", {"players": players}, seed)


def near_miss():
    """Players 0 and 1 each lack one card the other holds; 2 and 3 are far off."""
    return rig(new(), [ASH, BISCUIT, CLEO, DUSK], [
        cards(ASH, 0, 1, 2, 3, 4, 5, 6, 7) + cards(BISCUIT, 0),
        cards(ASH, 8) + cards(BISCUIT, 1, 2, 3, 4, 5, 6, 7, 8),
        cards(CLEO, 0, 1, 2, 3, 4) + cards(DUSK, 0, 1, 2, 3),
        cards(CLEO, 5, 6, 7, 8) + cards(DUSK, 4, 5, 6, 7, 8),
    ])


def meow(game, k):
    return game.public()["meows"][k - 1][0]


def unchanged(game, fn, *args):
    """fn must raise RuleError and leave the game exactly as it was."""
    snapshot = repr(game.state())
    text = message(RuleError, fn, *args)
    assert repr(game.state()) == snapshot, "a refused action changed the game"
    return text


def without_log(game):
    state = game.state()
    del state["log"]
    return repr(state)


# ---- the box and the setup ------------------------------------------------------

def test_cats_poses_and_meows_are_complete_and_distinct():
    assert len(CATS) == 7 and len(POSES) == 9
    assert len(set(name[0] for name, colour in CATS)) == 7, "initials must differ"
    assert len(set(colour for name, colour in CATS)) == 7
    assert len(MEOWS) == 29
    assert len(set(w for w, lang in MEOWS)) == 29
    assert len(set(lang for w, lang in MEOWS)) == 29
    assert card_name(2 * 9 + 7) == "Cleo peeking"


def test_every_player_count_deals_as_many_cats_as_players():
    for n in range(4, 8):
        game = new(n, "count%d" % n)
        pub = game.public()
        assert len(pub["cats"]) == n and len(set(pub["cats"])) == n
        assert pub["cats"] == [CATS[c][0] for c in sorted(game.cats)]
        for p in range(n):
            assert len(game.view(p)["hand"]) == 9
        check_table(game)
        assert game.to_act() == list(range(n))


def test_the_decks_in_play_vary_with_the_seed():
    seen = set(tuple(new(5, "deck%d" % i).cats) for i in range(12))
    assert len(seen) > 3


def test_four_meows_are_drawn_and_kept_for_the_whole_game():
    game = near_miss()
    legend = game.public()["meows"]
    assert len(legend) == 4 and len(set(w for w, lang in legend)) == 4
    for word, language in legend:
        assert [word, language] in [list(m) for m in MEOWS]
    game.act(0, ("offer", 9))
    game.act(1, ("accept", 1, 8))
    game.act(1, ("declare",))
    assert game.public()["round"] == 2
    assert game.public()["meows"] == legend
    draws = set(tuple(w for w, _ in new(4, "m%d" % i).public()["meows"]) for i in range(8))
    assert len(draws) == 8


def test_bad_configs_are_refused_by_name():
    assert "4 to 7 players" in message(RuleError, rules.new, "purrfect", {"players": 3})
    assert "4 to 7 players" in message(RuleError, rules.new, "purrfect", {"players": 8})
    assert "mode must be one of stations, scorekeeper" in message(RuleError, rules.new, "purrfect",
                                                               {"mode": "paper"})
    assert "no setting 'goal'" in message(RuleError, rules.new, "purrfect", {"goal": 3})
    assert new().players() == 4


# ---- offers -----------------------------------------------------------------------

def test_an_offer_is_announced_by_its_meow_only():
    game = near_miss()
    events = game.act(2, ("offer",) + tuple(cards(CLEO, 0, 1, 2)))
    assert events == [{"type": "offer", "offer": 1, "player": 2, "meow": meow(game, 3)}]
    assert game.public()["offers"] == [{"offer": 1, "player": 2, "meow": meow(game, 3)}]
    assert game.view(2)["offered"] == [[1, cards(CLEO, 0, 1, 2)]]
    assert game.view(3)["offered"] == []
    assert "hand" not in game.public()


def test_an_offer_shows_one_cat():
    game = near_miss()
    text = unchanged(game, game.act, 2, ("offer", cards(CLEO, 0)[0], cards(DUSK, 0)[0]))
    assert "one cat only" in text and "Cleo sitting" in text and "Dusk sitting" in text


def test_an_offer_holds_one_to_four_of_your_own_distinct_cards():
    game = near_miss()
    assert "1 to 4 cards, not 0" in unchanged(game, game.act, 2, ("offer",))
    five = tuple(cards(CLEO, 0, 1, 2, 3, 4))
    assert "1 to 4 cards, not 5" in unchanged(game, game.act, 2, ("offer",) + five)
    assert "not in your hand" in unchanged(game, game.act, 2, ("offer", cards(CLEO, 5)[0]))
    assert "listed twice" in unchanged(game, game.act, 2, ("offer", 18, 18))
    assert "not a card" in unchanged(game, game.act, 2, ("offer", 63))
    assert "not a card" in unchanged(game, game.act, 2, ("offer", "18"))
    assert "unknown action 'trade'" in unchanged(game, game.act, 2, ("trade", 18))


def test_a_card_is_in_one_open_offer_but_a_player_may_hold_several():
    game = near_miss()
    game.act(2, ("offer", 18, 19))
    text = unchanged(game, game.act, 2, ("offer", 19, 20))
    assert "already in your offer #1" in text and "withdraw" in text
    game.act(2, ("offer", 20))
    game.act(2, ("offer", 27, 28, 29, 30))
    assert [o["offer"] for o in game.public()["offers"]] == [1, 2, 3]
    assert [m for o, m in game.view(2)["offered"]] == [[18, 19], [20], [27, 28, 29, 30]]


def test_cards_may_come_in_any_order():
    game = near_miss()
    game.act(2, ("offer", 20, 18))
    assert game.view(2)["offered"] == [[1, [18, 20]]]
    game.act(3, ("accept", 1, 35, 31))
    assert 35 in game.hand(2) and 31 in game.hand(2)


# ---- withdrawing and accepting -------------------------------------------------------------

def test_a_withdrawn_offer_is_gone_and_cannot_be_accepted():
    game = near_miss()
    game.act(0, ("offer", 9))
    events = game.act(0, ("withdraw", 1))
    assert events == [{"type": "withdraw", "offer": 1, "player": 0, "meow": meow(game, 1)}]
    assert game.public()["offers"] == []
    text = unchanged(game, game.act, 1, ("accept", 1, 8))
    assert "offer #1 is not open" in text
    assert "not open" in unchanged(game, game.act, 0, ("withdraw", 1))
    # The cards are free again.
    game.act(0, ("offer", 9))
    assert game.public()["offers"][0]["offer"] == 2


def test_only_the_offerer_withdraws():
    game = near_miss()
    game.act(0, ("offer", 9))
    assert "player 0's" in unchanged(game, game.act, 1, ("withdraw", 1))
    assert "('withdraw', offer_id)" in unchanged(game, game.act, 0, ("withdraw",))


def test_nobody_accepts_their_own_offer():
    game = near_miss()
    game.act(2, ("offer", 18))
    assert "your own" in unchanged(game, game.act, 2, ("accept", 1, 19))
    assert ("accept", 1, 19) not in game.legal(2)


def test_an_accepted_swap_happens_at_once_and_for_good():
    game = near_miss()
    game.act(0, ("offer", 9))
    events = game.act(1, ("accept", 1, 8))
    assert events == [{"type": "swap", "offer": 1, "player": 0, "by": 1, "meow": meow(game, 1)}]
    assert game.hand(0) == every(ASH) and game.hand(1) == every(BISCUIT)
    assert game.public()["offers"] == []
    assert "not open" in unchanged(game, game.act, 0, ("withdraw", 1))
    assert "not open" in unchanged(game, game.act, 3, ("accept", 1, 31))
    check_table(game)


def test_an_answer_gives_as_many_cards_of_one_cat():
    game = near_miss()
    game.act(2, ("offer", 18, 19))
    text = unchanged(game, game.act, 3, ("accept", 1, 31))
    assert "'%s'" % meow(game, 2) in text and "you gave 1" in text
    assert "one cat only" in unchanged(game, game.act, 3, ("accept", 1, 31, 23))
    assert "not in your hand" in unchanged(game, game.act, 3, ("accept", 1, 20, 21))
    assert "('accept', offer_id" in unchanged(game, game.act, 3, ("accept",))
    game.act(3, ("offer", 31, 32))
    text = unchanged(game, game.act, 3, ("accept", 1, 31, 32))
    assert "already in your offer #2" in text


def test_a_swap_tells_neither_side_the_others_cat_beyond_the_cards():
    game = near_miss()
    game.act(2, ("offer", 27, 28))
    view0 = game.view(0)
    game.act(3, ("accept", 1, 23, 24))
    assert game.view(0) == dict(view0, offers=[])
    assert sorted(set(game.hand(2)) - set(cards(CLEO, 0, 1, 2, 3, 4) + cards(DUSK, 2, 3))) == [23, 24]
    assert sorted(set(game.hand(3)) - set(cards(CLEO, 7, 8) + cards(DUSK, 4, 5, 6, 7, 8))) == [27, 28]
    assert sorted(game.view(2)) == sorted(game.view(3)) == sorted(view0)


def test_everyone_acts_at_any_time():
    game = near_miss()
    game.act(3, ("offer", 31))
    game.act(3, ("offer", 32))
    game.act(2, ("offer", 27))
    game.act(1, ("accept", 2, 8))
    game.act(0, ("accept", 3, 9))
    assert game.to_act() == [0, 1, 2, 3]
    check_table(game)


# ---- declaring -----------------------------------------------------------------------

def test_a_false_declaration_is_seen_by_all_and_play_goes_on():
    game = near_miss()
    game.act(2, ("offer", 18))
    before = without_log(game)
    events = game.act(0, ("declare",))
    assert events == [{"type": "false declaration", "player": 0}]
    assert without_log(game) == before and game.log[-1] == (0, ("declare",))
    assert game.public()["round"] == 1 and game.public()["pawprints"] == [0, 0, 0, 0]
    assert len(game.public()["offers"]) == 1
    game.act(1, ("accept", 1, 8))
    assert game.hand(1) == cards(BISCUIT, 1, 2, 3, 4, 5, 6, 7, 8) + cards(CLEO, 0)


def test_a_true_declaration_scores_and_deals_again():
    game = near_miss()
    game.act(0, ("offer", 9))
    game.act(2, ("offer", 18))
    game.act(1, ("accept", 1, 8))
    events = game.act(0, ("declare",))
    assert events[0] == {"type": "round over", "round": 1, "declarer": 0, "best": [1],
                         "pawprints": [2, 1, 0, 0], "counts": [9, 9, 5, 5]}
    assert events[1] == {"type": "deal", "round": 2}
    pub = game.public()
    assert pub["round"] == 2 and pub["pawprints"] == [2, 1, 0, 0]
    assert pub["rounds"] == [[0, [1]]] and pub["offers"] == []
    check_table(game)
    assert sorted(c for p in range(4) for c in game.hand(p)) == list(range(36))


def test_two_hands_completed_by_one_swap_go_to_the_first_to_declare():
    game = near_miss()
    game.act(0, ("offer", 9))
    game.act(1, ("accept", 1, 8))
    events = game.act(1, ("declare",))
    assert events[0]["declarer"] == 1 and events[0]["best"] == [0]
    assert events[0]["counts"] == [9, 9, 5, 5]
    assert game.public()["pawprints"] == [1, 2, 0, 0]
    # The round is over for everyone: a second declaration is of a new hand.
    assert game.public()["round"] == 2
    assert game.act(0, ("declare",)) == [{"type": "false declaration", "player": 0}]


def test_tied_best_hands_each_score_a_pawprint():
    game = rig(new(), [ASH, BISCUIT, CLEO, DUSK], [
        every(BISCUIT),
        cards(ASH, 0, 1, 2, 3) + cards(CLEO, 0, 1, 2) + cards(DUSK, 0, 1),
        cards(ASH, 4, 5, 6, 7) + cards(CLEO, 3, 4, 5) + cards(DUSK, 2, 3),
        cards(ASH, 8) + cards(CLEO, 6, 7, 8) + cards(DUSK, 4, 5, 6, 7, 8),
    ])
    events = game.act(0, ("declare",))
    assert events[0]["counts"] == [9, 4, 4, 5] and events[0]["best"] == [3]
    assert game.public()["pawprints"] == [2, 0, 0, 1]
    game = rig(new(), [ASH, BISCUIT, CLEO, DUSK], [
        every(BISCUIT),
        cards(ASH, 0, 1, 2, 3, 4) + cards(CLEO, 0, 1) + cards(DUSK, 0, 1),
        cards(CLEO, 2, 3, 4, 5, 6) + cards(ASH, 5, 6) + cards(DUSK, 2, 3),
        cards(DUSK, 4, 5, 6, 7, 8) + cards(ASH, 7, 8) + cards(CLEO, 7, 8),
    ])
    events = game.act(0, ("declare",))
    assert events[0]["counts"] == [9, 5, 5, 5] and events[0]["best"] == [1, 2, 3]
    assert game.public()["pawprints"] == [2, 1, 1, 1]


# ---- the end -------------------------------------------------------------------------------

def test_a_tie_for_the_lead_goes_to_the_declarer_even_short_of_five():
    game = rig(new(), [ASH, BISCUIT, CLEO, DUSK], [
        cards(ASH, 0, 1, 2, 3, 4) + cards(DUSK, 4) + cards(CLEO, 0, 1, 2),
        every(BISCUIT),
        cards(DUSK, 0, 1, 2, 3, 5) + cards(ASH, 5) + cards(CLEO, 3, 4, 5),
        cards(ASH, 6, 7, 8) + cards(DUSK, 6, 7, 8) + cards(CLEO, 6, 7, 8),
    ], pawprints=[4, 2, 4, 0])
    events = game.act(1, ("declare",))
    assert events[0]["pawprints"] == [5, 4, 5, 0]
    assert events[1]["type"] == "game over" and events[1]["winner"] == 1
    assert events[1]["reason"] == {"why": "tie", "by": "declarer", "seats": [0, 2],
                                   "pawprints": 5, "declarer": 1}
    from catnip.ui import draw
    from catnip.ui import purrfect as purrfect_ui

    draw.named(None)
    assert purrfect_ui.say(events[1], None) == "P2 wins: P1 P3 tied, P2 declared"
    result = game.result()
    assert result["winner"] == 1 and result["ranks"] == [2, 1, 2, 4]
    assert game.to_act() == [] and game.legal(0) == []
    assert "game is over" in message(RuleError, game.act, 0, ("declare",))


def test_the_first_to_five_wins():
    game = rig(new(), [ASH, BISCUIT, CLEO, DUSK],
               [every(ASH), every(BISCUIT), every(CLEO), every(DUSK)],
               pawprints=[3, 3, 3, 1])
    events = game.act(2, ("declare",))
    assert events[0]["best"] == [0, 1, 3] and events[0]["pawprints"] == [4, 4, 5, 2]
    assert game.result()["winner"] == 2 and game.result()["reasons"][0]["why"] == "first"
    assert game.result()["ranks"] == [2, 2, 1, 4]


def test_the_record_replays_to_the_same_game():
    game = new(5, "replayed")
    assert "secret" in message(RuleError, game.record)
    header = game.header()
    assert "seed" not in header and len(header["seed_commit"]) == 64
    hand = game.hand(0)
    game.act(0, ("offer", hand[0]))
    game.act(1, ("declare",))
    check_replay(game)


def test_legal_lists_every_subset_of_one_cat_exactly_once():
    game = near_miss()
    game.act(3, ("offer", 31, 32, 33, 34))
    game.act(2, ("offer", 18))
    legal = game.legal(1)
    assert legal[0] == ("declare",)
    offers = [a for a in legal if a[0] == "offer"]
    # 8 Biscuit and 1 Ash: subsets of 1-4 Biscuit, plus the lone Ash.
    assert len(offers) == 8 + 28 + 56 + 70 + 1
    assert [a for a in legal if a[0] == "accept" and a[1] == 1] == \
        [("accept", 1) + c for c in combinations(cards(BISCUIT, 1, 2, 3, 4, 5, 6, 7, 8), 4)]
    assert len([a for a in legal if a[0] == "accept" and a[1] == 2]) == 9
    assert len(legal) == len(set(legal)) == 1 + 163 + 70 + 9
    for action in legal:
        assert game.check(1, action) == action


def test_a_refused_action_changes_nothing():
    game = near_miss()
    game.act(0, ("offer", 9))
    before = repr(game.state())
    for action in [("accept", 1, 8, 10), ("offer", 0, 9), ("withdraw", 7),
                   ("accept", 1, 99), ("declare", "now")]:
        raises(RuleError, game.act, 1, action)
        assert repr(game.state()) == before
