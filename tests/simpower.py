# micropython-only: power cuts at the virtual table. A game of a title is
# played once without a cut, then again and again with the power cut at a
# random moment of its journal's work on flash (before a rename or a
# removal, or part-way through a write, leaving a torn record); each time
# a fresh table starts on the same flash, resumes from its setup screen
# with OK (or, when the game never reached the flash, starts it again),
# finishes the game, and must end exactly as the uncut one did. The cut
# is a BaseException out of the journal's file calls: nothing after it
# runs, and the table's RAM is thrown away as a power cut would.
#
# Actions go to the app as App.act, as a station's presses make them (the
# presses themselves are the scenarios' business); setup and the resume
# are pressed on station 1.
#
#   micropython tests/simpower.py NAME CUTS FOLDER   (MICROPYPATH as tests/mpunix.py;
#                                                    FOLDER: an empty one, the flash)
# Then a finished game and a half-played one whose records are damaged in
# the middle: the table must not resume that one, must say why, and must
# keep the other. Prints a line per cut, then "OK n cuts" or what failed.
import gc
import os
import sys

import catnip.flash.journal as journal_module
import catnip.flash.journal_files as journal_files
from catnip.rules.rng import Rng
from catnip.ui.end import CHOICES
import tablebot
from simplay import GAMES, Recorder, choose_game, clear
from simpresses import POLICIES


START = None  # Recorder's arguments for the game played


class PowerCut(BaseException):
    pass


class Flash:
    """The journal's file calls, counted; at op number `cut` the power goes."""

    def __init__(self, cut=None, rng=None):
        self.ops = 0
        self.cut = cut
        self.rng = rng
        self.torn = None  # (bytes written, of) when the cut tore a write

    def op(self):
        self.ops += 1
        return self.ops == self.cut

    def open(self, path, mode="r"):
        f = _open(path, mode)
        return f if "r" in mode else _File(f, self)

    # os, as catnip.flash.journal uses it
    def __getattr__(self, name):
        return getattr(os, name)

    def rename(self, a, b):
        if self.op():
            raise PowerCut()
        os.rename(a, b)

    def remove(self, path):
        if self.op():
            raise PowerCut()
        os.remove(path)

    def mkdir(self, path):
        if self.op():
            raise PowerCut()
        os.mkdir(path)

    def rmdir(self, path):
        if self.op():
            raise PowerCut()
        os.rmdir(path)


_open = open


class _File:
    def __init__(self, f, flash):
        self.f = f
        self.flash = flash

    def write(self, data):
        if self.flash.op():
            part = self.flash.rng.below(len(data)) if len(data) > 1 else 0
            self.f.write(data[:part])
            self.f.close()
            self.flash.torn = (part, len(data))
            raise PowerCut()
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def install(flash):
    for module in (journal_module, journal_files):
        module.open = flash.open
        module.os = flash


def boot(flash):
    """A fresh table on the flash folder (the current one), at its setup."""
    install(flash)
    gc.collect()
    return Recorder(*START)


def start(name, flash):
    """A table past its setup: the game resumed from the journal with OK on
    the "Resume" row the setup offers first, or else started afresh."""
    return begin(boot(flash), name)


def begin(rec, name):
    """start() on a table already booted (rec, at its setup)."""
    if rec.vt.lines(1)[1].startswith("Resume"):
        rec.press(1, "ok")
        assert rec.app.scene.kind in ("play", "end"), "resume did not: %s" % rec.vt.lines(1)
    else:
        game_name, options, seats, first, _, _ = GAMES[name]
        choose_game(rec, game_name, options, seats, first)
    return rec


def finished_on_flash(journal):
    """The result of the newest game the journal holds as finished, or None."""
    done = [gid for gid, status in journal.games() if status == "finished"]
    if not done:
        return None
    for entry in journal.entries(done[-1]):
        if entry[0] == "end":
            return entry[1]
    return None


def play_on(rec, actions):
    """The game's remaining actions, as the stations submit them."""
    game = rec.app.game
    done = len(game.log)
    assert list(game.log) == actions[:done], "the table resumed another game: %s" % (
        list(game.log)[-3:],)
    for seat, action in actions[done:]:
        rec.app.act(seat, action)
    return done


def standings(rec):
    tablebot.read_out(rec.app)
    assert rec.app.scene.kind == "end", "the game did not end: %s" % rec.vt.lines(1)
    return [r for r in rec.app.scene.rows if r not in CHOICES]


def uncut(name):
    """(actions, result, standings, journal ops) of the game without a cut."""
    flash = Flash()
    rec = start(name, flash)
    game_name = GAMES[name][0]
    policy = POLICIES[game_name]
    rng = Rng("policy:" + name)
    actions = []
    game = rec.app.game
    for _ in range(3000):
        if game.result() is not None:
            break
        players = game.to_act()
        seat = players[rng.below(len(players))]
        action = policy(game, seat, rng)
        if action is not None:
            rec.app.act(seat, action)
            actions.append(game.log[-1])
    lines = standings(rec)
    rec.vt.close()
    return actions, game.result(), lines, flash.ops


def damaged_middle(name, actions, result):
    """A finished game, then one half played whose records are damaged in
    the middle (a byte flipped): a fresh table must not offer to resume it,
    must say why, and must keep the finished one."""
    clear(".")
    rec = start(name, Flash())
    for seat, action in actions:
        rec.app.act(seat, action)
    tablebot.read_out(rec.app)
    rec.vt.close()
    rec = start(name, Flash())  # the same deal again, as a new game
    for seat, action in actions[:len(actions) // 2]:
        rec.app.act(seat, action)
    rec.vt.close()
    playing = [n for n in os.listdir("journal") if n.endswith(".playing")]
    assert len(playing) == 1, os.listdir("journal")
    folder = "journal/" + playing[0]
    path, size = max(((folder + "/" + n, os.stat(folder + "/" + n)[6])
                      for n in os.listdir(folder)), key=lambda f: f[1])
    with _open(path, "rb") as f:
        data = bytearray(f.read())
    data[size // 2] ^= 0x5A
    with _open(path, "wb") as f:
        f.write(data)
    again = boot(Flash())
    problems = list(again.vt.journal.problems)
    offered = again.vt.lines(1)[1]
    kept = finished_on_flash(again.vt.journal)
    again.vt.close()
    assert not offered.startswith("Resume"), "a damaged game was offered: %s" % offered
    assert problems, "the damage went unsaid"
    assert kept == result, "the finished game was not kept: %s" % (kept,)
    print("damaged %s at byte %d of %d: not offered; said: %s" % (
        path, size // 2, size, problems[0]))


def main(argv):
    global START
    name, cuts, folder = argv[0], int(argv[1]), argv[2]
    START = (name, GAMES[name][4], ())
    os.chdir(folder)
    clear(".")
    actions, result, lines, ops = uncut(name)
    print("%s: %d actions, %d journal ops, %s" % (name, len(actions), ops, " / ".join(lines)))
    rng = Rng("cuts:" + name)
    torn = reported = 0
    for i in range(cuts):
        clear(".")
        cut = 1 + rng.below(ops)
        flash = Flash(cut, rng)
        acked = 0
        rec = None  # the cut may come while the table boots or starts the game
        try:
            rec = boot(flash)
            begin(rec, name)
            for seat, action in actions:
                rec.app.act(seat, action)
                acked += 1
            tablebot.read_out(rec.app)  # the standings: the journal's end record
        except PowerCut:
            pass
        else:
            raise AssertionError("cut %d at op %d of %d never came" % (i, cut, ops))
        if rec is not None:
            rec.vt.close()
        again = boot(Flash())
        problems = list(again.vt.journal.problems)
        if not again.vt.lines(1)[1].startswith("Resume") and acked >= len(actions) - 1 and \
                finished_on_flash(again.vt.journal) == result:
            resumed = len(actions)  # the end reached the flash: nothing to resume
        else:
            again.vt.close()
            again = start(name, Flash())
            resumed = play_on(again, actions)
            assert again.app.game.result() == result, \
                "cut %d at op %d: the result differs: %s" % (i, cut, again.app.game.result())
            assert standings(again) == lines
        again.vt.close()
        assert acked <= resumed <= acked + 1, \
            "cut %d at op %d: %d actions acknowledged, %d came back" % (i, cut, acked, resumed)
        if flash.torn is not None and flash.torn[0]:
            torn += 1
            reported += 1 if problems else 0
        print("cut %d at op %d: %d acknowledged, %d back%s%s" % (
            i, cut, acked, resumed, ", torn %d of %d bytes" % flash.torn if flash.torn else "",
            "; said: " + problems[0] if problems else ""))
    damaged_middle(name, actions, result)
    clear(".")
    print("OK %d cuts, %d torn writes, %d of them reported" % (cuts, torn, reported))


if __name__ == "__main__":
    main(sys.argv[1:])
