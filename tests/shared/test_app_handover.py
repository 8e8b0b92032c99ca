# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The app stopped for the REPL (Ctrl-C from Thonny or mpremote, or the
# laptop's stop command): every panel says so, nobody's hand stays on a
# screen, the buzzer stops, the journal holds no file open, and the game in
# play is offered at the next power-up with every move it took.
import tablebot
from apprig import AppRig
from test_app_games import _fresh

from catnip.flash import journal_files
from catnip.flash.journal import Journal
from catnip.table.handover import stop

HEIST = {"variant": "standard", "gems": "digital"}


def _playing(tag):
    path = _fresh(tag)
    rig = AppRig(Journal(path + "/journal"))
    tablebot.start(rig, "heist", HEIST, [0, 1])
    tablebot.do(rig, 0, ("play", rig.app.game.view(0)["hand"][0]))
    return rig, path


def test_ctrl_c_mid_game_tells_every_station_and_keeps_every_move():
    rig, path = _playing("handover")
    try:
        moves = len(rig.app.game.log)
        assert rig.app.gid is not None and moves >= 1
        rig.app.sound.play("end", rig.app.loop.now)
        assert stop(rig.app) == "Ctrl-C"
        for k in range(len(rig.table.stations)):
            text = " ".join(rig.lines(k))
            assert "Stopped: REPL" in text and "(Ctrl-C)" in text, (k, text)
            assert "Game saved." in text and "Heist" not in text, (k, text)
        tone = rig.table.buzzer()
        assert tone is None or tone[1] == 0
        assert not journal_files._HELD  # no file open while the REPL writes the flash
        found = Journal(path + "/journal").resumable()
        assert found is not None and found[0] == rig.app.gid and found[2] == moves
    finally:
        rig.close()


def test_the_laptops_stop_between_games_says_so_without_a_game():
    path = _fresh("handover-setup")
    rig = AppRig(Journal(path + "/journal"))
    try:
        assert stop(rig.app, "stopped from the laptop") == "stopped from the laptop"
        text = " ".join(rig.lines(0))
        assert "(the laptop)" in text and "Game saved." not in text, text
    finally:
        rig.close()


def test_a_game_left_from_the_last_power_up_is_said_saved_from_setup():
    # The journal keeps it and the next power-up offers it, though no game is
    # in play: the panels say so rather than let the players think it lost.
    rig, path = _playing("handover-left")
    rig.close()
    again = AppRig(Journal(path + "/journal"))
    try:
        assert again.app.game is None and again.app.journal.resumable() is not None
        stop(again.app)
        assert "Game saved." in " ".join(again.lines(0))
    finally:
        again.close()
