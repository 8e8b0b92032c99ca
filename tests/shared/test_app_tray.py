# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Stack O' Cats with the load-cell tray, the app's own asyncio loop running
# in simulated time: the tray's verdict on each attempt reaches the active
# player's station, one OK confirms it, and the proposal and the answer are
# journaled with the report.
import asyncio
import json

import tablebot
from apprig import AppRig
from test_app_games import _fresh

from catnip.flash.journal import Journal
from devsim.table import EMPTY_TRAY

PER_CAT = 12000
BASE = 4  # cats wedged into the base


class Load:
    """What the load cell weighs: whole cats on the tray, with a little noise."""

    def __init__(self):
        self.cats = BASE
        self.seed = 1

    def __call__(self, t_us):
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return EMPTY_TRAY + self.cats * PER_CAT + (self.seed >> 16) % 120 - 60


def _calibration(path, per_cat=PER_CAT):
    with open(path, "w") as f:
        json.dump({"version": 2, "rate_hz": 10, "zero": [EMPTY_TRAY], "sign": [1],
                   "per_cat": per_cat, "cat_sd": 300, "noise": 60, "cats": 5, "gain": [1024]}, f)


def _notes(journal):
    gid = journal.games()[-1][0]
    return [e[1] for e in journal.entries(gid) if e[0] == "note" and "clock" not in e[1]]


def _attempts(rig, load, wait):
    """P1 places a cat and P2's tower falls, two cats off the tray; each time
    the tray's verdict is on the station: the cat added, confirmed with its
    height (asked with nothing chosen: OK alone is refused); at 10/s a
    landing can be averaged away, so the cats that fell are asked, from the
    two that left the tray up."""
    app = rig.app
    log = app.game.log
    yield wait(3000)  # the tray finds the base and its four cats
    rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat
    yield wait(1000)
    assert app.game.public()["step"] == "place", app.game.public()
    load.cats += 1  # ... and places it
    yield wait(3000)
    assert rig.shows(0, "Tray +1 cat"), rig.lines(0)
    rig.table.stations[0].tap("ok", hold_ms=40)  # the tray's cat ...
    yield wait(300)
    assert rig.shows(0, "< ? >"), rig.lines(0)  # ... its height: nothing chosen
    rig.table.stations[0].tap("ok", hold_ms=40)
    yield wait(300)
    assert rig.shows(0, "Choose a number") and log[len(log) - 1][1][0] == "draw", rig.lines(0)
    rig.table.stations[0].tap("up", hold_ms=40)
    yield wait(300)
    assert rig.shows(0, "< 1 >"), rig.lines(0)
    rig.table.stations[0].tap("ok", hold_ms=40)
    yield wait(1000)
    assert log[len(log) - 1] == (0, ("place", 1, 0)), list(log)
    assert app.game.public()["turn"] == 1
    yield wait(2500)  # the placement's announcement goes by
    rig.table.stations[1].tap("ok", hold_ms=40)  # P2 draws
    yield wait(1000)
    load.cats -= 2  # the tower falls: two cats off the tray
    yield wait(4000)
    assert rig.shows(1, "Tray: 2+ fell?"), rig.lines(1)
    rig.table.stations[1].tap("ok", hold_ms=40)
    yield wait(300)
    assert rig.shows(1, "Fell: 2 or more") and rig.shows(1, "< ? >"), rig.lines(1)
    rig.table.stations[1].tap("up", hold_ms=40)
    yield wait(300)
    assert rig.shows(1, "< 2 >"), rig.lines(1)
    rig.table.stations[1].tap("ok", hold_ms=40)
    yield wait(1000)
    assert log[len(log) - 1] == (1, ("collapse", 2, 0)), list(log)
    notes = _notes(app.journal)
    assert [n["ask"] for n in notes if n.get("ev") == "confirmed"] == ["added", "fell"], notes
    assert all("proposal" in n for n in notes), notes


def _place_proposed(rig, load):
    """P1 draws a cat and places it; the tray proposes its height on P1's station."""
    rig.run(3000)  # the tray finds the base and its four cats
    rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat
    rig.run(1000)
    load.cats += 1
    rig.run(3000)
    assert rig.shows(0, "Tray +1 cat"), rig.lines(0)


def _tray_rig(tag, per_cat=PER_CAT):
    path = _fresh(tag)
    _calibration(path + "/calibration.json", per_cat)
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/calibration.json")
    load = Load()
    rig.table.counts = load
    tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False, "draw": "digital"},
                   [0, 1])
    return rig, load


def test_the_tray_proposes_each_attempt_on_the_apps_own_loop():
    rig, load = _tray_rig("tray")
    try:
        async def play():
            asyncio.create_task(rig.app.loop.run())
            for pause in _attempts(rig, load, rig.live):
                await pause

        asyncio.run(play())
    finally:
        rig.close()


def test_the_tray_proposes_each_attempt_when_stepped():
    # The virtual table steps the app (Loop.step) rather than running its loop.
    rig, load = _tray_rig("tray-step")
    try:
        for _ in _attempts(rig, load, rig.run):
            pass
    finally:
        rig.close()


def test_without_a_calibration_the_station_offers_the_manual_path_and_says_why():
    path = _fresh("notray")
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/missing.json")
    try:
        tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                      "draw": "digital"}, [0, 1])
        assert rig.shows(1, "The tray: not") and rig.shows(1, "calibrated"), rig.lines(1)
        tablebot.do(rig, 0, ("draw",))
        tablebot.do(rig, 0, ("place", 1, 0))
        assert rig.app.game.public()["turn"] == 1
    finally:
        rig.close()


def test_a_session_without_stack_o_cats_never_loads_the_tray_code():
    # On the Pico imported code takes heap: the load-cell driver and the
    # estimator wait for a game that weighs.
    import sys

    from catnip.table.loop import unload

    for prefix in ("catnip.drivers.hx711", "catnip.tray"):
        unload(prefix)  # an earlier test's game may have loaded them
    path = _fresh("no-stack")
    _calibration(path + "/calibration.json")
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/calibration.json")
    try:
        async def play():
            asyncio.create_task(rig.app.loop.run())
            tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
            await rig.live(500)

        asyncio.run(play())
        assert rig.app.scene.kind == "play"
        loaded = [m for m in sys.modules if m.startswith("catnip.tray")
                  or m.startswith("catnip.drivers.hx711")]
        assert loaded == [], loaded
    finally:
        rig.close()


def test_an_uncalibrated_tray_sleeps_from_power_up_without_its_drivers_code():
    # On stock MicroPython imported code takes heap: a tray with nothing to
    # weigh for is put to sleep by its clock pin alone, so the driver loads
    # only when a game or a calibration asks for the cells.
    import sys

    from catnip.table.loop import unload

    unload("catnip.drivers.hx711")  # an earlier test's game may have loaded them
    path = _fresh("asleep")
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/missing.json")
    try:
        rig.run(200)  # more than the 60 us of PD_SCK high that powers a chip down
        assert [c.powered for c in rig.table.cells] == [False], "the cells sleep"
        loaded = [m for m in sys.modules if m.startswith("catnip.drivers.hx711")]
        assert loaded == [], loaded
    finally:
        rig.close()


def test_a_tower_that_falls_after_its_cat_was_proposed_is_proposed_again():
    # The cat is placed and proposed; before P1 answers, the tower falls and
    # takes it and one cat below off the tray. The station now asks how many
    # fell, from the one of the tower's (P1's own cat is tried again).
    rig, load = _tray_rig("tray-refall")
    try:
        app, log = rig.app, rig.app.game.log
        _place_proposed(rig, load)
        load.cats -= 2
        rig.run(4000)
        assert rig.shows(0, "Tray: 1+ fell?"), rig.lines(0)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(300)
        assert rig.shows(0, "< ? >"), rig.lines(0)
        rig.table.stations[0].tap("up", hold_ms=40)
        rig.run(300)
        assert rig.shows(0, "< 1 >"), rig.lines(0)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(1000)
        assert log[len(log) - 1] == (0, ("collapse", 1, 0)), list(log)
        notes = _notes(app.journal)
        assert [n["ask"] for n in notes if n.get("ev") == "confirmed"] == ["fell"], notes
    finally:
        rig.close()


def test_a_report_that_overrules_the_tray_is_what_the_tray_follows():
    # The tray proposes the cat P1 placed; P1 reports a collapse instead (the
    # tower wobbled and a cat fell off behind the tray). The journal keeps the
    # proposal overruled, and the tray suggests from the rules' tower.
    rig, load = _tray_rig("tray-overruled")
    try:
        app = rig.app
        _place_proposed(rig, load)
        tray = app.weigh.tray
        assert tray.turn.tower == BASE + 1
        app.act(0, ("collapse", 2, 0))
        assert app.game.log[len(app.game.log) - 1] == (0, ("collapse", 2, 0))
        notes = _notes(app.journal)
        assert notes[-1]["ev"] == "overruled" and notes[-1]["report"] == ["collapse", 2, 0]
        tower = app.game.public()["tower"]
        assert tower == BASE - 2 and tray.turn.tower == tower, (tower, tray.turn.tower)
        assert not tray.turn.attempt or app.game.public()["step"] == "place"
    finally:
        rig.close()


def test_what_the_tray_learned_of_the_cats_is_kept_for_the_next_game():
    # The maker's calibration has the average cat 2 % light; placements in
    # play teach the tray better, and the game's end saves it.
    rig, load = _tray_rig("tray-learns", per_cat=PER_CAT * 98 // 100)
    try:
        app = rig.app
        _place_proposed(rig, load)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(300)
        rig.table.stations[0].tap("up", hold_ms=40)  # height 1
        rig.run(300)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(1000)
        app.weigh.finished()
        with open(app.weigh.path) as f:
            saved = json.load(f)
        assert saved == app.weigh.cal and saved["cats"] > 5, saved
        assert PER_CAT * 98 // 100 < saved["per_cat"] <= PER_CAT, saved
        assert saved["zero"] == [EMPTY_TRAY] and saved["gain"] == [1024]
    finally:
        rig.close()


def test_fallen_cats_lifted_off_while_the_player_retries_are_no_second_collapse():
    # P1's tower falls: two cats fall, one clear of the tray, one onto it.
    # P1 reports two; while P1 tries again the cat lying on the tray is
    # lifted off: tidying, proposed as nothing, so no OK charges for it.
    rig, load = _tray_rig("tray-retry")
    try:
        app, log = rig.app, rig.app.game.log
        rig.run(3000)
        rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws
        rig.run(1000)
        load.cats -= 1
        rig.run(4000)
        assert rig.shows(0, "Tray: 1+ fell?"), rig.lines(0)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(300)
        for _ in range(2):  # two fell: the first UP gives one
            rig.table.stations[0].tap("up", hold_ms=40)
            rig.run(300)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(3500)  # the collapse's announcement goes by
        assert log[len(log) - 1] == (0, ("collapse", 2, 0)), list(log)
        load.cats -= 1  # the fallen cat lifted off the tray
        rig.run(4000)
        assert not rig.shows(0, "Tray"), rig.lines(0)
        assert app.weigh.verdict is None
        load.cats += 1  # P1's cat, placed at last
        rig.run(3000)
        assert rig.shows(0, "Tray +1 cat"), rig.lines(0)
    finally:
        rig.close()


def test_the_answer_to_the_trays_question_is_its_own_command_never_a_game_action():
    # How many cats are on the tray, asked on the active station: the answer
    # goes to the tray (journaled as a note, as its records are), and the
    # game's log does not hear of it.
    rig, load = _tray_rig("answer")
    try:
        rig.run(3000)
        app = rig.app
        asked = {"kind": "cats", "id": 999, "value": 5, "lo": 0, "hi": 9, "conf": 0}
        app.weigh.verdict, app.weigh.asked = asked, 0  # seat 0's, at station 1
        moves = len(app.game.log)
        rig.table.stations[0].tap("ok", hold_ms=40)  # the question's picker ...
        rig.run(300)
        assert rig.shows(0, "< ? >"), rig.lines(0)  # not the tray's guess: it asks
        for _ in range(5):
            rig.table.stations[0].tap("up", hold_ms=40)
            rig.run(300)
        assert rig.shows(0, "< 4 >"), rig.lines(0)
        rig.table.stations[0].tap("up", hold_ms=40)
        rig.run(300)
        rig.table.stations[0].tap("ok", hold_ms=40)  # ... answered on the station
        rig.run(1000)
        assert len(app.game.log) == moves, list(app.game.log)
        notes = _notes(app.journal)
        answered = [n for n in notes if n.get("proposal", {}).get("kind") == "cats"]
        assert answered and answered[-1]["value"] == 5, notes
        assert app.weigh.verdict is None
    finally:
        rig.close()


def test_a_cat_placed_before_the_tray_has_been_still_is_never_asked_about():
    """A fresh table: P1 draws and places at once, before the tray has been
    still long enough to count the base's four cats. The tray cannot tell
    what the cat did: it asks nothing ("Tray unsure: how many cats are on
    it?" took the base's cats for the cat in hand), and the station offers
    the manual path."""
    rig, load = _tray_rig("tray-quick")
    try:
        rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat at once
        rig.run(300)
        load.cats += 1  # ... and places it
        rig.run(5000)
        assert not rig.shows(0, "Tray unsure"), rig.lines(0)
        assert rig.shows(0, "Placed"), rig.lines(0)
        proposal = rig.app.weigh.verdict
        assert proposal is None or proposal["kind"] != "cats", proposal
    finally:
        rig.close()
