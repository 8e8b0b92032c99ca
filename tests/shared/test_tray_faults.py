# Sensor faults, recovery, and the cost of a reading, under both interpreters.
import gc

from check import message
from tray_checks import PER_CAT, REALISTIC, calibrate, play, session

from catnip.rules.rng import Rng
from catnip.tray import ALL_ONES, FULL_SCALE, Calibration, Tray, TrayError
from devsim.traces import GAUSS_ONE, gauss

_CAL = []


def cal80():
    if not _CAL:
        _CAL.append(calibrate(80, REALISTIC)[0].result())
    return _CAL[0]


def still(cal, cats, n, seed="still"):
    """n readings of a still tray holding `cats` cats, with realistic noise."""
    rng = Rng(seed)
    base = cal.zero[0] + cats * cal.per_cat
    return [base + gauss(rng) * REALISTIC // GAUSS_ONE for _ in range(n)]


def fed(tray, readings):
    return [ev for ev in (tray.feed(r) for r in readings) if ev is not None]


def tared(cal, cats=0):
    tray = Tray(cal)
    tray.tare()
    events = fed(tray, still(cal, cats, 200, "tare"))
    assert [e["ev"] for e in events] == ["settled"], events
    return tray


# ---- each kind of fault --------------------------------------------------------


def test_each_dead_sensor_is_named():
    names = {"stuck": "stuck", "ones": "saturated", "rail": "saturated", "silent": "no data"}
    for kind in ("stuck", "ones", "rail", "silent"):
        s = session("dies-" + kind, "ppp")
        s.fail(kind)
        s.t += 2000000
        played = play(s, cal80())
        faults = played.of("fault")
        assert [f["sensor"] for f in faults] == [names[kind]], (kind, faults)
        # Nothing is counted from a dead sensor.
        after = [e["ev"] for t, e in played.events if t > s.truth[-1]["start"]]
        assert after == ["fault"], (kind, after)
        assert played.tray.cats == 3


def test_stuck_is_called_after_eight_equal_readings():
    cal = cal80()
    tray = tared(cal)
    events = fed(tray, [cal.zero[0] + 50] * 7)
    assert events == [], events
    events = fed(tray, [cal.zero[0] + 50])
    assert events == [{"ev": "fault", "t": events[0]["t"], "sensor": "stuck"}]
    assert fed(tray, [cal.zero[0] + 50] * 50) == []  # said once


def test_saturation_is_three_readings_at_full_scale():
    cal = cal80()
    tray = tared(cal)
    assert fed(tray, [FULL_SCALE, FULL_SCALE]) == []
    assert [e["sensor"] for e in fed(tray, [FULL_SCALE])] == ["saturated"]
    tray = tared(cal)
    # All ones is what a DOUT line stuck high reads: -1 every time.
    events = fed(tray, [ALL_ONES] * 20)
    assert [e["sensor"] for e in events] == ["saturated"], events


def test_missing_readings_are_no_data():
    cal = cal80()
    tray = tared(cal)
    assert [tray.missed() for _ in range(23)] == [None] * 23
    ev = tray.missed()
    assert ev["ev"] == "fault" and ev["sensor"] == "no data"
    assert tray.missed() is None
    ev = tray.feed(cal.zero[0])
    assert ev["sensor"] == "ok"


def test_after_a_fault_a_changed_tower_shows_as_a_change():
    cal = cal80()
    tray = tared(cal, 0)
    assert fed(tray, [cal.zero[0] + 7] * 20)[-1]["sensor"] == "stuck"
    # While the sensor was out, two cats were put on. It comes back:
    events = fed(tray, still(cal, 2, 200, "back"))
    kinds = [(e["ev"], e.get("sensor"), e.get("n")) for e in events]
    assert kinds[0] == ("fault", "ok", None), kinds
    placed = [e for e in events if e["ev"] == "placed"]
    assert len(placed) == 1 and placed[0]["n"] == 2 and placed[0]["cats"] == 2, events
    assert "ask" not in placed[0]  # two at once: no single height to propose


def test_one_stuck_cell_of_four_is_a_fault():
    cal = Calibration(80, [1000, 2000, 3000, 4000], [1, 1, 1, 1], PER_CAT, 215, 172, 5)
    tray = Tray(cal)
    rng = Rng("four")
    events = []
    for k in range(100):
        n = [gauss(rng) * REALISTIC // GAUSS_ONE for _ in range(4)]
        ev = tray.feed4(1000 + n[0], 2000 + n[1], 3333 if k >= 40 else 3000 + n[2], 4000 + n[3])
        if ev is not None:
            events.append(ev)
    faults = [e for e in events if e["ev"] == "fault"]
    assert [f["sensor"] for f in faults] == ["stuck"], events


def test_wrong_feed_for_the_cells_is_named():
    cal = cal80()
    assert "use feed(raw)" in message(TrayError, Tray(cal).feed4, 1, 2, 3, 4)
    four = Calibration(80, [0, 0, 0, 0], [1, 1, 1, 1], PER_CAT, 215, 172, 5)
    assert "use feed4" in message(TrayError, Tray(four).feed, 1)
    broken = Calibration.from_dict(cal.to_dict())
    broken.noise = 0
    assert "noise must be" in message(TrayError, Tray, broken)


# ---- the per-reading path --------------------------------------------------------


def test_a_reading_allocates_nothing():
    # On MicroPython an allocation per reading would mean a garbage collection
    # every few seconds at 80 readings/s. CPython boxes every int, so the
    # measurement only means something under MicroPython.
    if not hasattr(gc, "mem_alloc"):
        return
    cal = cal80()
    tray = tared(cal, 0)
    quiet = still(cal, 0, 400, "quiet")
    # A still stretch, then a bump that leaves and comes back: an episode
    # that ends in a silent verdict, then the refinement and the drift filter.
    blip = quiet[:200] + [cal.zero[0] + cal.per_cat // 3] * 2 + quiet[200:]
    feed = tray.feed
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for r in blip:
            feed(r)
        used = gc.mem_alloc() - before
    finally:
        gc.enable()
    assert used == 0, "%d bytes allocated over %d readings" % (used, len(blip))


def test_a_four_cell_reading_in_an_attempt_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return
    cal = Calibration(80, [1000, 2000, 3000, 4000], [1, 1, 1, 1], PER_CAT, 215, 172, 5)
    tray = Tray(cal, in_play=20)
    tray.tare()
    rng = Rng("four-quiet")
    noise = [gauss(rng) * REALISTIC // GAUSS_ONE for _ in range(64)]
    for k in range(200):
        tray.feed4(1000 + noise[k % 64], 2000 + noise[(k + 7) % 64], 3000 + noise[(k + 19) % 64],
                   4000 + noise[(k + 31) % 64])
    tray.begin_attempt()
    gc.collect()
    gc.disable()
    try:
        used = 0
        for k in range(400):
            bump = PER_CAT // 3 if 200 <= k < 202 else 0  # an episode, a silent verdict
            before = gc.mem_alloc()
            ev = tray.feed4(1000 + noise[k % 64] + bump, 2000 + noise[(k + 7) % 64],
                            3000 + noise[(k + 19) % 64], 4000 + noise[(k + 31) % 64])
            if ev is None:
                used += gc.mem_alloc() - before
    finally:
        gc.enable()
    assert used == 0, "%d bytes allocated" % used


def test_a_ten_per_second_reading_in_an_attempt_allocates_nothing():
    # At 10/s an attempt's episode also scans its last readings for a cat
    # borne on the tower: a long bump, then a fall back, exercises it.
    cal = Calibration(10, [1000], [1], PER_CAT, 215, REALISTIC, 5)
    tray = Tray(cal, in_play=20)
    tray.tare()
    rng = Rng("ten-quiet")
    noise = [gauss(rng) * REALISTIC // GAUSS_ONE for _ in range(64)]
    for k in range(40):
        tray.feed(1000 + noise[k % 64])
    tray.begin_attempt()
    counting = hasattr(gc, "mem_alloc")  # CPython boxes every int: MicroPython only
    gc.collect()
    gc.disable()
    try:
        used = 0
        for k in range(60):
            bump = PER_CAT // 3 if 20 <= k < 27 else 0  # borne too lightly: a silent verdict
            before = gc.mem_alloc() if counting else 0
            ev = tray.feed(1000 + noise[k % 64] + bump)
            if ev is None and counting:
                used += gc.mem_alloc() - before
    finally:
        gc.enable()
    assert used == 0, "%d bytes allocated" % used
    assert tray.episode.held > PER_CAT // 4, tray.episode.held  # the scan ran over the bump
    assert tray.turn.attempt and tray.verdict()["kind"] == "none"
