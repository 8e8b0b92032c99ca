"""The tray's doors under hypothesis: a few hundred inputs each in every test
run (tests/tray_doors.py has the doors; `python -m bench bench_tray_fuzz`
plays 100,000 a door). Only TrayError comes out, naming what was wrong, and a
refused call changes nothing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tray_doors import DOORS

EACH = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _through(name: str, r) -> None:
    draw, door = DOORS[name]
    door(draw(r))


@EACH
@given(r=st.randoms(use_true_random=False))
def test_a_saved_calibration_is_refused_by_name(r) -> None:
    _through("Calibration.from_dict", r)


@EACH
@given(r=st.randoms(use_true_random=False))
def test_a_calibrator_refuses_bad_arguments_by_name(r) -> None:
    _through("Calibrator(...)", r)


@settings(EACH, max_examples=150)
@given(r=st.randoms(use_true_random=False))
def test_feed_and_confirm_let_out_only_tray_errors(r) -> None:
    _through("Tray feed/confirm", r)


def test_none_fell_after_a_collapse_off_an_empty_tower_keeps_the_tower_on_the_tray() -> None:
    # More cats than in play settle (asked, unanswered, so the tower stays
    # empty), then 9 leave the tray: "how many fell?" answered 0 must not
    # put 9 back on a tower the tray holds only 3 of.
    from tray_doors import door_tray

    door_tray([("hold", 13, 45), ("hold", 4, 8), ("confirm", 2, 0)])


def test_the_doors_name_what_was_wrong() -> None:
    from catnip.tray import Calibration, Tray, TrayError
    from catnip.tray.calibrator import Calibrator

    good = Calibration(80, [0], [1], 4300, 86, 86, 5).to_dict()
    for key, bad in (("rate_hz", 80.0), ("cats", True), ("noise", None), ("zero", "0"),
                     ("per_cat", 1 << 40), ("sign", [True])):
        try:
            Calibration.from_dict(dict(good, **{key: bad}))
        except TrayError as e:
            assert e.field == key and key in str(e), (key, str(e))
        else:
            raise AssertionError(f"accepted {key}={bad!r}")
    for missing in ("noise", "gain"):
        d = dict(good)
        del d[missing]
        try:
            Calibration.from_dict(d)
        except TrayError as e:
            assert e.field == missing and "missing" in str(e), str(e)
    for rate, cells, field in ((80.0, 1, "rate_hz"), (80, True, "cells"), (None, 1, "rate_hz")):
        try:
            Calibrator(rate, cells)
        except TrayError as e:
            assert e.field == field and field in str(e), str(e)
        else:
            raise AssertionError((rate, cells))
    tray = Tray(Calibration.from_dict(good))
    for raw in (True, 1.5, None, "5", 1 << 24):
        try:
            tray.feed(raw)
        except TrayError as e:
            assert e.field == "raw" and "24-bit count" in str(e), str(e)
        else:
            raise AssertionError(raw)
    assert tray.samples == 0
