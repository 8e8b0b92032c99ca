# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The setup remembers: from power-on to the first lock takes at most 8
# presses when the group plays what it played last, and at most 12 on a
# table fresh from the box, for every title at 2, 4 and its most players
# (tests/shared/setupplay.py counts the taps on the simulated mux board).
import os

import setupplay
from apprig import AppRig, remove_tree
from catnip.flash import flashfile
from catnip.flash.journal import Journal
from scratch import scratch

PREVIOUS_MOST = 8
FACTORY_MOST = 12
ROOT = scratch("catnip-setup")


def _all(previous):
    out = {}
    for game in ("heist", "stack", "purrfect"):
        for n in setupplay.counts(game):
            out["%s %d" % (game, n)] = setupplay.measure(ROOT, game, n, previous)
    return out


def test_the_counts_cover_two_four_and_the_most():
    assert setupplay.counts("heist") == [2, 4, 6]
    assert setupplay.counts("stack") == [2, 4, 6]
    assert setupplay.counts("purrfect") == [4, 7]


def test_the_previous_games_settings_reach_the_first_lock_in_8_presses():
    got = _all(True)
    over = [k for k in got if got[k] > PREVIOUS_MOST]
    assert not over, "more than %d presses: %s" % (PREVIOUS_MOST, got)


def test_factory_settings_reach_the_first_lock_in_12_presses():
    got = _all(False)
    over = [k for k in got if got[k] > FACTORY_MOST]
    assert not over, "more than %d presses: %s" % (FACTORY_MOST, got)


def _power_on(folder):
    return AppRig(Journal(folder + "/journal"), board=setupplay.BOARD)


def _in_folder(name, body):
    """body(path) run in a fresh folder of its own, as the table's flash;
    afterwards the folder is gone and flashfile opens files again."""
    here = os.getcwd()
    path = ROOT + "-" + name
    remove_tree(path)
    os.mkdir(path)
    os.chdir(path)
    try:
        body(path)
    finally:
        flashfile._open = open
        os.chdir(here)
        remove_tree(path)


def test_seats_and_first_player_are_remembered_on_flash():
    def body(path):
        flashfile.save("setup.json", {"game": "stack", "seats": [1, 3, 6], "start": 2})
        rig = _power_on(path)
        setup = rig.app.scene
        assert (setup.game, setup.seats, setup.start) == ("stack", [1, 3, 6], 2)
        assert setup.rows[setup.cursor.at] == ("go",)
        assert rig.shows(0, "Players: 3")
        rig.tap(0, "ok")  # Start game: the same three, P3 first
        assert rig.app.scene.kind == "play"
        assert rig.app.seats == [1, 3, 6] and rig.app.game.config["start"] == 2
        saved = flashfile.load("setup.json")
        assert saved["seats"] == [1, 3, 6] and saved["start"] == 2
        rig.close()

    _in_folder("seats", body)


def test_a_setup_chosen_again_is_not_written_again():
    # Resuming at every power-up must not rewrite setup.json: each write
    # lengthens littlefs's log of the folder, which every later lookup reads.
    def body(path):
        opened = []

        def counted(name, mode="r"):
            opened.append(name)
            return open(name, mode)

        flashfile.save("setup.json", {"game": "stack", "seats": [1, 3, 6], "start": 2})
        rig = _power_on(path)
        rig.tap(0, "ok")  # Start game: the same three, P3 first, and what is now remembered
        kept = flashfile.load("setup.json")
        rig.close()
        flashfile._open = counted
        rig = _power_on(path)  # the game in the journal is offered first
        rig.tap(0, "ok")
        assert rig.app.scene.kind == "play" and rig.app.seats == [1, 3, 6]
        assert opened == [], opened
        assert flashfile.load("setup.json") == kept
        rig.close()

    _in_folder("again", body)


def test_keep_writes_only_what_changed_and_all_or_nothing():
    def cut(name, mode="r"):
        raise OSError(5)

    def body(path):
        assert flashfile.keep("setup.json", {"game": "heist"})  # missing: written
        flashfile._open = cut
        assert not flashfile.keep("setup.json", {"game": "heist"})  # the same: not written
        try:
            flashfile.keep("setup.json", {"game": "stack"})
            raise AssertionError("a changed file was not written")
        except OSError:
            pass
        assert flashfile.load("setup.json") == {"game": "heist"}  # the old one, whole

    _in_folder("keep", body)


def test_a_remembered_setup_that_is_not_this_tables_is_ignored():
    def body(path):
        for bad in ([0, 0, 1], [0, 9], ["a"], [True, 1], 3, []):
            flashfile.save("setup.json", {"game": "heist", "seats": bad, "start": 7})
            rig = _power_on(path)
            setup = rig.app.scene
            assert setup.seats == [0, 1, 2, 3, 4, 5], (bad, setup.seats)  # the most Heist seats
            assert setup.start == 0
            rig.close()

    _in_folder("bad", body)


def test_players_counts_down_and_wraps_to_the_most():
    def body(path):
        rig = _power_on(path)
        setup = rig.app.scene
        seen = []
        for _ in range(6):
            while setup.rows[setup.cursor.at] != ("players",):
                rig.tap(0, "down")
            rig.tap(0, "ok")
            seen.append(len(setup.seats))
        assert seen == [5, 4, 3, 2, 6, 5], seen
        assert setup.seats == [0, 1, 2, 3, 4]
        rig.close()

    _in_folder("players", body)
