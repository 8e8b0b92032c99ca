# A refused report names what was wrong and changes nothing.
from check import message
from stack_checks import physical

from catnip.rules import new, replay
from catnip.rules.engine import RuleError


def _refused(game, player, action, expected):
    before = replay(game.journal())
    text = message(RuleError, game.act, player, action)
    assert expected in text, (action, text)
    assert game == before, action
    return text


def test_bad_reports_while_holding_a_cat():
    g = physical({"players": 2}, ["red", "orange", "yellow", "green"])
    g.act(0, ("drew", "red"))
    cases = [
        (("place",), "'place' takes 2 values, as ('place', height, black_touched)"),
        (("place", 2), "'place' takes 2 values"),
        (("place", 2, 0, 0), "'place' takes 2 values"),
        (("place", "2", 0), "height must be a whole number; got '2'"),
        (("place", True, 0), "item 1 is True, but an action holds words and whole numbers"),
        (("place", 2.0, 0), "item 1 is 2.0"),
        (("place", 0, 0), "height must be from 1 to 4 (the least number of cats between "
                          "this cat and the base; the tower holds 4); got 0"),
        (("place", 5, 0), "got 5"),
        (("place", 1, -1), "black cats touched must be 0"),
        (("collapse", 0, 0), "fallen cats must be from 1 to 4 (the tower holds 4); got 0"),
        (("collapse", 2, 1), "black cats fallen must be 0"),
        (("collapse", 2), "'collapse' takes 2 values, as ('collapse', fallen, black_fallen)"),
        (("drew", "blue"), "'drew' is not possible now: player 0 must report where the cat stands"),
        (("jump", 3), "'jump' is not possible now"),
    ]
    for action, expected in cases:
        _refused(g, 0, action, expected)
    _refused(g, 1, ("place", 1, 0), "player 1 cannot act now; waiting for 0")


def test_bad_draw_reports():
    g = physical({"players": 2, "colours": ["red", "blue"], "per_colour": 4},
                 ["red", "red", "red", "red"])
    _refused(g, 0, ("drew", "red"), "no 'red' cat in the bag; choose one of blue")
    _refused(g, 0, ("drew", "gold"), "no 'gold' cat in the bag")
    _refused(g, 0, ("drew", 1), "no 1 cat in the bag")
    _refused(g, 0, ("drew",), "'drew' takes 1 value, as ('drew', colour)")
    _refused(g, 0, ("draw",), "'draw' is not possible now: player 0 must report the colour drawn")
    _refused(g, 0, ("place", 1, 0), "'place' is not possible now")


def test_bad_digital_draw_and_setup_reports():
    g = new("stack", {"players": 2}, "errors")
    _refused(g, 0, ("draw", "red"), "'draw' takes 0 values, as ('draw',)")
    _refused(g, 0, ("base", "red"), "'base' is not possible now")
    p = new("stack", {"players": 3, "draw": "physical"}, "errors")
    _refused(p, 0, ("drew", "red"), "must report a cat wedged into the base: ('base', colour)")
    _refused(p, 1, ("base", "red"), "player 1 cannot act now; waiting for 0")
    _refused(p, 0, ("out", "red"), "'out' is not possible now")


def test_nothing_is_possible_after_the_game():
    g = physical({"players": 2, "colours": ["red", "blue"], "per_colour": 3},
                 ["red", "red", "blue", "blue"])
    g.act(0, ("drew", "red"))
    g.act(0, ("place", 1, 0))
    g.act(1, ("drew", "blue"))
    g.act(1, ("place", 1, 0))
    assert g.result() is not None
    _refused(g, 0, ("drew", "red"), "the game is over; start a new one")
    assert g.legal(0) == [] and g.legal(1) == []


def test_the_seed_and_log_stay_secret_until_the_end():
    g = new("stack", {"players": 2}, "secret")
    assert "stay secret until the game ends" in message(RuleError, g.record)
    assert "seed" not in g.header()
