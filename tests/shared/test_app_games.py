# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Whole games of every title played on the simulated table by pressing
# buttons only, journaled on flash; and the same games with the power cut at
# many points (a fresh Pico each time, resuming from the journal, sometimes
# with the last record torn), which must end exactly as the uninterrupted one.
# Every title plays once on SSD1306 panels and once on a board whose
# stations alternate SSD1306 and SH1106 (tablerig.PANELS).
import os

import tablebot
from apprig import AppRig, remove_tree
from catnip.rules import rebuild
from catnip.flash.journal import Journal
from scratch import scratch

# A folder of this run's own: several runs may share the machine's /tmp.
ROOT = scratch("catnip-app")

GAMES = (
    ("heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2]),
    ("heist", {"variant": "standard", "gems": "physical"}, [0, 1]),
    ("stack", {"mode": "composure", "black_cat": True, "draw": "digital"}, [0, 1, 2]),
    ("stack", {"mode": "clowder"}, [0, 1]),
    ("purrfect", {"mode": "stations"}, [0, 1, 2, 3]),
    ("purrfect", {"mode": "scorekeeper"}, [0, 1, 2, 3]),
)


def _fresh(name):
    path = ROOT + "-" + name
    remove_tree(path)
    os.mkdir(path)
    os.chdir(path)  # the app keeps setup.json and colonnade.json beside it
    return path


def _journal_replays(journal, game):
    """The journal's last game rebuilt from its header and actions equals the game."""
    gid = journal.games()[-1][0]
    header = journal.header(gid)
    again = rebuild(header)
    for entry in journal.entries(gid):
        if entry[0] == "action":
            again.act(entry[1], entry[2])
    assert again == game
    return gid


def _play(name, options, seats, tag, panel=None):
    path = _fresh(tag)
    rig = AppRig(Journal(path + "/journal"), panel=panel)
    try:
        tablebot.play(rig, name, options, seats)
        game = rig.app.game
        assert game.result() is not None
        _journal_replays(rig.app.journal, game)
        return rig, game
    except BaseException:
        rig.close()
        raise


def test_every_title_plays_to_its_standings_by_buttons_only():
    for i, (name, options, seats) in enumerate(GAMES):
        panel = ("ssd1306", "mixed")[i % 2]
        rig, game = _play(name, options, seats, "whole", panel)
        try:
            assert panel == "ssd1306" or type(rig.hw.screens[1].panel).__name__ == "SH1106"
            result = game.result()
            winner = result["ranks"].index(1)
            for k in seats:
                assert rig.shows(k, "1. P%d" % (winner + 1)), (name, rig.lines(k))
            status = dict(rig.app.journal.games())
            assert "finished" in status.values()
        finally:
            rig.close()


def test_a_power_cut_anywhere_resumes_and_ends_as_the_uninterrupted_game():
    for name, options, seats in (GAMES[0], GAMES[2], GAMES[4]):
        rig, reference = _play(name, options, seats, "reference")
        rig.close()
        want = reference.result()
        path = _fresh("cut")
        rig = AppRig(Journal(path + "/journal"))
        cuts = 0
        presses = 0
        try:
            while True:
                step = tablebot.next_press(rig.app, name, options, seats)
                if step is None:
                    break
                rig.tap(step[0], tablebot.NAMES[step[1]])
                presses += 1
                if rig.app.game is not None and cuts < 60:
                    cuts += 1
                    rig.close()
                    if cuts % 3 == 0:
                        _tear(path + "/journal")
                    rig = AppRig(Journal(path + "/journal"))  # a fresh Pico, same flash
            assert cuts >= 50, (name, cuts, presses)
            assert rig.app.game.result() == want, name
        finally:
            rig.close()


def _tear(root):
    """Cut the last few bytes of the game in play's newest page: a power cut
    in the middle of writing a record."""
    for folder in os.listdir(root):
        if folder.endswith(".playing"):
            pages = sorted(int(p) for p in os.listdir(root + "/" + folder) if p.isdigit())
            if not pages:
                return  # the tail was just sealed: no record is being written
            page = "%s/%s/%d" % (root, folder, pages[-1])
            with open(page, "rb") as f:
                data = f.read()
            if len(data) > 3:
                with open(page, "wb") as f:
                    f.write(data[:-3])


def test_a_finished_game_is_signed_once_its_standings_are_up():
    # Its last move's screens and announcements hold the game's heap: the
    # signing waits for the standings, which bring its code (on the image),
    # so that code never lies in the heap beside the game's screens.
    import sys

    from catnip.flash import seals

    path = _fresh("signed")
    rig = AppRig(Journal(path + "/journal"))
    seal, steps = rig.app.seal, []
    seal.frozen = True  # as on the image: the code is loaded ahead, not in the steps
    was = seal.step

    def step(between_games=True):
        scene = rig.app.scene
        work = seal.busy() and between_games
        steps.append((work, scene.kind, "catnip.ed25519" in sys.modules))
        return was(between_games)

    seal.step = step
    try:
        rig.run(2000)  # the table's key, made at setup
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        rig.run(6000)  # the last announcements go, the standings come up
        gid = rig.app.gid
        played = [kind for work, kind, _ in steps if kind != "setup"]
        assert "play" in played and "end" in played
        assert [kind for work, kind, _ in steps if work and kind == "play"] == []
        assert [s for s in steps if s[1] == "end"][0][2]  # loaded as they came up
        assert seals.load(rig.app.journal, gid) is not None and seals.unsigned(rig.app.journal) == []
    finally:
        seal.step = was
        rig.close()
