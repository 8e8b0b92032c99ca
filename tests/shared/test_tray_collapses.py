# The tray estimator on collapses and the hands around them (cats that leave,
# stay or fall clear; a retry after a collapse), under CPython and MicroPython.
from tray_checks import (PER_CAT, cal_for, REALISTIC, check_counts,
                         play, play_checked, session)

from catnip.tray import Calibration, Tray
from devsim.effects import Ramp, impulse_ring
from devsim.sessions import Session
from devsim.traces import Trace


# ---- collapses -----------------------------------------------------------------


def test_collapse_counts_the_cats_that_left():
    # Every falling cat strikes the tray and bounces off it: the tray knows
    # how many left it, not whether one that struck it stayed.
    s = session("collapse80", "pppppppppc", stay=0, bounce=100)
    played = play(s, cal_for())
    check_counts(played)
    rec = s.truth[-1]
    falls = played.of("collapse")
    assert len(falls) == 1, played.turn_events[-1]
    fall = falls[0]
    # The scale sees the net loss; a cat being placed as the tower fell
    # was never counted, so whether it fell is the player's to add.
    assert fall["n"] == rec["n"] and fall["left"] == -rec["n"], (fall, rec)
    ask = fall["ask"]
    assert ask["ask"] == "fell" and ask["default"] == -rec["n"] and ask["conf"] == 0
    assert "may have landed" in ask["why"] and ask["max"] >= rec["fell"]


def test_cats_that_fall_clear_of_the_tray_are_proposed_with_the_counts_confidence():
    # At 80/s a cat landing on the tray bends the load far beyond any hand:
    # with no impact, every cat that fell left the tray.
    s = session("clear80", "pppppppppc", stay=0, bounce=0)
    tray, events = play_checked(s, cal_for(), 40)
    asks = [e["ask"] for _, e in events if e["ev"] == "collapse"]
    assert len(asks) == 1 and tray.cats == s.truth[-1]["cats"], events
    assert asks[0]["default"] == asks[0]["left"] == s.truth[-1]["fell"] >= 1, asks
    assert asks[0]["conf"] >= 90, asks


def test_cats_still_falling_add_to_the_collapse():
    t = Trace("stagger", rate_hz=80, noise=REALISTIC, offset=100000)
    one = (1.0,)
    for k in range(8):
        t.add(Ramp(2000000 * (k + 1), 100000, PER_CAT, one))
    crash = 20000000
    t.add(Ramp(crash, 40000, -2 * PER_CAT, one))  # two cats tip off...
    t.add(impulse_ring(crash + 150000, 20000, 20000, PER_CAT * 200000, one))  # ...strike the tray
    t.add(Ramp(crash + 500000, 40000, -PER_CAT, one))  # a third falls clear, later
    tray = Tray(cal_for())
    tray.tare()
    events = []
    for k in range(25000000 // 12500):
        ev = tray.feed(t.counts_at(k * 12500))
        if ev and ev["ev"] != "handling":
            events.append(ev)
    falls = [(e["ev"], e["n"], e["left"]) for e in events if e["ev"] == "collapse"]
    assert falls == [("collapse", -2, 2), ("collapse", -1, 3)], events
    assert tray.cats == 5 and tray.tower == 5
    # The second question replaced the first.
    fell = [a for a in tray.pending.values() if a["ask"] == "fell"]
    assert [(a["default"], a["max"]) for a in fell] == [(3, 100)], fell


def test_at_ten_per_second_a_glancing_fall_may_look_like_hands():
    # The converter averages 100 ms, so cats that glance off the tray leave
    # little trace of their impact: the loss is still counted, as a collapse
    # or (when the impact is lost) a removal, never as anything else.
    s = session("collapse10", "pppppppppc", rate=10, stay=0, bounce=100)
    played = play(s, cal_for(10))
    check_counts(played)
    calls = [e for e in played.of("collapse") + played.of("removed")]
    assert sum(e["n"] for e in calls) == s.truth[-1]["n"], calls


def test_cats_that_fall_but_stay_make_the_tray_ask():
    s = session("stay", "pppppppppc", stay=100, bounce=0)
    played = play(s, cal_for())
    check_counts(played)
    fall = played.of("collapse")
    assert len(fall) == 1, played.turn_events[-1]
    ask = fall[0]["ask"]
    # The scale cannot tell how many: at least one, it proposes, with no confidence.
    assert (ask["min"], ask["default"], ask["conf"]) == (0, 1, 0) and "stayed" in ask["why"]
    assert ask["max"] >= s.truth[-1]["fell"]


def test_the_average_cat_is_learned_from_placements():
    # Calibrated with one batch of cats, played with cats 5% heavier.
    cal = cal_for()
    s = Session("heavier", rate_hz=80, noise=REALISTIC, per_cat=PER_CAT * 105 // 100)
    s.t = 2000000
    for _ in range(16):
        s.place()
    s.t += 2000000
    played = play(s, cal)
    check_counts(played)
    true_mean = sum(c[0] for c in s.tower) // len(s.tower)
    learned = played.tray.count.per_cat
    assert abs(learned - true_mean) < abs(cal.per_cat - true_mean) // 2, (
        cal.per_cat, learned, true_mean)
    assert played.tray.count.pooled > cal.cats + 10
    saved = played.tray.calibration().to_dict()
    assert saved["per_cat"] == learned and saved["cats"] == played.tray.count.pooled
    assert saved["zero"] == cal.zero and saved["noise"] == cal.noise


def test_a_hand_resting_part_of_a_cat_does_not_split_it():
    cal = cal_for()
    pc = cal.per_cat
    t = Trace("rest", rate_hz=80, noise=REALISTIC, offset=cal.zero[0])
    one = (1.0,)
    # A light cat (0.9): the hand rests 0.17 of it on the tower for a second,
    # long enough to look like the end of a turn, then lets go of the rest.
    t.add(Ramp(3000000, 100000, pc * 17 // 100, one))
    t.add(Ramp(4000000, 100000, pc * 73 // 100, one))
    tray = Tray(cal)
    tray.tare()
    events = []
    for k in range(7000000 // 12500):
        ev = tray.feed(t.counts_at(k * 12500))
        if ev and ev["ev"] != "handling":
            events.append(ev)
    kinds = [(e["ev"], e["n"], e["cats"]) for e in events]
    assert ("placed", 1, 1) in kinds and kinds[-1] == ("settled", 0, 1), kinds
    assert [e for e in events if "ask" in e and e["ask"]["ask"] == "cats"] == []


def test_a_placement_stays_settled_through_a_noisy_reading():
    # At 10/s, a cat placed during an attempt, then two still readings
    # 3 sigma high and 2 sigma low: noise, not a hand. The verdict is there
    # at once; judged against the first still reading alone, the second
    # would have started an episode and withheld it.
    cal = Calibration(10, [0], [1], 4000, 200, 60, 5)
    tray = Tray(cal)
    tray.tare()
    wobble = (10, -10, 20, -20)
    for k in range(30):
        tray.feed((45, -45, 75, -75)[k % 4])  # noise 60
    tray.begin_attempt()
    events = []
    k = 0
    while not events or events[-1]["ev"] != "placed":
        ev = tray.feed(4000 + wobble[k % 4])
        k += 1
        assert k < 20, events
        if ev is not None:
            events.append(ev)
    for y in (4180, 3880):
        assert tray.feed(y) is None
        v = tray.verdict()
        assert v is not None and v["kind"] == "placed" and v["n"] == 1, v


def test_a_hand_resting_part_of_a_cat_after_a_heavy_one_does_not_split_it():
    # At 10/s: a first cat 18% heavier than the average (no clean step from
    # the tare), two average ones, then a cat the hand lets go of in two
    # steps, the first (0.82 of a cat) long enough to look like the turn's
    # end. The tray goes back to the quiet state before it, not a question.
    cal = cal_for(10)
    pc = cal.per_cat
    t = Trace("heavy-rest", rate_hz=10, noise=REALISTIC, offset=cal.zero[0])
    one = (1.0,)
    for start, amount in ((3000000, pc * 118 // 100), (5000000, pc), (7000000, pc),
                          (9000000, pc * 82 // 100), (10500000, pc * 28 // 100)):
        t.add(Ramp(start, 100000, amount, one))
    tray = Tray(cal)
    tray.tare()
    events = []
    for k in range(14000000 // 100000):
        ev = tray.feed(t.counts_at(k * 100000))
        if ev and ev["ev"] != "handling":
            events.append(ev)
    kinds = [(e["ev"], e["n"], e["cats"]) for e in events]
    assert [k for k in kinds if k[0] == "placed"] == [("placed", 1, n) for n in (1, 2, 3, 4)]
    assert kinds[-1] == ("settled", 0, 4), kinds
    assert [e for e in events if "ask" in e and e["ask"]["ask"] == "cats"] == [], kinds


def test_a_hand_still_holding_a_tenth_of_a_cat_does_not_split_it():
    # At 10/s the hand lets go of a heavy cat (1.15) in two steps; the first,
    # 0.9 of a cat, is still for long enough to end the turn and close enough
    # to whole cats to pass for a light one. When the rest arrives the tray
    # goes back past it instead of asking.
    cal = cal_for(10)
    pc = cal.per_cat
    t = Trace("light-rest", rate_hz=10, noise=REALISTIC, offset=cal.zero[0])
    one = (1.0,)
    for start, amount in ((3000000, pc), (5000000, pc * 90 // 100), (6500000, pc * 25 // 100)):
        t.add(Ramp(start, 100000, amount, one))
    tray = Tray(cal)
    tray.tare()
    events = []
    for k in range(10000000 // 100000):
        ev = tray.feed(t.counts_at(k * 100000))
        if ev and ev["ev"] != "handling":
            events.append(ev)
    kinds = [(e["ev"], e["n"], e["cats"]) for e in events]
    assert [k for k in kinds if k[0] == "placed"] == [("placed", 1, 1), ("placed", 1, 2)], kinds
    assert kinds[-1] == ("settled", 0, 2), kinds
    assert [e for e in events if "ask" in e and e["ask"]["ask"] == "cats"] == [], kinds


def test_a_load_that_is_not_whole_cats_asks():
    s = Session("odd", rate_hz=80, noise=REALISTIC, per_cat=PER_CAT)
    s.t = 2000000
    for _ in range(3):
        s.place()
    # Half a cat's weight (a phone?) put on the tray.
    s.trace.add(Ramp(s.t + 1000000, 100000, PER_CAT // 2, (1.0,)))
    s.t += 4000000
    played = play(s, cal_for())
    asks = [e for e in played.events[-3:] if e[1].get("ask", {}).get("ask") == "cats"]
    assert len(asks) == 1, played.events[-3:]
    ask = asks[0][1]["ask"]
    # The nearest whole number is the guess, with no confidence.
    assert ask["default"] in (3, 4) and ask["conf"] == 0 and "not a whole number" in ask["why"]
    assert ask["min"] == 0 and ask["max"] == played.tray.turn.in_play
    record = played.tray.confirm(ask["id"], 3)
    assert record["value"] == 3 and played.tray.cats == 3 and played.tray.conf == 100


# ---- a retry after a collapse ------------------------------------------------------


def _retry(seed, rate, stay):
    """Nine cats placed, the tower falls (stay: percent of falling cats that
    land and stay on the tray), and the same player tries again: the fallen
    cats are lifted off the tray, then the cat is placed. An attempt is open
    from the collapse on, as on the table; the collapse's verdict is
    answered truthfully and the rules' tower agreed."""
    s = session(seed, "ppppppppp", rate=rate)
    s.stay, s.bounce = stay, 100 - stay
    s.collapse()
    while s.loose:
        s.remove(most=2)
    s.place()
    s.t += 2000000
    tray = Tray(cal_for(rate), wedged=4, in_play=40)
    tray.tare()
    fall = s.truth[9]
    retry_at = s.truth[10]["start"]
    events, verdicts = [], []
    trace, k = s.trace, 0
    while k * trace.period < s.t:
        t = k * trace.period
        if t >= fall["start"] and not verdicts and not tray.turn.attempt:
            tray.begin_attempt()
            verdicts.append(None)
        if t >= retry_at and len(verdicts) == 1:
            v = tray.verdict()
            assert v is not None and v["kind"] == "collapse", (v, events)
            tray.confirm(v["id"], max(v["min"], min(v["max"], fall["fell"])))
            tray.agree(fall["tower"])
            tray.begin_attempt()
            verdicts.append(v)
        ev = tray.feed(trace.counts_at(t))
        if ev is not None and ev["ev"] != "handling":
            events.append((t >= retry_at, ev))
        k += 1
    verdicts.append(tray.verdict())
    return s, events, verdicts


def test_cats_lifted_off_the_tray_while_the_player_retries_are_no_collapse():
    # The fallen cats lie on the tray; lifting them off during the retry is
    # tidying, not a second collapse a default OK would charge for.
    for rate in (80, 10):
        s, events, verdicts = _retry("retry-%d" % rate, rate, stay=100)
        assert s.truth[9]["stayed"] >= 1
        later = [e for retry, e in events if retry and e["ev"] in ("collapse", "removed")]
        assert later and all(e["ev"] == "removed" for e in later), (rate, events)
        assert sum(e["n"] for e in later) == -s.truth[9]["stayed"], later
        v = verdicts[-1]
        assert v["kind"] == "placed" and v["n"] == 1 and v["ask"] == "added", (rate, v)


def test_a_collapse_whose_cats_landed_on_the_tray_is_asked_not_asserted():
    # Three cats fell and two landed on the tray: the load says one left,
    # not how many fell, so the tray asks, starting from one, no percentage.
    s, events, verdicts = _retry("landed-37", 80, stay=60)
    fall = s.truth[9]
    assert (fall["fell"], fall["left"], fall["stayed"], fall["held"]) == (3, 1, 2, True), fall
    v = verdicts[1]
    assert v["kind"] == "collapse" and v["default"] == 1, v
    assert v["conf"] == 0 and "may have landed" in v["why"], v
