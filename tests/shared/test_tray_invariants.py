# The tray's invariants over random calibrations and traces, under CPython
# and MicroPython: counts and the tower stay within 0..in play, every
# question has min <= default <= max and accepts its default, a jump no
# count explains is a fault or a question, and a hand is never a cat.
from tray_checks import check_no_phantoms, play, play_checked, session

from catnip.rules.rng import Rng
from catnip.tray import Calibration, Tray
from devsim.effects import Ramp
from devsim.sessions import Session
from devsim.traces import Trace


def _between(rng, lo, hi):
    span = hi - lo + 1
    if span <= 65536:
        return lo + rng.below(span)
    return lo + (rng.next16() << 16 | rng.next16()) % span


def random_case(rng):
    """A calibration and a session drawn at random: per_cat, noise (0.5-3%
    of a cat), rate, the zero off by up to a cat (a tray not tared or a
    stale calibration), how many cats the game has."""
    rate = (10, 80)[rng.below(2)]
    per_cat = _between(rng, 400, 20000)
    noise = max(1, per_cat * _between(rng, 5, 30) // 1000)
    offset = _between(rng, -100000, 100000)
    cal = Calibration(rate, [offset + _between(rng, -per_cat, per_cat)], [1], per_cat,
                      per_cat // 40, noise, 5)
    script = "".join("ppppcrt"[rng.below(7)] for _ in range(_between(rng, 3, 9)))
    s = Session("inv-%d" % rng.below(60000), rate_hz=rate, noise=noise, per_cat=per_cat,
                offset=offset)
    s.t = 2000000
    turns = {"p": s.place, "c": s.collapse, "t": s.touch, "r": s.remove}
    for _ in range(4):
        s.place()
    for ch in script:
        if ch != "r" or s.loose:
            turns[ch]()
    s.t += 2000000
    return cal, s, 4 + len(script) + _between(rng, 0, 5)


def test_random_calibrations_and_games_keep_every_invariant():
    rng = Rng("invariants")
    for case in range(6):
        cal, s, in_play = random_case(rng)
        tare = rng.below(3) != 0  # one in three plays untared
        tray, events = play_checked(s, cal, in_play, tare=tare)
        assert events, case


def test_a_load_below_the_zero_asks_instead_of_counting_negative_cats():
    for cats_below in (1, 2, 5):
        t = Trace("below", rate_hz=80, noise=40, offset=100000)
        cal = Calibration(80, [100000], [1], 4000, 100, 40, 5)
        t.add(Ramp(3000000, 100000, -4000 * cats_below, (1.0,)))
        tray = Tray(cal, in_play=20)
        tray.tare()
        events = [ev for ev in (tray.feed(t.counts_at(k * 12500)) for k in range(500)) if ev]
        counted = [e for e in events if e["ev"] in ("placed", "removed", "collapse")]
        assert counted == [], counted
        asks = [e["ask"] for e in events if "ask" in e]
        assert len(asks) == 1 and asks[0]["ask"] == "cats", events
        assert (asks[0]["min"], asks[0]["default"]) == (0, 0) and tray.cats == 0
        tray.confirm(asks[0]["id"], 0)


def test_untared_with_the_zero_a_cat_high_never_counts_below_none():
    cal = Calibration(80, [104000], [1], 4000, 100, 40, 5)  # the zero one cat high
    t = Trace("high-zero", rate_hz=80, noise=40, offset=100000)
    t.add(Ramp(3000000, 100000, 2000, (1.0,)))  # then half a cat
    tray = Tray(cal, in_play=10)
    for k in range(600):
        ev = tray.feed(t.counts_at(k * 12500))
        if ev and "ask" in ev:
            assert 0 <= ev["ask"]["min"] <= ev["ask"]["default"] <= ev["ask"]["max"] == 10
            tray.confirm(ev["ask"]["id"], ev["ask"]["default"])  # the one recovery path
        assert 0 <= tray.cats <= 10 and 0 <= tray.tower <= tray.cats


def test_an_absurd_jump_is_a_fault_or_a_question_never_a_count():
    for jump in (430293 * 4000, 3000 * 4000, -900 * 4000, 41 * 4000):
        t = Trace("absurd", rate_hz=80, noise=40, offset=0)
        cal = Calibration(80, [0], [1], 4000, 100, 40, 5)
        t.add(Ramp(3000000, 50000, jump, (1.0,)))
        tray = Tray(cal, in_play=40)
        tray.tare()
        events = [ev for ev in (tray.feed(t.counts_at(k * 12500)) for k in range(500)) if ev]
        counted = [e for e in events if e["ev"] in ("placed", "removed", "collapse")]
        said = [e for e in events if e["ev"] == "fault" or "ask" in e]
        assert counted == [] and said, (jump, events)
        assert 0 <= tray.cats <= 40


def test_hands_are_never_cats():
    rng = Rng("hands")
    for case in range(3):
        rate = (10, 80)[case % 2]
        s = session("hands-%d" % case, "pp" + "t" * _between(rng, 4, 8), rate=rate)
        cal = Calibration(rate, [int(s.trace._offset)], [1], 4300, 86, 86, 5)
        check_no_phantoms(play(s, cal))
