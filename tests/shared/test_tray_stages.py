# Each stage of the tray on its own, under CPython and MicroPython: the
# sensor check, the reading filter, an episode's features, whole-cat
# counting, the turn and its proposals, the lean, the corner gains.

from catnip.tray import Calibration
from catnip.tray.counting import Counter
from catnip.tray.episode import Episode
from catnip.tray.readings import LOST, QUIET, STILL, Readings
from catnip.tray.sensor import Sensor

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
