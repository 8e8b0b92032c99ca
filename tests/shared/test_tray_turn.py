# The tray's turn (catnip.tray.turn): proposals, an attempt's one verdict, what
# fell and what a report overrules; and the lean corrected by each cell's gain.
from check import message
from catnip.tray import TrayError
from catnip.tray.calibrator import corner_gains
from catnip.tray.lean import lean
from catnip.tray.turn import Turn
from test_tray_stages import PC


# ---- turn --------------------------------------------------------------------


def test_a_placement_proposes_the_cat_added_and_no_height():
    t = Turn(2, 10, 80)
    t.placed(1, 1, 100)
    t.placed(1, 2, 100)
    t.begin_attempt(2)
    t.placed(1, 3, 97)
    v = t.verdict(3, 0)
    assert (v["kind"], v["ask"], v["default"], v["conf"]) == ("placed", "added", 1, 97), v
    assert t.confirm(v["id"], 1, 0, 3)["kind"] == "placed" and not t.attempt
    t.begin_attempt(3)
    t.placed(2, 5, 99)
    assert t.verdict(5, 0)["ask"] == "cats" and t.tower == 5  # two at once: count them


def test_an_attempt_gives_one_verdict_and_closes_on_its_answer():
    t = Turn(0, 10, 80)
    t.placed(1, 1, 100)
    t.placed(1, 2, 100)
    t.begin_attempt(2)
    fell = t.collapse(2, 1, 90, False, 0)
    # One left the tray and none struck it at 80/s: one fell, 90 % sure;
    # a person may answer up to every cat the game has.
    assert (fell["left"], fell["default"], fell["max"], fell["conf"]) == (1, 1, 10, 90), fell
    v = t.verdict(1, 0)
    assert v["kind"] == "collapse" and v["n"] == -1 and v["ask"] == "fell" and v["conf"] == 90
    again = t.verdict(1, 0)  # asked again: made again, the old one gone
    assert again["id"] != v["id"] and v["id"] not in t.pending
    assert "from 0 to 10" in message(TrayError, t.confirm, again["id"], 11, 0, 1)
    assert t.attempt  # a refused answer changes nothing
    record = t.confirm(again["id"], 2, 0, 1)
    assert record["kind"] == "collapse" and not t.attempt and t.pending == {}
    assert t.tower == 0


def test_a_collapse_where_cats_may_have_landed_asks_how_many_fell():
    # 3 fell, 2 landed on the tray: the load says one left. A cat struck
    # the tray, so the tray asks, from 1, with no confidence.
    t = Turn(4, 40, 80)
    for cats in range(1, 9):
        t.placed(1, cats, 100)
    t.begin_attempt(8)
    ask = t.collapse(8, 7, 100, True, 0)
    assert (ask["left"], ask["default"], ask["conf"]) == (1, 1, 0), ask
    v = t.verdict(7, 0)
    assert v["kind"] == "collapse" and v["conf"] == 0 and "may have landed" in v["why"]
    # At 10/s a landing can be averaged away: never sure how many fell.
    t10 = Turn(4, 40, 10)
    t10.placed(8, 8, 100)
    t10.begin_attempt(8)
    assert t10.collapse(8, 6, 100, False, 0)["conf"] == 0


def test_the_cat_being_placed_is_not_among_the_fallen():
    # The hand rested its cat on the tower long enough to be counted, then
    # the tower fell, one cat clear of the tray, and the hand took its cat
    # back: two gone from the tray, one fell.
    t = Turn(4, 40, 80)
    t.placed(8, 8, 100)
    t.begin_attempt(8)
    t.placed(1, 9, 100)
    ask = t.collapse(9, 7, 100, False, 0)
    assert (ask["left"], ask["default"], ask["conf"]) == (1, 1, 100), ask
    assert t.tower == 7


def test_cats_lifted_off_during_a_retry_are_not_part_of_the_attempt():
    t = Turn(4, 40, 80)
    t.placed(8, 8, 100)
    t.agree(6, 8)  # a collapse of two, both on the tray: two loose
    t.begin_attempt(8)
    assert t.loose(8) == 2
    t.removed(-2, 6)
    t.placed(1, 7, 99)
    v = t.verdict(7, 0)
    assert (v["kind"], v["n"], v["conf"]) == ("placed", 1, 99), v


def test_a_report_that_overrules_the_tray_sets_its_tower():
    # The tray saw a cat placed; the player reported a collapse of three
    # instead, and the rules took it: the tray follows the rules' tower.
    t = Turn(0, 10, 80)
    t.placed(4, 4, 100)
    t.begin_attempt(4)
    t.placed(1, 5, 100)
    v = t.verdict(5, 0)
    assert v["kind"] == "placed" and t.tower == 5
    t.agree(2, 5)
    assert t.tower == 2 and not t.attempt
    assert v["id"] not in t.pending  # the attempt's questions are answered
    t.agree(4, 3)  # never more than the tray holds
    assert t.tower == 3


def test_a_verdict_with_nothing_changed_asks_what_fell():
    t = Turn(0, 10, 80)
    t.begin_attempt(3)
    v = t.verdict(3, 0)
    assert v["kind"] == "none" and (v["min"], v["default"]) == (0, 0) and v["conf"] == 0
    assert "no attempt" in message(TrayError, Turn(0, 10, 80).verdict, 0, 0)


def test_a_question_about_the_count_stays_within_the_game():
    t = Turn(0, 7, 80)
    ask = t.ask_cats(7, "why", 0)
    assert (ask["min"], ask["default"], ask["max"]) == (0, 7, 7)
    for bad in (8, -1, True, 3.0, None):
        assert "cats must be a whole number from 0 to 7" in message(
            TrayError, t.confirm, ask["id"], bad, 0, 7)


# ---- lean and gains -------------------------------------------------------------


def test_the_lean_corrects_each_cell_by_its_gain():
    # A cat over the right-front cell, which reads 10% high.
    assert lean([0, 4400, 0, 0], [1024] * 4, PC) == [1414, 1000, -1000]
    assert lean([1100, 1000, 1000, 1000], [1126, 1024, 1024, 1024], PC) == [0, 0, 0]
    assert lean([1100, 1000, 1000, 1000], [1024] * 4, PC)[1] < 0  # uncorrected: off left
    assert lean([10, 10, 10, 10], [1024] * 4, PC) == [0, 0, 0]  # no cats


def test_corner_gains_solve_the_cells_from_four_captures():
    gains = (1.08, 0.95, 1.02, 0.95)
    rise = []
    for k in range(4):
        # The weight above corner k, a tenth of it on each neighbour.
        force = [0.8 if c == k else (0.1 if (c - k) % 2 else 0.0) for c in range(4)]
        rise.append([int(4000 * force[c] * gains[c]) for c in range(4)])
    got = corner_gains(rise)
    mean = sum(gains) / 4
    for c in range(4):
        assert abs(got[c] - gains[c] / mean * 1024) <= 3, (got, gains)
    assert "right above that cell" in message(TrayError, corner_gains,
                                               [[10, 4000, 0, 0]] + rise[1:])
