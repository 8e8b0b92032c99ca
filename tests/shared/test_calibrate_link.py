# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The tray's calibration steps over the serial line, the table on the
# simulated hardware weighing a maker's calibration trace: each weighing is
# answered when it ends, with its figures; every refusal is an "err" frame
# in words and changes nothing; a power cut while saving leaves the old
# calibration; a game in play refuses calibration.
import json

import tablebot
from calibrig import OFFSET, PER_CAT, Hands, Maker, modules, session, straight

OLD = {"version": 2, "rate_hz": 10, "zero": [OFFSET], "sign": [1], "per_cat": 5000,
       "cat_sd": 200, "noise": 50, "cats": 5, "gain": [1024]}


def _one(frames, kind="calib"):
    got = [f for f in frames if f[0] in ("calib", "err")]
    assert len(got) == 1 and got[0][0] == kind, frames
    return got[0][1]


def _refused(maker, step, words):
    why = _one(maker.calibrate(step), "err")["why"]
    assert words in why, (step, why)
    return why


def _weigh(maker, t_us, step):
    maker.until(t_us)
    assert maker.calibrate(step) == [], "a weighing is answered when it ends"
    kind, fields = maker.answer()
    assert kind == "calib", fields
    return fields


def test_the_laptop_calibrates_the_tray_and_the_next_game_weighs_with_it():
    s = session(1, 10, "laptop")
    marks = s.calibrate(5)
    maker = Maker("laptop", trace=s.trace, calibration=OLD)
    try:
        begun = _one(maker.calibrate("begin"))
        assert begun["cells"] == 1 and begun["rate_hz"] == 10 and begun["capture_ms"] == 2000
        assert begun["next"] == ["empty", "abort"] and "empty base" in begun["say"], begun
        maker.rig.run(100)
        assert maker.rig.shows(0, "From the laptop"), maker.rig.lines(0)
        answers = [_weigh(maker, t, "empty" if k == 0 else "cat") for t, k in marks]
        assert answers[0]["step"] == "empty" and answers[0]["cats"] == 0
        assert "cat" in answers[0]["next"] and "save" not in answers[0]["next"]
        last = answers[-1]
        assert last["cats"] == 5 and last["next"] == ["cat", "save", "empty", "abort"], last
        for a in answers[1:]:
            assert abs(a["added"] - PER_CAT) < PER_CAT // 5, a
            assert a["noise_pm"] == a["noise"] * 1000 // a["per_cat"], a
        frames = maker.calibrate("save")
        done = _one(frames)
        assert done["saved"] is True and done["file"].endswith("calibration.json"), done
        saved = maker.saved()
        assert saved["per_cat"] == done["per_cat"] and saved["noise"] == done["noise"]
        truth = straight(1, 10, 5, False, "laptop")
        assert abs(saved["per_cat"] - truth["per_cat"]) <= truth["per_cat"] // 100, (saved, truth)
        says = [f[1]["text"] for f in frames if f[0] == "say"]
        assert says and says[0].startswith("Tray calibrated: one cat is"), says
        assert maker.app.calibration is None and maker.app.scene.kind == "setup"
        assert modules("catnip.table.calibrate") == [] and modules("catnip.ui.calibrate") == []
        # The next Stack O' Cats game weighs with the new calibration.
        tablebot.start(maker.rig, "stack", {"mode": "composure", "black_cat": False,
                                            "draw": "digital"}, [0, 1])
        assert maker.app.weigh.tray.calibration().per_cat == saved["per_cat"]
    finally:
        maker.close()


def test_each_step_the_table_cannot_take_now_is_refused_in_words():
    s = session(1, 10, "refusals")
    marks = s.calibrate(1)
    maker = Maker("refusals", trace=s.trace)
    try:
        _refused(maker, "empty", "no tray calibration is going on: begin one first")
        assert modules("catnip.table.calibrate") == []
        _one(maker.calibrate("begin"))
        _refused(maker, "cat", "Weigh the empty base first")
        _refused(maker, "corner", "Weigh the empty base first")
        _refused(maker, "save", "Nothing to save yet")
        _refused(maker, "dance", "'dance' is not a calibration step; the steps are begin, "
                                 "empty, cat, corner, save, abort")
        maker.command("start", game="heist", config={}, seats=[0, 1])
        assert "being calibrated" in _one(maker.out.take(), "err")["why"]
        maker.until(marks[0][0])
        assert maker.calibrate("empty") == []
        _refused(maker, "cat", "Still weighing (empty): wait for it to end")
        assert maker.answer()[0] == "calib"
        _refused(maker, "corner", "This tray has one load cell: there are no corners")
        _refused(maker, "save", "Nothing to save yet")
        # A station's BACK stops the laptop's calibration, even mid-weighing.
        maker.until(marks[1][0])
        assert maker.calibrate("cat") == []
        maker.rig.tap(2, "back")
        kind, fields = maker.answer()
        assert kind == "err" and "Stopped at station 3: nothing was saved" in fields["why"], fields
        assert maker.app.calibration is None and maker.app.scene.kind == "setup"
        _refused(maker, "cat", "no tray calibration is going on")
        # With nobody listening and no calibration, the load cells sleep.
        assert not maker.app.hw.tray.powered
    finally:
        maker.close()


def test_a_station_and_a_game_in_play_each_keep_the_laptop_out():
    maker = Maker("keepout")
    try:
        tablebot.start(maker.rig, "stack", {"mode": "composure", "black_cat": False,
                                            "draw": "digital"}, [0, 1])
        maker.out.take()
        why = _refused(maker, "begin", "A game is in play: calibrate the tray between games")
        assert "abort it from the laptop" in why
        assert modules("catnip.table.calibrate") == [], "a refused calibration leaves nothing loaded"
        maker.command("abort")
        maker.out.take()
        maker.rig.hold(1, "back", 1000)  # a station opens the calibration
        maker.rig.tap(1, "down")
        maker.rig.tap(1, "ok")
        assert maker.app.calibration is not None
        _refused(maker, "begin", "The tray is being calibrated at station 2: finish or stop it "
                                 "there first")
        _refused(maker, "abort", "at station 2")
        assert maker.app.calibration is not None
        maker.rig.tap(1, "down")  # the station stops it: "Stop, no save"
        maker.rig.tap(1, "ok")
        assert maker.app.calibration is None and modules("catnip.table.calibrate") == []
    finally:
        maker.close()


def test_a_power_cut_while_saving_keeps_the_old_calibration():
    s = session(1, 10, "cut")
    marks = s.calibrate(1)
    maker = Maker("cut", trace=s.trace, calibration=OLD)
    try:
        _one(maker.calibrate("begin"))
        for t, k in marks:
            _weigh(maker, t, "empty" if k == 0 else "cat")
        from catnip.flash import flashfile

        class Cut:
            """The flash takes half the file, then the power goes."""

            def __init__(self, path, mode):
                self.f = open(path, mode)

            def write(self, text):
                self.f.write(text[:len(text) // 2])
                self.f.close()
                raise OSError(5)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

        flashfile._open = Cut
        why = _refused(maker, "save", "Could not write the calibration to the Pico's flash")
        assert "the one there is unchanged" in why
        assert maker.saved() == OLD and maker.app.weigh.cal == OLD
        # What a table powered up now would read: the old calibration, whole.
        from catnip.table.weigh import Weigh

        assert Weigh(maker.app.hw, maker.file).cal == OLD
        flashfile._open = open
        done = _one(maker.calibrate("save"))
        assert maker.saved() == maker.app.weigh.cal and maker.saved()["cats"] == done["cats"] == 1
        with open(maker.file) as f:
            json.load(f)
    finally:
        maker.close()


def test_a_silent_load_cell_is_named_on_the_apps_own_loop():
    import asyncio

    maker = Maker("silent")  # no calibration yet: the cells sleep until one begins
    try:
        async def calibrate():
            asyncio.create_task(maker.app.loop.run())
            await maker.rig.live(200)
            _one(maker.calibrate("begin"))
            maker.table.counts = None  # DOUT stays high: no conversion comes
            assert maker.calibrate("empty") == []
            for _ in range(40):
                await maker.rig.live(100)
                got = [f for f in maker.out.take() if f[0] in ("calib", "err")]
                if got:
                    return got
            raise AssertionError("no answer while the cells are silent")

        (kind, fields), = asyncio.run(calibrate())
        assert kind == "err" and fields["why"].startswith("The tray does not answer ("), fields
        assert "check the load cell cable" in fields["why"], fields
        assert maker.app.calibration.measuring is None and not maker.app.calibration.weighed
    finally:
        maker.close()


def test_a_cat_that_did_not_go_on_is_refused_and_changes_nothing():
    maker = Maker("oddcat")
    hands = Hands(1, maker.table.clock)
    maker.table.counts = hands
    try:
        _one(maker.calibrate("begin"))
        for cats in (0, 1, 2):
            hands.do(["load", str(cats)])
            maker.rig.run(300)
            maker.calibrate("empty" if cats == 0 else "cat")
            assert maker.answer()[0] == "calib"
        maker.rig.run(300)  # cat 3 is forgotten: the load stays at two cats
        maker.calibrate("cat")
        kind, fields = maker.answer()
        assert kind == "err", fields
        assert fields["why"].startswith("Cat 3 added "), fields
        assert "but one cat has been 43" in fields["why"], fields
        assert "put exactly one more cat on the base" in fields["why"]
        assert maker.app.calibration.cats == 2 and sorted(maker.app.calibration.cal.levels) == \
            [0, 1, 2]
        hands.do(["load", "4"])  # two at once: too much for one cat
        maker.rig.run(300)
        maker.calibrate("cat")
        assert maker.answer()[0] == "err"
        hands.do(["load", "3"])
        maker.rig.run(300)
        maker.calibrate("cat")
        kind, fields = maker.answer()
        assert kind == "calib" and fields["cats"] == 3, fields
        assert abs(fields["per_cat"] - PER_CAT) < PER_CAT // 50, fields
    finally:
        maker.close()
