# The Clowder Collaboration: table cats first for no points, then cats from
# the bag for a point each, until the first collapse or an empty bag.
from check import message
from stack_checks import check_all, physical, turn

from catnip.rules import new
from catnip.rules.engine import RuleError

# Table: three red and one black; bag: three blue and three green, four of which
# go into the base, leaving two to draw.
SMALL = {"mode": "clowder", "colours": ["red", "blue", "green"], "per_colour": 3,
         "black_cats": 1, "table_colour": "red"}
SMALL_BASE = ["blue", "blue", "green", "green"]
TABLE = ("black", "red", "red", "red")


def _small(players=1):
    config = dict(SMALL)
    config["players"] = players
    return physical(config, SMALL_BASE)


def test_table_cats_come_first_and_score_nothing():
    g = _small()
    assert g.public()["table"] == {"red": 3, "black": 1}
    assert g.legal(0) == [("take", "red"), ("take", "black")]
    text = message(RuleError, g.act, 0, ("drew", "blue"))
    assert "must take a cat from the table: ('take', colour)" in text
    for colour in TABLE:
        events = turn(g, colour, ("place", 2, 0))
        assert events[0] == {"type": "took", "player": 0, "colour": colour}
        assert events[-1]["points"] == 0 and events[-1]["team"] == 0
    assert g.public()["table"] == {} and g.public()["step"] == "drew"
    check_all(g)


def test_each_cat_from_the_bag_that_stands_scores_one_and_an_empty_bag_ends_it():
    g = _small()
    for colour in TABLE:
        turn(g, colour, ("place", 1, 0))
    events = turn(g, "blue", ("place", 5, 0))
    assert events[-1]["points"] == 1 and events[-1]["team"] == 1
    events = turn(g, "green", ("place", 6, 0))
    assert events[-1] == {"type": "over", "reason": {"why": "bag empty", "seats": []}}
    assert events[-2]["team"] == 2
    r = g.result()
    assert r == {"ranks": [1], "team": 2,
                 # the shape every game's result has: the team's score at every seat,
                 # everyone shares rank 1 and nobody wins alone
                 "reasons": [{"why": "bag empty", "seats": []}],
                 "scores": [2], "winners": [], "unit": "points", "fewest": False,
                 "together": True}
    check_all(g)


def test_the_first_collapse_ends_the_game_even_among_table_cats():
    g = _small()
    turn(g, "black", ("place", 1, 0))
    events = turn(g, "red", ("collapse", 3, 0))
    assert events[-1] == {"type": "over", "reason": {"why": "collapse", "seats": []}}
    assert events[-2]["points"] == 0 and events[-2]["team"] == 0
    r = g.result()
    assert r["team"] == 0 and r["reasons"] == [{"why": "collapse", "seats": []}]
    assert g.to_act() == [] and g.legal(0) == []
    check_all(g)


def test_a_collapse_keeps_the_points_already_earned():
    g = _small()
    for colour in TABLE:
        turn(g, colour, ("place", 1, 0))
    turn(g, "green", ("place", 3, 0))
    turn(g, "blue", ("collapse", 1, 0))
    assert g.result()["team"] == 1 and g.public()["phase"] == "over"
    check_all(g)


def test_players_take_turns_and_share_the_result():
    g = _small(players=3)
    order = []
    for colour in TABLE + ("blue",):
        order.append(g.to_act()[0])
        turn(g, colour, ("place", 1, 0))
    assert order == [0, 1, 2, 0, 1]
    assert g.to_act() == [2]
    assert "player 0 cannot act now; waiting for 2" in message(
        RuleError, g.act, 0, ("drew", "green"))
    turn(g, "green", ("place", 1, 0))
    assert g.result()["ranks"] == [1, 1, 1] and g.result()["team"] == 2


def test_digital_clowder_draws_after_the_table_is_empty():
    g = new("stack", {"mode": "clowder", "players": 2}, "digital clowder")
    table = sum(g.public()["table"].values())
    for k in range(table):
        assert g.legal(g.to_act()[0])[0][0] == "take"
        colour = g.legal(g.to_act()[0])[0][1]
        turn(g, colour, ("place", 1, 0))
    player = g.to_act()[0]
    assert g.legal(player) == [("draw",)]
    g.act(player, ("draw",))
    g.act(player, ("place", 1, 0))
    assert g.public()["team"] == 1
    check_all(g)
