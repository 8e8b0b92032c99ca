# The tray's calibration on scripted sessions (the empty base, cats one at a
# time, a weight above each corner), under CPython and MicroPython.
from check import message, raises
from tray_checks import (PER_CAT, cal_for, REALISTIC, calibrate, play, session)

from catnip.tray import Calibration, TrayError
from catnip.tray.calibrator import Calibrator
from devsim.sessions import Session


# ---- calibration -------------------------------------------------------------


def test_calibration_learns_cat_and_noise():
    cal, answers = calibrate(80, REALISTIC)
    assert [a["ok"] for a in answers] == [True] * 6, answers
    c = cal.result()
    assert abs(c.per_cat - PER_CAT) <= PER_CAT * 6 // 100, c.per_cat
    # The noise is the reading noise plus what is left of the mains hum.
    assert REALISTIC * 7 // 10 <= c.noise <= REALISTIC * 16 // 10, c.noise
    assert c.sign == [1] and c.cats == 5
    assert PER_CAT // 50 <= c.cat_sd <= PER_CAT // 5, c.cat_sd


def test_calibration_four_cells_and_ten_per_second():
    c = calibrate(10, REALISTIC, cells=4)[0].result()
    assert c.cells == 4 and c.rate_hz == 10 and c.sign == [1, 1, 1, 1]
    assert abs(c.per_cat - PER_CAT) <= PER_CAT * 6 // 100, c.per_cat


def test_calibration_round_trips_as_json_ready_dict():
    c = cal_for()
    d = c.to_dict()
    assert d["version"] == 2 and isinstance(d["zero"], list) and d["gain"] == [1024]
    again = Calibration.from_dict(d)
    assert again.to_dict() == d


def test_bad_calibration_is_named():
    d = cal_for().to_dict()
    d2 = dict(d)
    del d2["per_cat"]
    assert "lacks per_cat" in message(TrayError, Calibration.from_dict, d2)
    v1 = dict(d, version=1)
    del v1["gain"]  # saved before gains: every cell at 1.0
    assert Calibration.from_dict(v1).gain == [1024]
    d2 = dict(d, version=7)
    assert "calibrate the tray again" in message(TrayError, Calibration.from_dict, d2)
    d2 = dict(d, per_cat=5)
    assert "per_cat must be" in message(TrayError, Calibration.from_dict, d2)
    d2 = dict(d, noise=d["per_cat"])
    assert "shield the cable" in message(TrayError, Calibration.from_dict, d2)
    d2 = dict(d, rate_hz=20)
    assert "10 or 80" in message(TrayError, Calibration.from_dict, d2)
    raises(TrayError, Calibration.from_dict, [1, 2])


def test_calibrator_refuses_a_moving_or_stuck_capture():
    s = Session("cal-moving", rate_hz=80, noise=REALISTIC, per_cat=PER_CAT)
    rec = s.place()
    cal = Calibrator(80)
    assert "empty base" in message(TrayError, cal.capture, 1)
    cal.capture(0)
    got = None
    k = rec["start"] // s.trace.period  # capture while the cat goes on
    while got is None:
        got = cal.feed(s.trace.counts_at(k * s.trace.period))
        k += 1
    assert not got["ok"] and "keep hands off" in got["why"], got
    cal.capture(0)
    for _ in range(80):
        got = cal.feed(123456)
    assert not got["ok"] and "stuck" in got["why"], got
    cal.capture(0)
    for k in range(80):
        got = cal.feed(0x7FFFFF if k == 40 else 1000 + k % 7)
    assert not got["ok"] and "full scale" in got["why"], got
    assert "capture(0) first" in message(TrayError, cal.result)


def test_an_undone_capture_is_as_if_it_never_was():
    def still(cal, level):
        got = None
        k = 0
        while got is None:
            got = cal.feed(level + (k * 7919) % 61 - 30)
            k += 1
        assert got["ok"], got

    once, twice = Calibrator(80), Calibrator(80)
    for cal in (once, twice):
        cal.capture(0)
        still(cal, 1000)
        cal.capture(1)
        still(cal, 1000 + PER_CAT)
    twice.capture(2)
    still(twice, 1000 + PER_CAT)  # the second cat never went on
    twice.undo()
    assert twice.levels == once.levels
    assert twice.result().to_dict() == once.result().to_dict()
    twice.undo()
    twice.undo()
    assert "no capture to undo" in message(TrayError, twice.undo)




def test_a_weight_above_each_corner_calibrates_each_cells_gain():
    gains = (1.06, 0.95, 1.03, 0.96)  # cells of one batch differ by a few percent
    cal, answers = calibrate(80, REALISTIC, cells=4, corners=True, gains=gains)
    assert [a.get("corner") for a in answers[-4:]] == [0, 1, 2, 3], answers
    assert all(a["ok"] for a in answers), answers
    got = cal.result()
    mean = sum(gains) / 4
    for c in range(4):
        assert abs(got.gain[c] - gains[c] / mean * 1024) <= 1024 * 15 // 1000, got.gain
    # The lean is then a measurement: within 15 thousandths of the truth,
    # where the uncalibrated cells are off by up to twice as much.
    s = session("lean-gains", "pppppppp", cells=4, gains=gains)
    err = []
    for which in (got, calibrate(80, REALISTIC, cells=4, gains=gains)[0].result()):
        played = play(s if which is got else session("lean-gains", "pppppppp", cells=4,
                                                      gains=gains), which)
        worst = 0
        for i, rec in enumerate(played.truth):
            r, x, y = [e for _, e in played.turn_events[i] if e["ev"] == "settled"][-1]["lean"]
            worst = max(worst, abs(x - rec["lean"][1]), abs(y - rec["lean"][2]))
        err.append(worst)
    assert err[0] <= 15 and err[1] > err[0], err
    assert "all four corners" in message(TrayError, _three_corners)


def _three_corners():
    cal = Calibrator(80, 4)
    cal.levels[0] = [0, 0, 0, 0]
    cal.levels[1] = [1000, 1000, 1000, 1000]
    for k in range(3):
        cal.corners[k] = [4000 if c == k else 10 for c in range(4)]
    return cal.result()
