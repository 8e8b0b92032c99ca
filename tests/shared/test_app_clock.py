# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# A date for every game: with a DS3231 on the bus (or once a laptop set the
# clock) the journal says when each game began and ended by the table's own
# clock; without one it says the time is unknown, and gives the table's ticks
# so the laptop can still tell how long the game took.
import os

import tablebot
from apprig import AppRig, remove_tree
from catnip.flash.journal import Journal
from devsim.table import Table
from tablerig import load
from scratch import scratch

ROOT = scratch("catnip-clock")
KEPT = 1796287500  # 2026-12-03 08:45:00 UTC, what the module's battery kept


def _rig(name, board, kept=None):
    path = ROOT + "-" + name
    remove_tree(path)
    os.mkdir(path)
    table = Table(board, rtc_unix=kept)
    return AppRig(Journal(path + "/journal"), table=table), path


def _clock_notes(journal):
    gid = journal.games()[-1][0]
    return [e[1] for e in journal.entries(gid) if e[0] == "note" and "clock" in e[1]]


def _with_rtc(data):
    data["rtc"] = {"bus": 0}


def test_a_table_with_a_clock_journals_when_each_game_began_and_ended():
    rig, path = _rig("rtc", load("direct", _with_rtc), KEPT)
    try:
        began_ms = rig.table.ticks_ms()
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        began, ended = _clock_notes(rig.app.journal)
        assert (began["clock"], ended["clock"]) == ("began", "ended")
        assert KEPT <= began["at"] <= ended["at"]
        played_ms = ended["ms"] - began["ms"]
        assert played_ms > 0 and abs((ended["at"] - began["at"]) - played_ms // 1000) <= 1
        assert began["at"] - KEPT == (began["ms"] - began_ms) // 1000 + began_ms // 1000
    finally:
        remove_tree(path)


def test_without_a_clock_the_time_is_unknown_until_a_laptop_sets_it():
    rig, path = _rig("none", load("direct"))
    try:
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        began, ended = _clock_notes(rig.app.journal)
        assert began["at"] is None and ended["at"] is None and ended["ms"] > began["ms"]
    finally:
        remove_tree(path)
    rig, path = _rig("laptop", load("direct"))
    try:
        rig.app.wall.set(KEPT)  # a laptop connected
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        began, ended = _clock_notes(rig.app.journal)
        assert KEPT <= began["at"] <= ended["at"] <= KEPT + 3600
    finally:
        remove_tree(path)


def test_the_laptops_clock_is_written_to_the_module_for_the_next_power_up():
    rig, path = _rig("set", load("direct", _with_rtc), None)
    try:
        assert rig.app.wall.time() is None  # the module lost the time
        rig.app.wall.set(KEPT)
        assert abs(rig.table.rtc.unix() - KEPT) <= 1 and rig.table.rtc.regs[0x0F] & 0x80 == 0
        import sys

        # The clocks' drivers are in the heap only while they are read or set.
        assert "catnip.drivers.ds3231" not in sys.modules
        assert "catnip.drivers.chip_rtc" not in sys.modules
    finally:
        remove_tree(path)


def test_after_a_soft_reset_the_rp2040s_clock_still_dates_games():
    # A laptop set the clock; the app then began again in the same power-up
    # (a soft reset: Ctrl-D, or a restart after a Ctrl-C), no laptop since:
    # the RP2040's RTC kept counting, and the new run dates games from it.
    rig, path = _rig("soft", load("direct"))
    try:
        assert rig.app.wall.time() is None  # power-on: the RTC holds the port's 2021
        rig.app.wall.set(KEPT)  # a laptop connected
        again = AppRig(Journal(path + "/journal"), table=rig.table)  # same chip, new run
        assert KEPT <= again.app.wall.time() <= KEPT + 60
        tablebot.play(again, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        began, ended = _clock_notes(again.app.journal)
        assert KEPT <= began["at"] <= ended["at"] <= KEPT + 3600
    finally:
        remove_tree(path)
    rig, path = _rig("power", load("direct"))  # a power cut: the RTC starts at 2021 again
    try:
        assert rig.app.wall.time() is None
    finally:
        remove_tree(path)
