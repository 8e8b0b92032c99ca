# Each stage of the tray on its own, under CPython and MicroPython: the
# sensor check, the reading filter, an episode's features, whole-cat
# counting, the turn and its proposals, the lean, the corner gains.
from check import message

from catnip.tray import Calibration, TrayError
from catnip.tray.calibrator import corner_gains
from catnip.tray.counting import Counter
from catnip.tray.episode import Episode
from catnip.tray.lean import lean
from catnip.tray.readings import LOST, QUIET, STILL, Readings
from catnip.tray.sensor import Sensor
from catnip.tray.turn import Turn

PC = 4000  # counts per cat in these tests
CAL = Calibration(80, [0], [1], PC, 100, 40, 5)


# ---- sensor ------------------------------------------------------------------


def test_sensor_calls_stuck_saturated_and_silent():
    s = Sensor(1, 80)
    assert [s.judge(0, 500) for _ in range(8)] == [0] * 7 + [1] and s.why == "stuck"
    s = Sensor(1, 80)
    assert [s.judge(0, -1) for _ in range(8)][-1] == 1 and s.why == "saturated"
    s = Sensor(1, 80)
    assert [s.judge(0, 0x7FFFFF) for _ in range(3)] == [0, 0, 1] and s.why == "saturated"
    s = Sensor(4, 80)
    assert s.judge(2, 7) == 0 and s.suspect() is False
    assert s.judge(2, 7) == 0 and s.suspect() is True  # a repeat is no evidence of a hand
    assert [s.missed() for _ in range(24)][-2:] == [False, True] and s.why == "no data"


# ---- readings ----------------------------------------------------------------


def _still(r, level, n, noise=30):
    for k in range(n):
        r.push(level + (k * 7919) % (2 * noise + 1) - noise)


def test_readings_know_a_still_window_from_a_moving_one():
    r = Readings(1, 80, 40, PC)
    _still(r, 1000, 20)
    assert r.flat(6) == r.long == 8
    r.push(1000 + PC // 2)  # a step: not flat until the window holds it
    assert r.flat(6) == 0
    _still(r, 1000 + PC // 2, 6)
    assert r.flat(6) == 6 and r.flat(5) == 5  # the early window only
    assert abs(r.mean(6) - (1000 + PC // 2)) <= 40


def test_bands_never_narrow_below_six_hundredths_of_a_cat():
    quiet = Readings(1, 80, 1, PC)
    _still(quiet, 0, 16, noise=1)
    quiet.push(PC * 5 // 100)  # 5% of a cat: still flat for a sensor this quiet
    assert quiet.flat(6) >= 6
    quiet.push(PC * 20 // 100)
    assert quiet.flat(6) == 0


def test_readings_say_lost_then_quiet_and_refine_the_level():
    r = Readings(1, 80, 40, PC)
    r.settle_at(2000)
    got = []
    for k in range(40):
        y = 2100 + (k % 3) - 1  # the load sits 100 counts above the verdict
        r.push(y)
        assert not r.leaves(y)
        got.append(r.still(y))
    assert got.index(LOST) == 31 and got.index(QUIET) == 39 and got.count(STILL) == 38
    assert not r.trending()
    assert 95 <= r.refine() <= 105 and r.refine() == 0  # once


def test_readings_see_a_slow_slide_as_a_trend():
    r = Readings(1, 80, 40, PC)
    r.settle_at(0)
    for k in range(40):
        r.push(k * 6)
        r.still(k * 6)
    assert r.trending()


# ---- episode -----------------------------------------------------------------


def _episode(values, rate=80):
    r = Readings(1, rate, 40, PC)
    ep = Episode(rate, PC)
    _still(r, 0, 16)
    ep.start(0, PC, 40)
    for v in values:
        r.push(v)
        ep.track(r)
    return ep


def test_right_after_a_verdict_a_reading_is_judged_against_more_than_one_reading():
    # The verdict's level is the mean of its window; the first still reading
    # after it is 3 sigma high, the second 2 sigma low. Against the first
    # reading alone the second is 5 sigma away and would start an episode
    # (a still tray taken for a moving one, its verdict withheld).
    r = Readings(1, 10, 40, PC)
    r.settle_at(PC)
    for y in (PC + 120, PC - 80, PC + 40, PC - 40):
        r.push(y)
        assert not r.leaves(y), y
        assert r.still(y) in (STILL, LOST)
    r.push(PC + 300)
    assert r.leaves(PC + 300)  # a real change still leaves


def test_a_thud_is_an_impact_and_a_hand_is_not():
    thud = _episode([0, 0, -PC, 20 * PC, -12 * PC, 5 * PC, -PC] + [-PC] * 8)
    assert thud.jolt > 6 * PC and thud.impact(-PC, PC)
    hand = _episode([k * PC // 8 for k in range(9)] + [PC] * 8)  # a cat let go of slowly
    assert not hand.impact(PC, PC)
    assert hand.top == PC and hand.bottom == 0 and hand.since == 17


def test_at_ten_per_second_a_fall_then_a_landing_is_an_impact():
    # The load falls two cats, rises a cat and a half (cats strike the
    # tray), and ends a cat down: a bend over a cat with a rebound.
    fall = _episode([-2 * PC, -PC // 2, -PC, -PC, -PC], rate=10)
    assert fall.rebound >= PC and fall.impact(-PC, PC)
    lift = _episode([PC // 3, -PC, -PC, -PC], rate=10)  # a grip, then cats lifted
    assert not lift.impact(-PC, PC)
    # The fall counts from the highest point before it, not the start: a
    # hand held half a cat, the load fell a cat from there and rose again.
    held = _episode([PC // 2, PC // 2, -PC // 2, PC // 2, 0, 0, 0], rate=10)
    assert held.rebound == PC


def test_during_an_attempt_at_ten_per_second_a_fall_and_a_landing_are_an_impact():
    # The placing hand holds half a cat; a cat falls (the load drops below
    # it), lands (a reading above both ends) and the hand lifts its cat
    # away: the load ends where it began.
    landing = [PC // 2, PC // 2, PC // 10, PC * 3 // 2, PC // 2, 0, 0, 0]
    assert _episode(landing, rate=10).impact(0, PC, attempt=True)
    assert not _episode(landing, rate=10).impact(0, PC)  # between attempts: no call
    assert not _episode(landing, rate=80).impact(0, PC, attempt=True)  # 80/s sees thuds
    # A deep fall and a landing a fifth of a cat above both ends is one too.
    deep = [PC // 3, -PC, PC // 3, 0, 0, 0]
    assert _episode(deep, rate=10).impact(0, PC, attempt=True)
    # A poke (over within 250 ms: three readings), with no fall before it,
    # is none; nor a cat lifted and reseated.
    poke = [PC // 5, PC * 3 // 2, PC // 2, 0, 0, 0]
    assert not _episode(poke, rate=10).impact(0, PC, attempt=True)
    reseat = [0, -PC, -PC, -PC, 0, 0, 0]
    assert not _episode(reseat, rate=10).impact(0, PC, attempt=True)
    # A placing hand that wavers by a third of a cat is no landing.
    hand = [PC // 3, PC * 2 // 3, PC // 3, PC * 2 // 3, PC, PC, PC]
    assert not _episode(hand, rate=10).impact(PC, PC, attempt=True)


def test_at_ten_per_second_a_cat_borne_and_gone_during_an_attempt_is_a_collapse():
    # The placing hand lets half a cat bear on the tower, the load peaks a
    # cat and a half above it (cats falling onto the tray, averaged into a
    # conversion) and ends where it began: 400 ms held, then gone.
    borne = [PC // 2, PC // 2, PC * 3 // 2, PC // 2, 0, 0, 0]
    assert _episode(borne, rate=10).borne(0, PC)
    assert _episode(borne, rate=10).impact(0, PC, attempt=True)
    assert not _episode(borne, rate=10).impact(0, PC)  # between attempts: no call
    # A hand pressing (up to 0.6 of a cat, as long as it likes) is not; nor
    # a load that ends a cat up (a placement), nor a high but short peak.
    press = [PC // 4, PC // 2, PC * 3 // 5, PC * 3 // 5, PC // 2, PC // 4, 0, 0, 0]
    assert not _episode(press, rate=10).impact(0, PC, attempt=True)
    placed = [PC // 2, PC // 2, PC * 3 // 2, PC * 3 // 2, PC, PC, PC]
    assert not _episode(placed, rate=10).borne(PC, PC)
    short = [0, PC // 2, PC * 2, PC // 2, 0, 0, 0]
    assert not _episode(short, rate=10).borne(0, PC)


# ---- counting ----------------------------------------------------------------


def test_counting_calls_whole_cats_and_their_confidence():
    c = Counter(CAL, Readings(1, 80, 40, PC))
    assert c.whole(3 * PC + PC // 20, 0) and c.total == 3 and c.r == 50
    assert c.confidence() >= 99
    assert not c.whole(3 * PC + PC // 2, 0)  # half a cat: no whole number
    assert c.whole(-2 * PC, 0) and c.total == -2


def test_counting_learns_the_average_cat_from_clean_placements():
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    for k in range(1, 11):
        c.mass, c.cats = k * (PC + 200), k  # cats 5% heavier than calibrated
        c.anchor_here()
    assert c.pooled == 15 and PC + 100 <= c.per_cat <= PC + 200, c.per_cat


def test_counting_goes_back_one_quiet_state_for_a_hand_that_rested():
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass = PC * 3 // 10  # a hand rests 0.3 of a cat, long enough to look over
    c.anchor_here()
    assert c.rewind(PC) and c.anchor == 0 and c.anchor_cats == 0


def test_counting_a_heavy_cat_leaves_later_quiet_states_clean():
    # A cat a fifth heavier than the average is no clean step from the tare;
    # the next cat is one from it. Judged only against the tare, every later
    # state would be off by that fifth: never clean, nothing learned, and a
    # hand that rested would find no clean state to go back to.
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass, c.cats = PC * 6 // 5, 1
    c.anchor_here()
    pooled = c.pooled
    c.mass, c.cats = PC * 11 // 5, 2
    c.anchor_here()
    assert c.pooled == pooled + 1  # the second cat was weighed
    c.mass = PC * 25 // 10  # a hand rests 0.3 of the next cat
    c.anchor_here()
    assert c.rewind(PC * 32 // 10) and c.anchor == PC * 11 // 5 and c.anchor_cats == 2


def test_counting_goes_back_past_a_hand_that_passed_for_a_light_cat():
    # Cats that differ by 7.5%: a hand still holding 0.13 of a cat leaves a
    # state that looks like a light cat, clean, and weighed into the
    # average. When the hand lets go, the change from it is no whole number:
    # the tray goes back to the state before, and forgets what it learned.
    c = Counter(Calibration(80, [0], [1], PC, 300, 40, 5), Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass, c.cats = PC * 87 // 100, 1
    c.anchor_here()
    assert c.per_cat < PC and c.pooled == 6
    assert c.rewind(PC * 115 // 100) and c.anchor == 0 and c.anchor_cats == 0
    assert c.per_cat == PC and c.pooled == 5
    assert not c.rewind(PC * 115 // 100)  # nothing further back


def test_counting_goes_back_to_a_light_cat_that_was_not_clean():
    # A cat 0.12 light (cats differ by 2.5% here; or a lighter cat weighed
    # under drift the zero lagged behind) is whole cats, not clean. A
    # hand then holds 0.17 of the next cat still: 1.05, which passes for
    # clean. When the hand lets go, only the light cat's state explains the
    # load: the tray goes back to it, although it was not clean.
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass, c.cats = PC * 88 // 100, 1
    c.anchor_here()
    assert c._clean == 0  # not clean ...
    c.mass = PC * 105 // 100
    c.anchor_here()
    assert c._clean == c.mass  # ... and the hand's state passed for clean
    assert c.rewind(PC * 181 // 100) and c.anchor == PC * 88 // 100 and c.anchor_cats == 1
    assert not c.rewind(PC * 181 // 100)  # nothing further back


def test_counting_goes_back_to_no_state_that_was_not_whole_cats():
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass, c.cats = PC * 7 // 10, 1  # 0.7 of a cat: no whole number of cats
    c.anchor_here()
    c.mass = PC * 103 // 100
    c.anchor_here()
    assert not c.rewind(PC * 17 // 10)


def test_counting_never_goes_back_past_an_answer():
    c = Counter(Calibration(80, [0], [1], PC, 300, 40, 5), Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass, c.cats = PC * 3 // 10, 1  # a person said: one cat
    c.anchor_here(clean=True)
    assert not c.rewind(PC)


def test_counting_a_step_of_no_cats_does_not_make_a_resting_hand_clean():
    c = Counter(CAL, Readings(1, 80, 40, PC))
    c.anchor_here(clean=True)
    c.mass = PC * 3 // 10  # a hand rests 0.3 of a cat ...
    c.anchor_here()
    c.anchor_here()  # ... and is still there after a wobble: no cat came or went
    assert not c.rewind(PC)  # two states back: too far to judge


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
