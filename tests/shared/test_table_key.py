# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The table's key and signatures on the simulated table: the first power-up
# makes a key (in idle turns) and keeps it on flash, the next power-up reads
# the same key back, the setup menu shows its fingerprint, and a game played
# to its end by button presses is signed (the signature is RFC 8032's for
# the game's record digest, so the laptop's check of it is the library's).
import os

import tablebot
from apprig import AppRig, remove_tree
from catnip import ed25519, record_digest
from catnip.flash import flashfile, seals
from catnip.flash.journal import Journal
from catnip.link.line import _uid
from catnip.link.line import Line
from catnip.table.seal import KEY_FILE
from test_app_lost import Out
from scratch import scratch

ROOT = scratch("catnip-key")


def _fresh(name):
    path = ROOT + "-" + name
    remove_tree(path)
    os.mkdir(path)
    os.chdir(path)  # the key is kept beside setup.json, as on the Pico's flash
    return path


def test_the_first_power_up_makes_a_key_and_the_next_keeps_it():
    path = _fresh("keep")
    rig = AppRig(Journal(path + "/journal"))
    try:
        rig.run(200)
        kept = flashfile.load(KEY_FILE)
        assert len(bytes.fromhex(kept["secret"])) == 32
        assert ed25519.public_key(bytes.fromhex(kept["secret"])).hex() == kept["public"]
        assert rig.app.seal.public.hex() == kept["public"]
    finally:
        rig.close()
    again = AppRig(Journal(path + "/journal"))
    try:
        assert again.app.seal.public.hex() == kept["public"]
    finally:
        again.close()


def test_the_setup_menu_shows_the_fingerprint():
    path = _fresh("shown")
    rig = AppRig(Journal(path + "/journal"))
    try:
        rig.run(200)
        fingerprint = record_digest.fingerprint(rig.app.seal.public)
        rig.hold(0, "back", 1200)
        rig.run(100)
        assert rig.shows(0, "Table key"), rig.lines(0)
        rig.tap(0, "down")
        rig.tap(0, "ok")
        rig.run(100)
        assert rig.shows(0, fingerprint[:9]) and rig.shows(0, fingerprint[10:]), rig.lines(0)
    finally:
        rig.close()


def test_a_finished_game_is_signed_in_the_idle_turns():
    path = _fresh("signed")
    rig = AppRig(Journal(path + "/journal"))
    try:
        rig.run(200)
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        rig.run(500)
        journal = rig.app.journal
        (gid, status), = journal.games()
        assert status == "finished"
        sig = seals.load(journal, gid)
        assert sig is not None, "not signed"
        kept = flashfile.load(KEY_FILE)
        digest = record_digest.digest(_uid(), gid, "finished", journal.header(gid),
                                      list(journal.entries(gid)))
        assert sig == ed25519.sign(bytes.fromhex(kept["secret"]), digest)
        assert seals.unsigned(journal) == []
    finally:
        rig.close()


def test_the_live_end_says_the_game_will_be_signed():
    # So a pull of it without its signature reads as cut off on the laptop,
    # whatever else of the pull went with it.
    path = _fresh("says")
    out = Out()
    rig = AppRig(Journal(path + "/journal"), line=Line(None, out, None, boot="b"))
    try:
        rig.run(200)  # the key made
        assert rig.app.seal.public is not None
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        rig.run(100)
        (end,) = out.frames("end")
        assert end["signs"] is True, end
        rig.app.seal.problem = "no room"  # a table that cannot sign says so at the end
        rig.app._setup()
        tablebot.play(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        rig.run(100)
        assert [f["signs"] for f in out.frames("end")] == [True, False]
    finally:
        rig.close()
