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

from catnip.journal import Journal
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


def _calibration(path):
    with open(path, "w") as f:
        json.dump({"version": 2, "rate_hz": 10, "zero": [EMPTY_TRAY], "sign": [1],
                   "per_cat": PER_CAT, "cat_sd": 300, "noise": 60, "cats": 5, "gain": [1024]}, f)


def _notes(journal):
    gid = journal.games()[-1][0]
    return [e[1] for e in journal.entries(gid) if e[0] == "note"]


def test_the_tray_proposes_each_attempt_and_one_ok_confirms_it():
    path = _fresh("tray")
    _calibration(path + "/calibration.json")
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/calibration.json")
    load = Load()
    rig.table.counts = load
    app = rig.app
    try:
        tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                      "draw": "digital"}, [0, 1])
        log = app.game.log

        async def play():
            asyncio.create_task(app.run())
            await rig.live(3000)  # the tray finds the base and its four cats
            rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat
            await rig.live(1000)
            assert app.game.public()["step"] == "place", app.game.public()
            load.cats += 1  # ... and places it
            await rig.live(3000)
            assert rig.shows(0, "Tray: h"), rig.lines(0)
            rig.table.stations[0].tap("ok", hold_ms=40)  # one press confirms
            await rig.live(1000)
            assert log[len(log) - 1][1][0] == "place", list(log)
            assert app.game.public()["turn"] == 1
            await rig.live(2500)  # the placement's announcement goes by
            rig.table.stations[1].tap("ok", hold_ms=40)  # P2 draws
            await rig.live(1000)
            load.cats -= 2  # the tower falls: two cats off the tray
            await rig.live(4000)
            assert rig.shows(1, "Tray: 2 fell"), rig.lines(1)
            rig.table.stations[1].tap("ok", hold_ms=40)
            await rig.live(1000)
            assert log[len(log) - 1] == (1, ("collapse", 2, 0)), list(log)

        asyncio.run(play())
        notes = _notes(app.journal)
        assert [n["ask"] for n in notes if n.get("ev") == "confirmed"] == ["height", "fell"], notes
        assert all("proposal" in n for n in notes), notes
    finally:
        rig.close()


def test_without_a_calibration_the_station_offers_the_manual_path_and_says_why():
    path = _fresh("notray")
    rig = AppRig(Journal(path + "/journal"), weigh=path + "/missing.json")
    try:
        tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                      "draw": "digital"}, [0, 1])
        assert rig.shows(1, "tray: not calibr"), rig.lines(1)
        tablebot.do(rig, 0, ("draw",))
        tablebot.do(rig, 0, ("place", 1, 0))
        assert rig.app.game.public()["turn"] == 1
    finally:
        rig.close()
