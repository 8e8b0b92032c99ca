"""The tray's doors, fuzzed: everything a caller can hand Calibration.from_dict,
Calibrator(...) and a Tray's feed/confirm. Only TrayError may come out, with a
message naming what was wrong, and a refused call changes nothing.

Each door is a property of one generated input; `run(door, n)` plays n
inputs from a seeded generator and collects what escaped that was not the
tray's own error (the benchmark's figure, bench/bench_tray_fuzz.py);
tests/test_tray_fuzz.py runs a smaller sample through hypothesis in every
test run."""

from __future__ import annotations

import random
from collections.abc import Callable

from tray_checks import check_state

from catnip.tray import Calibration, Tray, TrayError
from catnip.tray.calibrator import Calibrator

# Inputs are drawn from a random.Random: the benchmark's own seeded one (fast
# enough for 100,000 inputs a door), or hypothesis's st.randoms() in the
# tests, which then shrinks a failure to its smallest draw.


def junk(r: random.Random) -> object:
    """A value a careless caller or a corrupted file hands in."""
    pick = r.randrange(12)
    if pick == 0:
        return None
    if pick == 1:
        return r.random() < 0.5
    if pick == 2:
        return r.choice((80.0, 10.0, float("nan"), float("inf"), -0.0, 1e300, 4300.5))
    if pick == 3:
        return r.randrange(-(1 << 70), 1 << 70)
    if pick == 4:
        return r.choice((1 << 30, 1 << 31, 1 << 63, -(1 << 31), 0x800000, -0x800001))
    if pick == 5:
        return "".join(r.choice("ab80 \u00e9\x00") for _ in range(r.randrange(4)))
    if pick == 6:
        return bytes(r.randrange(256) for _ in range(r.randrange(3)))
    if pick == 7:
        return [r.randrange(-5, 6) for _ in range(r.randrange(5))]
    if pick == 8:
        return {"a": r.randrange(9)}
    if pick == 9:
        return ()
    if pick == 10:
        return r.choice(("10", "80", "1", "[1]", "None", "{}"))
    return r.randrange(-3, 300)


def valid_calibration(r: random.Random) -> dict:
    cells = r.choice((1, 4))
    per_cat = r.randrange(20, 1 << 19)
    return {"version": 2, "rate_hz": r.choice((10, 80)),
            "zero": [r.randrange(-0x800000, 0x800000) for _ in range(cells)],
            "sign": [r.choice((1, -1)) for _ in range(cells)],
            "per_cat": per_cat, "cat_sd": r.randrange(per_cat // 2),
            "noise": r.randrange(1, per_cat // 2), "cats": r.randrange(1, 201),
            "gain": [r.randrange(512, 2049) for _ in range(cells)]}


# A field whose check depends on another: a wrong per_cat can make cat_sd or
# noise the one refused, a wrong zero the sign or the gain; a version 1 file
# has no gain.
_DEPENDS = {"per_cat": ("cat_sd", "noise"), "zero": ("sign", "gain"), "version": ("gain",)}


def broken_calibration(r: random.Random) -> tuple[object, object]:
    """A saved calibration with one thing wrong, and the key it concerns
    (None when the whole thing is wrong)."""
    d = valid_calibration(r)
    how = r.choice(("junk", "entry", "missing", "extra", "not a dict", "valid"))
    key = r.choice(sorted(d))
    if how == "junk":
        d[key] = junk(r)
    elif how == "entry" and key in ("zero", "sign", "gain"):
        d[key][r.randrange(len(d[key]))] = junk(r)
    elif how == "missing":
        del d[key]
    elif how == "extra":
        key = r.choice(("Version", "zeros", "", "gain ", 5, None, (1,)))
        d[key] = junk(r)
    elif how == "not a dict":
        return junk(r), None
    return d, key


def door_from_dict(case: tuple[object, object]) -> None:
    d, key = case
    try:
        cal = Calibration.from_dict(d)
    except TrayError as e:
        text = str(e)
        assert text, "an empty message"
        if isinstance(d, dict) and key in Calibration.FIELDS + ("version",):
            assert e.field is not None and e.field in text, text
            assert e.field == key or e.field in _DEPENDS.get(key, ()), (key, e.field, text)
        elif isinstance(d, dict) and key is not None:
            assert repr(key) in text, (key, text)  # an extra key is named
        return
    Tray(cal)  # whatever from_dict accepts makes a tray
    assert Calibration.from_dict(cal.to_dict()).to_dict() == cal.to_dict()


def calibrator_args(r: random.Random) -> tuple:
    def either(good):
        return good if r.random() < 0.5 else junk(r)
    return (either(r.choice((10, 80))), either(r.choice((1, 4))),
            [either(r.randrange(-1, 202)) for _ in range(r.randrange(5))],
            [either(r.randrange(-0x800000, 0x800000)) for _ in range(r.randrange(5))])


def door_calibrator(args: tuple) -> None:
    rate, cells, captures, readings = args
    try:
        cal = Calibrator(rate, cells)
    except TrayError as e:
        assert e.field in ("rate_hz", "cells") and e.field in str(e), str(e)
        return
    for cats in captures:
        _refused_or_done(cal.capture, cats)
        _refused_or_done(cal.capture_corner, cats)
    for raw in readings:
        _refused_or_done(cal.feed, raw)
        _refused_or_done(cal.feed4, raw, raw, raw, raw)
    _refused_or_done(cal.result)


def _refused_or_done(fn: Callable, *args: object) -> None:
    try:
        fn(*args)
    except TrayError as e:
        assert str(e), "an empty message"


CAL = Calibration(80, [150000], [1], 4300, 86, 86, 5)
IN_PLAY = 12



def tray_ops(r: random.Random) -> list[tuple]:
    """What a tray is told: readings (a still level of k cats for a while,
    one wild reading, a reading that is not one), gaps, attempts, answers."""
    ops = []
    for _ in range(r.randrange(13)):
        pick = r.randrange(9)
        if pick < 3:
            ops.append(("hold", r.randrange(-3, IN_PLAY + 4), r.randrange(1, 46)))
        elif pick == 3:
            v = r.randrange(-0x800000, 0x800000) if r.random() < 0.5 else junk(r)
            ops.append(("feed", v))
        elif pick == 4:
            ops.append(("feed4", junk(r)))
        elif pick == 5:
            pid = r.randrange(41) if r.random() < 0.7 else junk(r)
            value = r.randrange(-3, IN_PLAY + 4) if r.random() < 0.7 else junk(r)
            ops.append(("confirm", pid, value))
        else:
            ops.append((r.choice(("missed", "no_data", "begin", "verdict", "tare", "answer")),))
    return ops


def door_tray(ops: list[tuple]) -> None:
    tray = Tray(CAL, wedged=2, in_play=IN_PLAY)
    tray.tare()
    for k in range(90):
        tray.feed(150000 + (k * 37) % 90 - 45)
    noise = 0
    for o in ops:
        what = o[0]
        if what == "hold":
            for _ in range(o[2]):
                noise = (noise * 75 + 74) % 65537
                tray.feed(150000 + o[1] * 4300 + noise % 173 - 86)
        elif what == "feed":
            _refused_unchanged(tray, tray.feed, o[1])
        elif what == "feed4":
            _refused_unchanged(tray, tray.feed4, o[1], o[1], o[1], o[1])
        elif what == "confirm":
            _refused_unchanged(tray, tray.confirm, o[1], o[2])
        elif what == "missed":
            tray.missed()
        elif what == "no_data":
            tray.no_data()
        elif what == "begin":
            tray.begin_attempt()
        elif what == "verdict":
            _refused_or_done(tray.verdict)
        elif what == "tare":
            tray.tare()
        else:  # a person accepts every open question's default
            for ask in list(tray.pending.values()):
                if ask["id"] in tray.pending:  # a verdict answers its attempt's others
                    tray.confirm(ask["id"], ask["default"])
        check_state(tray, IN_PLAY)


def _refused_unchanged(tray: Tray, fn: Callable, *args: object) -> None:
    before = _state(tray)
    try:
        fn(*args)
    except TrayError as e:
        assert str(e), "an empty message"
        assert _state(tray) == before, (fn.__name__, args)


def _state(tray: Tray) -> tuple:
    return (tray.samples, tray.cats, tray.tower, tray.conf,
            sorted(tray.pending), tray.turn.attempt)


DOORS = {
    "Calibration.from_dict": (broken_calibration, door_from_dict),
    "Calibrator(...)": (calibrator_args, door_calibrator),
    "Tray feed/confirm": (tray_ops, door_tray),
}


def run(name: str, n: int, seed: int = 0) -> tuple[int, list[str]]:
    """Play n generated inputs through a door: (inputs, the exceptions that
    were not TrayError, or checks that failed, as text)."""
    draw, door = DOORS[name]
    r = random.Random("%s:%d" % (name, seed))
    foreign = []
    for _ in range(n):
        case = draw(r)
        try:
            door(case)
        except Exception as e:  # anything the door must never let out
            if len(foreign) < 100:
                foreign.append("%s: %s with %r" % (type(e).__name__, e, case))
            else:
                foreign.append(type(e).__name__)
    return n, foreign
