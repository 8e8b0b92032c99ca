# micropython-only: counts what became of every press over the scripted
# evenings (tests/scenarios/*.json) at the virtual table, with players who
# fidget: now and then a player who is waiting (not to act, or an
# announcement up) presses UP or DOWN. Every press must be acted on (a move
# logged, the station's own screen changed, after the game an announcement
# read out) or refused with a reason on its station; a press that leaves the
# game and its station's screen as they were is lost: one that only moved an
# announcement on while the game went on was swallowed.
#
# Prints one JSON line per scenario: presses, acted, refused, lost (and
# where), fidgets, and under: presses made while an announcement showed on
# the station pressed (players press on under them).
#
#   micropython tests/pressplay.py FLASH_DIR SCENARIO.json ...   (MICROPYPATH as tests/mpunix.py)
import json
import os
import sys

from catnip import board as boards
from catnip.rules.rng import Rng
from catnip.ui.play import _mark
from devsim.virtual_script import do_step
from devsim.virtual_table import SETTLE_MS, VirtualTable

FIDGET = 4  # one press in about this many comes with a waiting player's fidget


def _state(vt, s):
    """What a press on station s may change. In play: the game's log and
    that station's own screen state, never the announcements, which go by
    with time (a press that only moved one on was swallowed), except after
    the game, when OK reads them out. Elsewhere: every station's pixels."""
    scene = vt.app.scene
    if scene.kind != "play":
        return (scene.kind, [bytes(vt.image(k)) for k in range(1, vt.stations + 1)])
    k = s - 1
    menu, viewing = scene.menu[k], scene.viewing[k]
    over = len(scene.banner) if scene.game.result() is not None else None
    return ("play", len(scene.game.log), _mark(scene.local[k]), menu and menu.at,
            viewing and viewing[1].at, scene.ending[k], over)


def _reason(vt, s):
    scene = vt.app.scene
    return scene.error[s - 1] if scene.kind == "play" else None


class Count:
    def __init__(self, name):
        self.name = name
        self.presses = self.acted = self.refused = self.fidgets = self.under = 0
        self.lost = []

    def press(self, vt, s, button, where):
        scene = vt.app.scene
        if scene.kind == "play" and scene.headed(s - 1):
            self.under += 1  # an announcement showing on that station
        before = _state(vt, s)
        vt.tap(s, button)
        vt.run(SETTLE_MS)
        self.presses += 1
        if _reason(vt, s):
            self.refused += 1
        elif _state(vt, s) != before:
            self.acted += 1
        else:
            self.lost.append("%s: station %d %s" % (where, s, button))

    def line(self):
        return json.dumps({"name": self.name, "presses": self.presses, "acted": self.acted,
                           "refused": self.refused, "lost": len(self.lost),
                           "lost_at": self.lost[:10], "fidgets": self.fidgets,
                           "under": self.under})


def _waiting(vt):
    """Stations whose player may not act now, in a game in play."""
    scene = vt.app.scene
    if scene.kind != "play" or scene.game.result() is not None:
        return []
    acting = scene.game.to_act()
    return [station + 1 for seat, station in enumerate(scene.seats) if seat not in acting]


def evening(path, board):
    with open(path) as f:
        scenario = json.load(f)
    name = path.rsplit("/", 1)[-1][:-5]
    vt = VirtualTable(board, ".", lambda message: None, seed=scenario.get("seed") or "1")
    count = Count(name)
    rng = Rng("fidget:" + name)
    for i, step in enumerate(scenario["steps"]):
        if "press" in step:
            for _ in range(step.get("times", 1)):
                waiting = _waiting(vt)
                if waiting and rng.below(FIDGET) == 0:
                    count.fidgets += 1
                    count.press(vt, waiting[rng.below(len(waiting))],
                                ("up", "down")[rng.below(2)], "step %d (fidget)" % i)
                count.press(vt, step["station"], step["press"], "step %d" % i)
        elif "snap" in step or ("expect" in step and "standings" not in step["expect"]):
            continue  # a fidget's reason may cover a row a picture or a check reads
        else:
            do_step(vt, step)
    vt.close()
    return count


def clear(folder):
    for entry in os.ilistdir(folder):
        path = folder + "/" + entry[0]
        if entry[1] == 0x4000:
            clear(path)
            os.rmdir(path)
        else:
            os.remove(path)


def main(argv):
    flash, paths = argv[0], argv[1:]
    root = boards.__file__.rsplit("/", 2)[0]
    here = os.getcwd()
    for path in paths:
        with open(path) as f:
            board_name = json.load(f).get("board", "direct")
        with open(root + "/boards/%s.json" % board_name) as f:
            board = boards.parse(json.load(f))
        clear(flash)  # a fresh table for each evening
        os.chdir(flash)
        count = evening(path if path.startswith("/") else here + "/" + path, board)
        os.chdir(here)
        print(count.line())


if __name__ == "__main__":
    main(sys.argv[1:])
