# The tray estimator counting cats on scripted sessions: placements, removals,
# drift, four cells, proposals, under CPython and MicroPython.
from check import message
from tray_checks import (PER_CAT, cal_for, REALISTIC, check_counts,
                         check_no_phantoms, check_small_ints, play, session)

from catnip.tray import Tray, TrayError
from devsim.sessions import Session


# ---- counting ----------------------------------------------------------------


def test_settled_counts_at_80_per_second():
    s = session("count80", "pppppppppp")
    played = play(s, cal_for(80))
    check_counts(played)
    check_no_phantoms(played)
    check_small_ints(played.tray)
    assert played.tray.cats == 10 and played.tray.conf >= 95


def test_settled_counts_at_10_per_second():
    s = session("count10", "pppppppppp", rate=10)
    played = play(s, cal_for(10))
    check_counts(played)
    check_no_phantoms(played)
    assert played.tray.cats == 10


def test_each_placement_is_one_placed_event_then_settled():
    s = session("placed", "pppppp")
    played = play(s, cal_for())
    for i in range(len(s.truth)):
        kinds = [k for k in played.kinds(i) if k != "handling"]
        assert kinds == ["placed", "settled"], (i, played.turn_events[i])
    first = played.of("placed")[0]
    assert first["n"] == 1 and first["cats"] == 1 and 90 <= first["mass"] <= 110


def test_removal_of_fallen_cats_is_counted():
    # Every falling cat stays on the tray, so the tidy-up has cats to lift.
    s = session("removal", "pppppppcr", stay=100, bounce=0)
    played = play(s, cal_for())
    check_counts(played)
    removed = played.of("removed")
    gone = sum(rec["n"] for rec in s.truth if rec["kind"] == "removed")
    assert sum(e["n"] for e in removed) == gone, (removed, gone)


def test_handling_spikes_are_never_counted():
    s = session("touch", "pppppttttttttt")
    played = play(s, cal_for())
    check_counts(played)
    check_no_phantoms(played)
    touches = [i for i, rec in enumerate(s.truth) if rec["kind"] == "touch"]
    assert any("handling" in played.kinds(i) for i in touches)
    for i in touches:
        assert "placed" not in played.kinds(i) and "removed" not in played.kinds(i)


def _drifting(name, per_minute, creep):
    s = Session(name, rate_hz=10, noise=REALISTIC, per_cat=PER_CAT,
                drift_per_min=per_minute, creep_permille=creep)
    s.t = 2000000
    for _ in range(5):
        s.place()
    s.t += 5 * 60 * 1000000
    s.place()
    s.t += 3000000
    return s, play(s, cal_for(10))


def test_drift_is_never_a_phantom_placement():
    # A cat's weight of drift every minute for five minutes, and 2% creep.
    s, played = _drifting("drift", PER_CAT, 20)
    check_counts(played)
    assert [e["n"] for e in played.of("placed")] == [1] * 6, played.kinds()
    assert not played.of("removed") and not played.of("collapse")
    assert [e for e in played.events if "ask" in e[1] and e[1]["ask"]["ask"] != "height"] == []
    # The zero moved by five cats; the mass only by what drifted during each
    # of the six turns and the filter's ~3 s lag: about a tenth of a cat per
    # placement at this rate (a realistic drift is a hundredth of it).
    weight = sum(cat[0] for cat in s.tower)
    assert abs(played.tray.mass - weight) < PER_CAT * 6 * 15 // 100, (played.tray.mass, weight)


def test_the_zero_follows_drift_and_creep():
    s, played = _drifting("creep", PER_CAT // 5, 5)
    check_counts(played)
    weight = sum(cat[0] for cat in s.tower)
    assert abs(played.tray.mass - weight) < PER_CAT // 10, (played.tray.mass, weight)


# ---- four cells ----------------------------------------------------------------


def test_four_cells_give_the_lean():
    s = session("lean", "pppppppp", cells=4)
    played = play(s, cal_for(80, 4))
    check_counts(played)
    for i, rec in enumerate(s.truth):
        ev = [e for _, e in played.turn_events[i] if e["ev"] == "settled"][-1]
        r, x, y = ev["lean"]
        tr, tx, ty = rec["lean"]
        assert abs(x - tx) <= 40 and abs(y - ty) <= 40, (i, ev["lean"], rec["lean"])
        assert abs(r - tr) <= 50


# ---- proposals ---------------------------------------------------------------


def test_placements_propose_no_height_and_collapses_log_the_answer():
    # Weight tells how many cats came or went, never where a cat stands:
    # no placement carries a question; a collapse asks how many fell.
    s = session("asks", "ppppppppc", stay=0, bounce=100)
    played = play(s, cal_for())
    placed = played.of("placed")
    assert len(placed) >= 8 and not [e for e in placed if "ask" in e], placed
    fall = played.of("collapse")[-1]["ask"]
    assert fall["ask"] == "fell" and fall["default"] == fall["left"] == -s.truth[-1]["n"]
    assert sorted(fall) == ["ask", "conf", "default", "id", "left", "max", "min", "t", "why"]
    tray = played.tray
    assert "from 0 to %d" % fall["max"] in message(TrayError, tray.confirm, fall["id"],
                                                   fall["max"] + 1)
    assert fall["id"] in tray.pending  # a refused answer changes nothing
    tower = tray.tower
    rec = tray.confirm(fall["id"], fall["left"] + 1)  # one more fell than left the tray
    assert rec == {"ev": "confirmed", "id": fall["id"], "ask": "fell", "default": fall["left"],
                   "value": fall["left"] + 1, "conf": fall["conf"], "t": rec["t"]}
    assert tray.tower == tower - 1 and fall["id"] not in tray.pending
    assert "no open question" in message(TrayError, tray.confirm, fall["id"], 2)


def test_tare_measures_a_still_second():
    s = session("tare", "ppp")
    tray = Tray(cal_for())
    tray.tare()
    events = []
    for k in range(s.truth[0]["start"] // s.trace.period):
        ev = tray.feed(s.trace.counts_at(k * s.trace.period))
        if ev:
            events.append(ev)
    assert [e["ev"] for e in events] == ["settled"]
    assert events[0]["cats"] == 0 and events[0]["conf"] == 100
    assert REALISTIC // 2 <= tray.noise <= 2 * REALISTIC


def test_without_a_tare_the_count_comes_from_the_calibration_zero():
    cal = cal_for()
    s = session("notare", "ppppp", offset=cal.zero[0] + 2 * PER_CAT)  # two cats' worth
    played = play(s, cal, tare=False)
    first = played.events[0][1]
    assert first["ev"] == "settled" and first["cats"] == 2, played.events[:2]
    assert played.counts[-1] == 7


# ---- both interpreters decide alike ----------------------------------------------


def test_events_are_identical_on_both_interpreters():
    s = session("same", "ppppppcpt", stay=30)
    played = play(s, cal_for())
    assert len(played.events) == 28, [e for _, e in played.events]
    # The events themselves are compared between the interpreters in
    # tests/test_cross_interpreter.py (test_the_tray_says_the_same_on_both_interpreters).
