# Catlike Composure, Patient Paws and the Black Cat variant, scenario by
# scenario (physical mode, so every cat is chosen by the test).
from check import message
from stack_checks import check_all, physical, turn

from catnip.rules import new
from catnip.rules.engine import RuleError

BASE = ["red", "orange", "yellow", "green"]
# Two colours of three cats: a base of four leaves one turn for each of two players.
TINY = {"colours": ["red", "blue"], "per_colour": 3}


def _tiny(mode, **config):
    config.update(TINY)
    config["mode"] = mode
    return physical(config, ["red", "red", "blue", "blue"])


def test_composure_scores_twice_the_height_as_in_the_rulebook_examples():
    g = physical({"players": 2}, BASE)
    events = turn(g, "red", ("place", 3, 0))
    assert events[-1]["points"] == 6 and events[-1]["score"] == 6
    assert g.to_act() == [1]
    turn(g, "blue", ("place", 5, 0))
    assert g.public()["scores"] == [6, 10] and g.public()["tower"] == 6
    check_all(g)


def test_composure_collapses_cost_a_point_per_cat_and_the_same_cat_tries_again():
    g = physical({"players": 2}, BASE)
    turn(g, "red", ("place", 3, 0))
    turn(g, "blue", ("place", 5, 0))
    g.act(0, ("drew", "pink"))
    events = g.act(0, ("collapse", 2, 0))
    assert events == [{"type": "collapse", "player": 0, "fallen": 2, "black": 0,
                       "points": -2, "score": 4}]
    pub = g.public()
    assert g.to_act() == [0] and pub["hand"] == "pink" and pub["step"] == "place"
    assert pub["tower"] == 4 and pub["fallen"] == 2 and pub["collapses"] == 1
    g.act(0, ("collapse", 1, 0))
    assert g.public()["collapses"] == 2 and g.public()["scores"] == [3, 10]
    events = g.act(0, ("place", 2, 0))
    assert events[0]["colour"] == "pink" and events[0]["points"] == 4
    pub = g.public()
    assert pub["scores"] == [7, 10] and pub["tower"] == 4 and pub["fallen"] == 3
    assert pub["collapses"] == 0 and pub["hand"] is None and g.to_act() == [1]
    check_all(g)


def test_fallen_cats_leave_play_and_bound_what_can_fall_next():
    g = physical({"players": 3}, BASE, ["teal"])
    g.act(0, ("drew", "red"))
    assert "fallen cats must be from 1 to 4" in message(RuleError, g.act, 0, ("collapse", 5, 0))
    g.act(0, ("collapse", 3, 0))
    assert "height must be 1 (" in message(RuleError, g.act, 0, ("place", 2, 0))
    assert [a for a in g.legal(0) if a[0] == "collapse"] == [("collapse", 1, 0)]


def test_an_empty_base_still_scores_height_one():
    g = physical({"players": 2}, BASE)
    g.act(0, ("drew", "red"))
    g.act(0, ("collapse", 4, 0))
    assert g.legal(0) == [("place", 1, 0)]
    assert "the tower is empty" in message(RuleError, g.act, 0, ("collapse", 1, 0))
    assert g.act(0, ("place", 1, 0))[0]["points"] == 2
    assert g.public()["scores"] == [-2, 0]


def test_patient_paws_scores_the_height_and_adds_fallen_cats():
    g = physical({"players": 2, "mode": "patient"}, BASE)
    turn(g, "red", ("place", 3, 0))
    turn(g, "blue", ("place", 5, 0))
    assert g.public()["scores"] == [3, 5]
    turn(g, "pink", ("collapse", 2, 0), ("collapse", 1, 0), ("place", 2, 0))
    assert g.public()["scores"] == [8, 5]
    check_all(g)


def test_composure_game_ends_when_the_bag_is_empty_and_most_points_win():
    g = _tiny("composure")
    turn(g, "red", ("place", 2, 0))
    events = turn(g, "blue", ("collapse", 1, 0), ("place", 4, 0))
    assert events[-1] == {"type": "over", "reason": {"why": "bag empty", "seats": []}}
    r = g.result()
    assert r["scores"] == [4, 7] and r["ranks"] == [2, 1] and r["winners"] == [1]
    assert r["goal"] == "most points" and r["reasons"] == [{"why": "bag empty", "seats": []}]
    assert not r["fewest"] and not r["together"] and r["unit"] == "points"
    assert g.to_act() == [] and g.public()["phase"] == "over"
    assert "the game is over" in message(RuleError, g.act, 1, ("drew", "red"))
    check_all(g)


def test_patient_paws_fewest_points_win():
    g = _tiny("patient")
    turn(g, "red", ("place", 2, 0))
    turn(g, "blue", ("collapse", 1, 0), ("place", 4, 0))
    r = g.result()
    assert r["scores"] == [2, 5] and r["ranks"] == [1, 2] and r["goal"] == "fewest points"
    assert r["fewest"] and r["winners"] == [0]


def test_equal_scores_share_a_rank_and_say_so():
    g = _tiny("composure")
    turn(g, "red", ("place", 2, 0))
    turn(g, "blue", ("place", 2, 0))
    r = g.result()
    assert r["ranks"] == [1, 1] and r["winners"] == [0, 1]
    assert r["reasons"] == [{"why": "bag empty", "seats": []},
                            {"why": "tie", "by": "none", "seats": [0, 1], "points": 4, "rank": 1}]


def test_three_way_tie_below_a_winner():
    g = physical({"players": 4, "colours": ["red", "blue"], "per_colour": 4},
                 ["red", "red", "blue", "blue"])
    turn(g, "red", ("place", 3, 0))
    for colour in ("blue", "blue", "red"):
        turn(g, colour, ("place", 1, 0))
    r = g.result()
    assert r["ranks"] == [1, 2, 2, 2]
    assert r["reasons"] == [{"why": "bag empty", "seats": []},
                            {"why": "tie", "by": "none", "seats": [1, 2, 3], "points": 2,
                             "rank": 2}]


# ---- the Black Cat variant -------------------------------------------------


def _black(mode, touch):
    # Two black cats in the base.
    config = {"players": 2, "mode": mode, "black_cat": True, "black_touch": touch}
    return physical(config, ["black", "black", "red", "red"])


def test_black_cat_each_costs_two_per_black_cat_touched_in_composure():
    g = _black("composure", "each")
    assert g.public()["tower_black"] == 2
    events = turn(g, "blue", ("place", 2, 2))
    assert events[-1]["points"] == 2 * 2 - 2 * 2
    events = turn(g, "pink", ("place", 3, 1))
    assert events[-1]["points"] == 2 * 3 - 2
    check_all(g)


def test_black_cat_once_costs_two_however_many_are_touched_in_composure():
    g = _black("composure", "once")
    assert turn(g, "blue", ("place", 2, 2))[-1]["points"] == 2 * 2 - 2
    assert turn(g, "pink", ("place", 3, 1))[-1]["points"] == 2 * 3 - 2
    assert turn(g, "teal", ("place", 3, 0))[-1]["points"] == 2 * 3
    check_all(g)


def test_black_cat_adds_two_per_black_cat_or_once_in_patient_paws():
    each = _black("patient", "each")
    assert turn(each, "blue", ("place", 2, 2))[-1]["points"] == 2 + 4
    once = _black("patient", "once")
    assert turn(once, "blue", ("place", 2, 2))[-1]["points"] == 2 + 2
    check_all(each)
    check_all(once)


def test_a_placed_black_cat_scores_normally_and_then_counts_as_touchable():
    g = _black("composure", "each")
    events = turn(g, "black", ("place", 3, 0))
    assert events[-1]["points"] == 6 and g.public()["tower_black"] == 3
    g.act(1, ("drew", "blue"))
    assert ("place", 1, 3) in g.legal(1) and ("place", 1, 4) not in g.legal(1)
    text = message(RuleError, g.act, 1, ("place", 1, 4))
    assert "black cats touched must be from 0 to 3 (3 of the 5 cats that stand are black)" in text


def test_fallen_black_cats_are_counted_and_leave_the_tower():
    g = _black("composure", "each")
    turn(g, "black", ("place", 3, 0))
    g.act(1, ("drew", "blue"))
    assert g.limits() == {"height": (1, 5), "black_touched": (0, 3), "fallen": (1, 5)}
    # Five cats stand, three black: if four fall, at least two are black.
    assert g.black_fallen_limits(4) == (2, 3) and g.black_fallen_limits(1) == (0, 1)
    assert "black cats fallen must be from 2 to 3" in message(
        RuleError, g.act, 1, ("collapse", 4, 1))
    g.act(1, ("collapse", 4, 3))
    pub = g.public()
    assert pub["tower"] == 1 and pub["tower_black"] == 0 and pub["scores"] == [6, -4]
    assert g.legal(1) == [("place", 1, 0), ("collapse", 1, 0)]
    check_all(g)


def test_black_numbers_are_zero_outside_the_variant():
    g = physical({"players": 5}, BASE, ["black"])
    g.act(0, ("drew", "black"))
    g.act(0, ("place", 1, 0))
    g.act(1, ("drew", "red"))
    text = message(RuleError, g.act, 1, ("place", 2, 1))
    assert "black cats count only in the Black Cat variant; report 0" in text
    assert all(a[2] == 0 for a in g.legal(1))


def test_digital_mode_draws_for_the_player_and_reveals_only_that_cat():
    g = new("stack", {"players": 2}, "digital")
    assert g.legal(0) == [("draw",)]
    assert "must draw a cat: ('draw',)" in message(RuleError, g.act, 0, ("drew", "red"))
    before = g.public()["bag"]
    events = g.act(0, ("draw",))
    colour = events[0]["colour"]
    assert events == [{"type": "drew", "player": 0, "colour": colour}]
    after = g.public()["bag"]
    assert after.get(colour, 0) == before[colour] - 1 and g.public()["hand"] == colour
    check_all(g)
