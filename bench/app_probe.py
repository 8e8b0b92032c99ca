# Runs under the MicroPython unix port (the app draws into framebuf):
#   micropython bench/app_probe.py press          one JSON line: press-to-pixels
#   micropython bench/app_probe.py game NAME      plays NAME at its largest count, prints OK
# with tests/shared and /tmp on MICROPYPATH (bench/bench_app.py sets it up).
#
# Press-to-pixels is measured on the mux board with every station seated:
# the firmware's own work for a press (the event, the game, the journal, the
# drawing) on the unix port's clock, and the bytes the panels then take on
# the I2C bus. The simulated chips' cost is left out: on the Pico they are
# silicon.
import gc
import json
import os
import sys
from time import ticks_diff, ticks_us

import tablebot
from apprig import AppRig, remove_tree
from devsim.table import Table
from tablerig import load

from catnip.drivers.debounce import PRESS
from catnip.flash.journal import Journal
from catnip.keys import DOWN, OK

LARGEST = {
    "heist": ({"variant": "standard", "gems": "digital"}, 6),
    "stack": ({"mode": "composure", "black_cat": True, "draw": "digital"}, 6),
    "purrfect": ({"mode": "stations"}, 7),
}
ROOT = "/dev/shm/catnip-bench-app" if "shm" in os.listdir("/dev") else "/tmp/catnip-bench-app"


def rig_for(name, seats, lean=False):
    """The app on the mux board, in setup for `name`. `lean`: the simulated
    buses keep no log (for heap figures: the log is the simulator's, not the
    firmware's)."""
    table = _table(lean)
    rig = AppRig(Journal(ROOT + "/journal"), line=None, table=table)
    options, n = LARGEST[name]
    tablebot.start(rig, name, options, list(range(seats or n)))
    return rig


class Timed:
    """The journal with its writes timed apart: on the host they wait for the
    host's disk, on the Pico for littlefs (measured on its own)."""

    def __init__(self, journal):
        self.journal = journal
        self.us = 0
        self.writes = 0

    def __getattr__(self, name):
        return getattr(self.journal, name)

    def action(self, player, action):
        t0 = ticks_us()
        self.journal.action(player, action)
        self.us += ticks_diff(ticks_us(), t0)
        self.writes += 1


def measure(rig, station, button, stations):
    """(µs of firmware work, bytes on the bus, µs on the wire, journal writes)
    for one press and the redraw of `stations` panels, the pressed one first.
    The work leaves out the journal's wait for the disk."""
    app = rig.app
    bus = rig.table.bus(0)
    rig.run(100)
    bus.clear()
    gc.collect()
    timed = app.journal = Timed(app.journal)
    t0 = ticks_us()
    app.loop.pressed = station
    app.key(station, button, PRESS)
    work = ticks_diff(ticks_us(), t0) - timed.us
    app.journal = timed.journal
    first = None
    for i in range(stations):
        k = (station + i) % app.stations
        t0 = ticks_us()
        app.frame.redraw(k)
        work += ticks_diff(ticks_us(), t0)
        app.hw.screens[k].flush(rig.table.ticks_ms())
        if first is None:
            first = (work, bus.bytes_sent(), bus.wire_us(), timed.writes)
    return first, (work, bus.bytes_sent(), bus.wire_us(), timed.writes)


def press():
    out = {}
    for name in ("heist", "stack", "purrfect"):
        rig = rig_for(name, None)
        try:
            app = rig.app
            n = len(app.seats)
            # A cursor move: only the pressing station changes.
            station = app.seats[n - 1]
            if name == "stack":
                station = app.seats[app.game.public()["turn"]]
            move, _ = measure(rig, station, DOWN, 1)
            # An action everyone sees: every panel redraws, the pressing one first.
            seat, action = tablebot.choose(app.game, name)
            station = app.seats[seat]
            for _ in range(50):
                button = tablebot.press_for(app.scene, station, action)
                # The OK that submits: Purrfect asks how many cards first.
                if button == OK and (name != "purrfect" or app.scene.local[station].doing):
                    break
                rig.tap(station, tablebot.NAMES[button])
            before = len(app.game.log)
            mine, everyone = measure(rig, station, OK, app.stations)
            assert len(app.game.log) == before + 1, (name, action, app.scene.banner, app.scene.error)
            out[name] = {"stations": app.stations, "move": move, "act_first": mine,
                         "act_all": everyone}
        finally:
            rig.close()
    print(json.dumps(out))


def _table(lean):
    remove_tree(ROOT)
    os.mkdir(ROOT)
    os.chdir(ROOT)
    table = Table(load("mux"))
    if lean:
        for bus in [table.bus(0)] + table.mux.model.channels:
            bus.recording = False
    return table


def idle():
    """The simulated table and the test player without the app, a second of
    table time: what game()'s heap figure holds besides the firmware."""
    table = _table(True)
    table.advance(1000)
    table.close()
    print("OK")


def game(name):
    """Play `name` to its end at its largest count."""
    rig = rig_for(name, None, lean=True)
    try:
        options, n = LARGEST[name]
        tablebot.play(rig, name, options, list(range(n)))
        assert rig.app.game.result() is not None
    finally:
        rig.close()
    print("OK")


if __name__ == "__main__":
    if sys.argv[1] == "press":
        press()
    else:
        game(sys.argv[2])
