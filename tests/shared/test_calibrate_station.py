# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Calibrating the tray from a station, by its buttons only, on the simulated
# table whose load cells weigh a maker's calibration trace: the setup menu's
# "Calibrate tray", a weighing at each of the trace's OK presses, the
# figures on the station, refusals in words, the calibration saved, and the
# calibration's code gone from the heap afterwards.
from calibrig import OFFSET, Maker, modules, session, straight


def _open_calibration(maker, station=0):
    """A long BACK on the setup menu, then "Calibrate tray"."""
    rig = maker.rig
    assert rig.app.scene.kind == "setup", rig.app.scene
    rig.hold(station, "back", 1000)
    assert rig.app.scene.menu is not None and rig.shows(station, "Back to setup"), \
        rig.lines(station)
    rig.tap(station, "down")
    rig.tap(station, "ok")
    assert rig.app.calibration is not None, rig.lines(station)
    assert rig.shows(station, "Tray calibrat"), rig.lines(station)


def pushing(maker, trace):
    """A hand pressing harder and harder on the tray, from now on."""
    t0 = maker.table.clock.now_us()
    maker.table.counts = lambda t: trace.counts_at(t) + (t - t0) // 100


def _text(maker, station=0):
    return " ".join(maker.rig.lines(station))


def _choose(maker, label, station=0):
    """Move to the choice `label` and press OK."""
    rig = maker.rig
    screen = rig.app.scene
    assert screen.page is None, screen.page
    labels = [screen.label(w) for w in screen.choices()]
    assert label in labels, (label, labels)
    while labels[screen.cursor.at] != label:
        rig.tap(station, "down")
    rig.tap(station, "ok")


def _weigh_at(maker, t_us, label, station=0):
    """At the trace's OK press: put away the last page, then weigh."""
    rig = maker.rig
    if rig.app.scene.page is not None:
        rig.tap(station, "ok")
    maker.until(t_us)
    _choose(maker, label, station)


def _wait_page(maker, limit_ms=4000):
    rig = maker.rig
    for _ in range(limit_ms // 50):
        if rig.app.scene.page is not None:
            rig.run(30)  # the screens show it
            return rig.app.scene.page
        rig.run(50)
    raise AssertionError("no page after %d ms: %r" % (limit_ms, rig.lines(0)))


def test_a_station_calibrates_a_one_cell_tray_by_its_buttons():
    s = session(1, 10)
    marks = s.calibrate(5)
    before = modules("catnip.tray")
    maker = Maker("station1", trace=s.trace)
    try:
        assert modules("catnip.table.calibrate") == [] and modules("catnip.tray") == before
        _open_calibration(maker)
        assert "empty base on the tray" in _text(maker), maker.rig.lines(0)
        pages = []
        for t, k in marks:
            _weigh_at(maker, t, "Weigh empty" if k == 0 else "Weigh cat %d" % k)
            pages.append(_wait_page(maker))
        assert pages[0][0] == "Base weighed", pages
        assert pages[5][0] == "Cat 5 weighed" and "One cat:" in pages[5][1], pages
        assert "cats differ" in _text(maker), maker.rig.lines(0)
        maker.rig.tap(0, "ok")
        _choose(maker, "Save")
        saved = maker.saved()
        truth = straight(1, 10, 5, False)
        assert abs(saved["per_cat"] - truth["per_cat"]) <= truth["per_cat"] // 100, (saved, truth)
        assert abs(saved["zero"][0] - truth["zero"][0]) <= truth["per_cat"] // 40, (saved, truth)
        assert saved["cats"] == 5 and saved["rate_hz"] == 10
        app = maker.rig.app
        assert app.calibration is None and app.scene.kind == "setup"
        assert app.weigh.cal == saved and app.weigh.problem is None
        assert "Tray calibrated" in app.frame.notices[0], app.frame.notices
        assert modules("catnip.table.calibrate") == [] and modules("catnip.ui.calibrate") == []
        assert modules("catnip.tray") == before, modules("catnip.tray")
    finally:
        maker.close()


def test_four_cells_get_each_cells_gain_from_a_cat_above_each_corner():
    gains = [1.0, 1.04, 0.97, 1.01]  # the cells' sensitivities
    s = session(4, 10, "corners", gains)
    marks = s.calibrate(2, corners=True)
    maker = Maker("station4", board="mux", trace=s.trace)
    try:
        _open_calibration(maker)
        pages = []
        for mark in marks:
            if len(mark) == 3:
                label = "Weigh corner %d" % (mark[2] + 1)
            else:
                label = "Weigh empty" if mark[1] == 0 else "Weigh cat %d" % mark[1]
            _weigh_at(maker, mark[0], label)
            pages.append(_wait_page(maker))
        assert [p[0] for p in pages[-4:]] == ["Corner %d done" % k for k in (1, 2, 3, 4)], pages
        assert "right-front" in pages[-4][1] and "Cell gains" in pages[-1][1], pages
        maker.rig.tap(0, "ok")
        assert [maker.app.scene.label(w) for w in maker.app.scene.choices()][0] == "Save"
        _choose(maker, "Save")
        saved = maker.saved()
        assert saved == maker.app.weigh.cal and len(saved["gain"]) == 4
        # The measured gains follow the cells' (relative to their mean).
        mean = sum(gains) / 4
        for g, truth in zip(saved["gain"], gains):
            assert abs(g - truth * 1024 / mean) <= 12, (saved["gain"], gains)
        truth = straight(4, 10, 2, True, "corners", gains)
        assert abs(saved["per_cat"] - truth["per_cat"]) <= truth["per_cat"] // 100, (saved, truth)
    finally:
        maker.close()


def test_a_weighing_the_tray_refuses_is_said_in_words_and_changes_nothing():
    s = session(1, 10, "refused")
    marks = s.calibrate(1)
    maker = Maker("refused", trace=s.trace, calibration={"kept": "as it was"})
    try:
        _open_calibration(maker)
        # Nothing to save yet, and the only steps offered are the empty base and stop.
        screen = maker.app.scene
        assert screen.choices() == ["empty", "abort"], screen.choices()
        _weigh_at(maker, marks[0][0], "Weigh empty")
        _wait_page(maker)
        # OK pressed while a hand still pushes the first cat into place.
        maker.rig.tap(0, "ok")
        maker.until(marks[1][0])
        pushing(maker, s.trace)
        _choose(maker, "Weigh cat 1")
        title, why = _wait_page(maker)
        assert title == "Not taken" and why.endswith("Weigh again."), why
        assert why.startswith("Much noisier than before: something touched the tray"), why
        assert "press OK" not in why
        assert maker.app.calibration.cats == 0
        # Weighed again once it is still, it is taken as cat 1.
        maker.table.counts = s.trace
        maker.rig.tap(0, "ok")
        _choose(maker, "Weigh cat 1")
        assert _wait_page(maker)[0] == "Cat 1 weighed"
        # Stopping saves nothing: the old calibration is as it was.
        maker.rig.tap(0, "ok")
        _choose(maker, "Stop, no save")
        assert maker.saved() == {"kept": "as it was"}
        assert maker.app.calibration is None and maker.app.scene.kind == "setup"
        assert modules("catnip.table.calibrate") == []
    finally:
        maker.close()


def test_the_empty_base_weighed_again_starts_over_only_once_it_is_good():
    s = session(1, 10, "over")
    marks = s.calibrate(2)
    maker = Maker("over", trace=s.trace)
    try:
        _open_calibration(maker)
        for t, k in marks[:2]:
            _weigh_at(maker, t, "Weigh empty" if k == 0 else "Weigh cat %d" % k)
            _wait_page(maker)
        session_ = maker.app.calibration
        maker.rig.tap(0, "ok")
        maker.until(marks[2][0])
        maker.table.counts = OFFSET  # the sensor stuck: a bad weighing of the base
        _choose(maker, "Start over")
        title, why = _wait_page(maker)
        assert title == "Not taken" and "sensor looks stuck" in why, why
        assert session_.cats == 1 and session_.weighed, "a refused weighing changed nothing"
        maker.table.counts = s.trace
        maker.rig.tap(0, "ok")
        _choose(maker, "Start over")  # with two cats on: a new zero, no cats
        assert _wait_page(maker)[0] == "Base weighed"
        assert session_.cats == 0
    finally:
        maker.close()
