# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Calibrating the tray from a station, by its buttons only, on the simulated
# table whose load cells weigh a maker's calibration trace: the setup menu's
# "Calibrate tray", a weighing at each of the trace's OK presses, the
# figures on the station, refusals in words, the calibration saved, and the
# calibration's code gone from the heap afterwards.
from calibrig import Maker, modules, session, straight
from catnip.ui.setup import Setup


def _open_calibration(maker, station=0):
    rig = maker.rig
    scene = rig.app.scene
    assert isinstance(scene, Setup), scene
    target = scene.rows.index(("calibrate",))
    while scene.cursor.at != target:
        rig.tap(station, "down")
    rig.tap(station, "ok")
    assert rig.app.calibration is not None, rig.lines(station)
    assert rig.shows(station, "Tray calibrat"), rig.lines(station)


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
        assert modules("catnip.calibrate") == [] and modules("catnip.tray") == before
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
        assert app.calibration is None and isinstance(app.scene, Setup)
        assert app.weigh.cal == saved and app.weigh.problem is None
        assert "Tray calibrated" in app.notices[0], app.notices
        assert modules("catnip.calibrate") == [] and modules("catnip.ui.calibrate") == []
        assert modules("catnip.tray") == before, modules("catnip.tray")
    finally:
        maker.close()
