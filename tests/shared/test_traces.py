# devsim.traces: the contract the HX711 model relies on, and the truth the
# tray tests rely on. Runs under CPython and MicroPython.
from check import message, raises

from catnip.rules.rng import Rng
from devsim.effects import Bump, Ramp
from devsim.sessions import Session
from devsim.traces import ALL_ONES, FULL_SCALE, GAUSS_ONE, Trace, gauss, weights_at


def _sd(xs):
    m = sum(xs) / len(xs)
    return (sum((x - m) * (x - m) for x in xs) / len(xs)) ** 0.5


def test_gauss_is_standard_normal():
    r = Rng("gauss")
    zs = [gauss(r) for _ in range(20000)]
    mean = sum(zs) / len(zs) / GAUSS_ONE
    var = sum(z * z for z in zs) / len(zs) / GAUSS_ONE / GAUSS_ONE
    tail = sum(1 for z in zs if abs(z) > 3 * GAUSS_ONE) / len(zs)
    assert abs(mean) < 0.03 and abs(var - 1) < 0.04, (mean, var)
    assert 0.0015 < tail < 0.0045, tail  # 0.27% beyond three sigma
    assert max(abs(z) for z in zs) <= 17715  # the table ends at 4.3 sigma


def test_counts_at_needs_time_to_move_forward():
    t = Trace("fwd", noise=50)
    t.counts_at(100000)
    assert t.counts_at(100000) == t.counts_at(100000)  # same instant, same reading
    assert "non-decreasing" in message(ValueError, t.counts_at, 99999)
    raises(ValueError, Trace, "x", rate_hz=20)
    assert "cell(i)" in message(ValueError, Trace("x", cells=4).counts_at, 0)


def test_noise_belongs_to_the_instant_not_to_the_reader():
    # A reader that samples every other period sees the same readings at the
    # instants it shares with one that samples every period.
    a, b = Trace("same", noise=80), Trace("same", noise=80)
    every = [a.counts_at(k * 12500) for k in range(200)]
    other = [b.counts_at(k * 12500) for k in range(0, 200, 2)]
    assert every[::2] == other
    assert 60 < _sd(every) < 100


def test_a_conversion_reports_the_mean_load_over_its_period():
    t = Trace("mean", rate_hz=10, offset=1000)
    t.add(Ramp(250000, 1, 4000, (1.0,)))  # a step at 250 ms
    # The conversion ending at 300 ms spent half its 100 ms after the step.
    assert [t.counts_at(k * 100000) for k in (2, 3, 4)] == [1000, 3000, 5000]
    assert abs(t.load_at(300000)[0] - 3000) < 0.1  # the 1 us ramp costs 0.02


def test_mains_hum_cancels_at_ten_per_second_not_at_eighty():
    slow = Trace("hum", rate_hz=10, vibration=1000)
    fast = Trace("hum", rate_hz=80, vibration=1000)
    assert _sd([slow.counts_at(k * 100000) for k in range(100)]) < 5
    assert _sd([fast.counts_at(k * 12500) for k in range(400)]) > 200


def test_readings_are_24_bit_and_faults_read_as_faults():
    t = Trace("clip", offset=0x7FFF00)
    t.add(Bump(0, 200000, 100000, (1.0,)))
    assert max(t.counts_at(k * 12500) for k in range(20)) == FULL_SCALE
    for kind, expect in (("ones", ALL_ONES), ("rail", FULL_SCALE), ("silent", None)):
        t = Trace("f", noise=30)
        t.fault(100000, kind)
        assert t.counts_at(50000) is not None
        assert [t.counts_at(k * 12500) for k in (8, 9, 10)] == [expect] * 3
    t = Trace("stuck", noise=30)
    last = t.counts_at(87500)
    t.fault(100000, "stuck")
    assert [t.counts_at(k * 12500) for k in (8, 9, 10, 50)] == [last] * 4
    assert "unknown fault" in message(ValueError, t.fault, 0, "melted")


def test_four_cells_share_the_load_by_position():
    assert weights_at(4, 0, 0) == (0.25, 0.25, 0.25, 0.25)
    assert weights_at(4, 1000, 1000) == (0.0, 0.0, 1.0, 0.0)  # over the right-back cell
    t = Trace("four", cells=4)
    t.add(Ramp(0, 1, 8000, weights_at(4, 500, -500)))
    cells = t.counts4_at(500000)
    assert sum(cells) == 8000 and cells[1] == 4500, cells  # right-front carries most


def test_a_session_keeps_the_truth():
    s = Session("truth", noise=80, stay=50, bounce=25)
    for _ in range(8):
        s.place()
    rec = s.collapse()
    assert rec["kind"] == "collapse" and rec["fell"] == rec["left"] + rec["stayed"]
    assert rec["hit"] >= rec["stayed"] and rec["cats"] == s.cats() == 8 + rec["n"]
    assert rec["start"] < rec["settle"]
    assert [r["kind"] for r in s.truth] == ["placed"] * 8 + ["collapse"]
    assert all(r["start"] > prev["settle"] for prev, r in zip(s.truth, s.truth[1:]))
    if s.loose:
        assert s.remove()["n"] < 0
    s.fail("stuck")
    assert s.truth[-1]["kind"] == "fault"


def test_a_session_gives_the_lean_with_four_cells():
    s = Session("lean", cells=4)
    assert "lean" in s.place()
    assert "lean" not in Session("one").place()
    r, x, y = s.lean()
    assert r * r - 2 <= x * x + y * y <= r * r + 2 * r + 2


def test_calibration_marks_wait_for_a_still_tray():
    s = Session("marks")
    marks = s.calibrate(3)
    assert [k for _, k in marks] == [0, 1, 2, 3]
    for (t, k), rec in zip(marks[1:], s.truth):
        assert t > rec["settle"]


def test_traces_are_identical_on_both_interpreters():
    s = Session("vector", rate_hz=80, cells=4, noise=86)
    s.game(bag=6)
    h = 0
    for k in range(s.t // s.trace.period):
        for v in s.trace.counts4_at(k * s.trace.period):
            h = (h * 31 + v) % 1000000007
    assert (len(s.truth), s.t, h) == (10, 30153666, 403494574), (len(s.truth), s.t, h)
