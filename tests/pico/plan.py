# micropython-only: plays the table app on the simulated table (framebuf).
#
# The button presses that play a game on the emulated Pico, worked out on the
# simulated table of the unix port with the same board and the same journal:
# the player policy of tests/shared/tablebot, one press at a time.
#
#   micropython plan.py REQUEST.json     (run by bench/pico_run.py)
#
# REQUEST: {"game", "options", "seats", "stations", "dir", "stage"}. `dir`
# holds what the Pico's flash holds (journal/, setup.json), copied off its
# image; the plan runs there. Stage "setup": the presses from the setup menu
# up to the one that starts the game (the Pico draws its own seed then).
# Stage "game": the game in the journal, resumed and played to its standings.
# Prints one JSON line: the presses ([station, button name]), and for
# "game" the result, the moves journaled before, and every station's text
# at the end.
import json
import os
import sys

import tablebot
from apprig import AppRig
from catnip.flash.journal import Journal
from tablerig import load


def seven(stations):
    def edit(data):
        data["stations"] = data["stations"][:stations]
    return edit


class PlanRig(AppRig):
    """AppRig on the mux board cut to the bench's station count."""

    def __init__(self, journal, board):
        import apprig

        shipped = apprig.load
        apprig.load = lambda name: board
        try:
            AppRig.__init__(self, journal, board="mux")
        finally:
            apprig.load = shipped


def plan(req):
    board = load("mux", seven(req["stations"]))  # before leaving the checkout
    os.chdir(req["dir"])
    rig = PlanRig(Journal("journal"), board)
    if req["stage"] == "game" and rig.app.journal.resumable() is None:
        rig.close()
        return {"presses": [], "finished": True}
    presses = []
    moves_after = []  # the game's moves once each press is carried out
    moves_before = None
    try:
        while True:
            scene = rig.app.scene
            if req["stage"] == "setup" and scene.kind != "setup":
                break
            if moves_before is None and rig.app.game is not None:
                moves_before = len(rig.app.game.log)
            step = tablebot.next_press(rig.app, req["game"], req["options"], req["seats"])
            if step is None:
                break
            station, button = step
            presses.append([station, tablebot.NAMES[button]])
            rig.tap(station, tablebot.NAMES[button])
            moves_after.append(len(rig.app.game.log) if rig.app.game is not None else 0)
            if len(presses) > 5000:
                raise AssertionError("no end in 5000 presses")
        out = {"presses": presses, "moves_after": moves_after}
        if req["stage"] == "game":
            assert rig.app.scene.kind == "end", "the game did not reach its standings"
            out["result"] = rig.app.game.result()
            out["moves_before"] = moves_before
            out["moves"] = len(rig.app.game.log)
            rig.run(4500)  # the notice line clears, as it will on the Pico
            out["screens"] = [rig.lines(k) for k in range(req["stations"])]
        return out
    finally:
        rig.close()


def main():
    with open(sys.argv[1]) as f:
        req = json.load(f)
    print("PLAN " + json.dumps(plan(req)))


if __name__ == "__main__":
    main()
