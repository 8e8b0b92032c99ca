# From the load cell to an event: a synthetic trace with ground truth weighs
# on the simulated table's HX711 models, the real driver reads them through
# the fake pins, the real estimator calls the events. The events must match
# the trace's truth, and what feeding the same samples straight into the
# estimator gives. Both interpreters, virtual time.
from chainrig import Tap, board, check_exact, direct, run, summary
from check import message
from tray_checks import PER_CAT, REALISTIC, session

from catnip.tray import Calibration, Tray
from catnip.tray.calibrator import Calibrator
from devsim.table import Table
from devsim.effects import Ramp
from devsim.sessions import Session
from devsim.traces import Trace, weights_at

OFFSET = 152000  # the empty base's reading
_CAL = {}


def calibrate(rate):
    """The maker's calibration at `rate` through the chain (empty base, then
    five cats): the session, the chain, the Calibrator, its answers, and
    when OK was pressed [(reading, cats)]."""
    s = Session("chain-cal", rate_hz=rate, noise=REALISTIC, per_cat=PER_CAT, offset=OFFSET)
    marks = s.calibrate(5)
    cal = Calibrator(rate, 1)
    answers = []
    pressed = []
    readings = [0]

    def on_counts(now, counts):
        while marks and now >= marks[0][0]:
            pressed.append((readings[0], marks[0][1]))
            cal.capture(marks.pop(0)[1])
        readings[0] += 1
        got = cal.feed(counts[0])
        if got is not None:
            answers.append(got)

    chain = run(s.trace, s.t + 2000000, rate, on_counts)
    _CAL[rate] = cal.result()
    return s, chain, cal, answers, pressed


def calibrated(rate):
    """The Calibration the chain gives at `rate` (kept: the heap is small)."""
    if rate not in _CAL:
        calibrate(rate)
    return _CAL[rate]


def test_calibration_through_the_chain_finds_the_generators_truth():
    for rate in (10, 80):
        s, chain, cal, answers, pressed = calibrate(rate)
        index = check_exact(chain)
        assert [a["cats"] for a in answers if a["ok"]] == [0, 1, 2, 3, 4, 5], answers
        got = cal.result()
        cats = [c[0] for c in s.tower]
        truth = sum(cats) // len(cats)
        assert abs(got.per_cat - truth) <= truth // 100, (rate, got.per_cat, truth)
        assert abs(got.zero[0] - OFFSET) <= PER_CAT // 40, (rate, got.zero, OFFSET)
        assert got.sign == [1] and got.cats == 5
        assert REALISTIC // 2 <= got.noise <= 3 * REALISTIC, (rate, got.noise)
        # Every conversion fed straight in, OK pressed before the same ones,
        # calibrates identically: the driver skipped only the settling
        # readings before the first capture.
        again = Calibrator(rate, 1)
        press = dict((index[r], cats) for r, cats in pressed)
        for j, raw in enumerate(chain.tap.samples()):
            if j in press:
                again.capture(press[j])
            again.feed(raw)
        assert again.result().to_dict() == got.to_dict()
        assert chain.restarts == 0 and chain.skipped() == 3, (chain.restarts, chain.skipped())


def by_turn(truth, events, end_us):
    """Events [(t_us, ev)] grouped by the truth turn they fall in."""
    starts = [rec["start"] for rec in truth] + [end_us]
    turns = [[] for _ in truth]
    for t, ev in events:
        for i in range(len(truth)):
            if starts[i] <= t < starts[i + 1]:
                turns[i].append(ev)
    return turns


def check_truth(truth, turns, cats_before=0):
    """Each turn ends with the truth's count of cats; placements are one
    placed event, collapses at least one collapse (a placement may come
    before it) with the cats that left, removals the cats removed."""
    cats = cats_before
    for i, rec in enumerate(truth):
        before = cats
        evs = turns[i]
        kinds = [e["ev"] for e in evs]
        for e in evs:
            if "cats" in e:
                cats = e["cats"]
        assert cats == rec["cats"], (i, rec, evs)
        if rec["kind"] == "placed":
            assert [e["n"] for e in evs if e["ev"] == "placed"] == [1], (i, rec, evs)
        if rec["kind"] == "collapse":
            assert "collapse" in kinds and "placed" not in kinds[kinds.index("collapse"):], (
                i, rec, evs)
            # Cats gone from the tray since the turn began (the scale cannot
            # know about the falling cat that was never on the tower).
            left = [e for e in evs if e["ev"] == "collapse"][-1]["left"]
            assert left == max(0, before - rec["cats"]), (i, rec, evs)
        else:
            assert "collapse" not in kinds, (i, rec, evs)
        if rec["kind"] == "removed":
            assert sum(e["n"] for e in evs if e["ev"] == "removed") == rec["n"], (i, rec, evs)


def test_a_game_through_the_chain_gives_the_truths_events():
    cal = calibrated(80)
    # Eight placements (four wedged), a collapse, the fallen cats lifted
    # off, two more placements: 32 s at 80 readings/s.
    s = session("chain-game-0", "ppppppppcrpp", rate=80)
    assert [r["kind"] for r in s.truth][8:10] == ["collapse", "removed"]
    tray = Tray(cal, wedged=Session.WEDGED)
    tray.tare()
    chain = run(s.trace, s.t, 80, tray=tray)
    check_exact(chain)
    assert chain.faults == [] and chain.alive
    check_truth(s.truth, by_turn(s.truth, chain.events, s.t))
    assert tray.cats == s.cats()
    # Every conversion fed straight in says the same, a little later: the
    # chain lost only the three settling conversions of the driver's start.
    _, straight = direct(chain.tap.samples(), cal, wedged=Session.WEDGED)
    assert summary(straight) == summary(chain.events)
    skipped = chain.skipped()
    assert skipped == 3 and chain.restarts == 0, (skipped, chain.restarts)
    for (k, a), (t, b) in zip(straight, chain.events):
        assert 0 <= a["t"] - b["t"] <= (skipped * 1000 + 79) // 80, (a, b)


def test_a_sensor_that_dies_is_one_fault_and_comes_back():
    cal = calibrated(80)
    s = session("chain-dies", "pppppp", rate=80)
    s.fail("silent")
    back = s.t + 1500000
    s.trace.repair(back)
    s.t = back
    s.place()
    s.t += 2000000
    tray = Tray(cal, wedged=Session.WEDGED)
    tray.tare()
    chain = run(s.trace, s.t, 80, tray=tray)
    check_exact(chain)
    # The driver reports the outage once and keeps running; the tray says
    # "no data" once, "ok" when readings return, then counts on.
    assert len(chain.faults) == 1 and chain.alive
    dead = s.truth[-2]["start"]
    assert dead < chain.faults[0][0] < dead + 100000, (dead, chain.faults)
    faults = [(t, e["sensor"]) for t, e in chain.events if e["ev"] == "fault"]
    assert [w for _, w in faults] == ["no data", "ok"], faults
    assert faults[0][0] == chain.faults[0][0] and back < faults[1][0] < back + 200000
    assert not [e for t, e in chain.events if faults[0][0] < t < faults[1][0]]
    check_truth(s.truth, by_turn(s.truth, chain.events, s.t))
    # Fed straight in, the silent readings are missed ones: the same story.
    _, straight = direct(chain.tap.samples(), cal, wedged=Session.WEDGED)
    assert summary(straight) == summary(chain.events)
    # The outage and the driver's restart after it cost four more readings.
    assert chain.skipped() == 3 + 4 and chain.restarts == 1, (chain.skipped(), chain.restarts)


def test_a_sensor_reading_all_ones_is_called_saturated_once():
    cal = calibrated(80)
    s = session("chain-ones", "ppppp", rate=80)
    s.fail("ones")
    s.t += 3000000
    tray = Tray(cal, wedged=Session.WEDGED)
    tray.tare()
    chain = run(s.trace, s.t, 80, tray=tray)
    check_exact(chain)
    assert chain.faults == [] and chain.values[0][-1] == -1  # DOUT high: all ones
    after = [e for t, e in chain.events if t >= s.truth[-1]["start"]]
    assert [(e["ev"], e["sensor"]) for e in after] == [("fault", "saturated")], after
    assert tray.cats == 5


def test_the_tray_as_the_firmware_assembles_it():
    # catnip.parts.hardware builds the HX711Group from board.json and weighs at
    # 10 readings/s; a dead sensor is one OFFLINE, its return one ONLINE.
    try:
        import framebuf  # noqa: F401  (the stations' screens need it)
    except ImportError:
        return  # CPython: the MicroPython run checks it
    cal = calibrated(10)
    s = session("chain-hw", "ppppp", rate=10)
    s.fail("silent")
    back = s.t + 2000000
    s.trace.repair(back)
    s.t = back
    s.place()
    s.t += 3000000
    tray = Tray(cal, wedged=Session.WEDGED)
    tray.tare()
    chain = run(s.trace, s.t, 10, tray=tray, hardware=True)
    check_exact(chain)
    check_truth(s.truth, by_turn(s.truth, chain.events, s.t))
    assert [e["sensor"] for _, e in chain.events if e["ev"] == "fault"] == ["no data", "ok"]
    hw = chain.hardware
    seen = []
    while True:
        event = hw.next()
        if event is None:
            break
        seen.append(event[:2])
    from catnip.drivers.debounce import OFFLINE, ONLINE
    from catnip.parts.hardware import TRAY

    assert seen == [(TRAY, OFFLINE), (TRAY, ONLINE)] and hw.tray_fault is None, seen


def test_four_cells_lean_towards_the_load():
    # Two cats set down right of centre and towards the front, then three
    # left and to the back: the lean follows the weight's centre.
    spots = ((2, 700, -500, 3000000), (3, -800, 600, 7000000))
    trace = Trace("chain-lean", rate_hz=80, cells=4, noise=REALISTIC, offset=OFFSET,
                  drift_per_min=40)
    twin = Trace("chain-lean", rate_hz=80, cells=4, noise=REALISTIC, offset=OFFSET,
                 drift_per_min=40)
    for t in (trace, twin):
        for cats, x, y, at in spots:
            t.add(Ramp(at, 300000, cats * PER_CAT, weights_at(4, x, y)))
    cal = Calibration(80, [OFFSET] * 4, [1, 1, 1, 1], PER_CAT, PER_CAT // 50,
                      2 * REALISTIC, 5)
    tray = Tray(cal)
    tray.tare()
    chain = run(trace, 10000000, 80, tray=tray)
    check_exact(chain)
    placed = [e for _, e in chain.events if e["ev"] == "placed"]
    assert [(e["n"], e["cats"]) for e in placed] == [(2, 2), (3, 5)], chain.events
    # Where the weight sits: the first two cats' spot, then the centre of all five.
    truth = ((700, -500), ((2 * 700 - 3 * 800) // 5, (-2 * 500 + 3 * 600) // 5))
    for e, (x, y) in zip(placed, truth):
        r, lx, ly = e["lean"]
        assert (lx > 0) == (x > 0) and (ly > 0) == (y > 0), (e["lean"], x, y)
        assert abs(lx - x) <= 60 and abs(ly - y) <= 60, (e["lean"], x, y)
    # The corner cells drift apart; once the driver has learned their
    # periods it reads between their reloads and never restarts them. Only
    # the slowest cell's conversions can all become readings (the others'
    # words are replaced before every cell has a new one); the four cells
    # sampled together at every conversion say the same.
    assert chain.restarts == 0, chain.restarts
    slowest = min(len(chain.tap.times[i]) for i in range(4))
    assert len(chain.times) >= slowest * 99 // 100, (len(chain.times), slowest)
    _, straight = direct([twin.counts4_at(k * 12500) for k in range(800)], cal)
    assert summary(straight) == summary(chain.events)
    lean = [e["lean"] for _, e in straight if e["ev"] == "placed"]
    for a, b in zip(lean, [e["lean"] for e in placed]):
        assert abs(a[1] - b[1]) <= 20 and abs(a[2] - b[2]) <= 20, (lean, placed)


def test_the_table_takes_a_trace_of_as_many_cells_as_its_tray():
    with Table(board(1), counts=Trace("one", cells=1)) as table:
        text = message(ValueError, setattr, table, "counts", Trace("four", cells=4))
        assert "4-cell trace" in text and "1 load cells" in text and "cells=1" in text
        table.counts = Tap(Trace("again", cells=1))


def test_a_source_without_data_keeps_dout_high_until_it_gives_data():
    import machine

    from devsim.models.hx711 import HX711Model
    from devsim.timing import VirtualClock

    level = [None]
    with VirtualClock() as clock:
        chip = HX711Model(clock, 2, 3, lambda t_us: level[0], rate=80)
        dout = machine.Pin(3, machine.Pin.IN)
        clock.sleep_us(100000)  # eight conversions, none with data
        assert dout.value() == 1 and chip.conversions == 0
        level[0] = 777
        clock.sleep_us(12500)
        assert dout.value() == 0 and chip.conversions == 1 and chip.violations == []
