# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# What the stations show of the tray goes on the serial line as "tray"
# frames: a cat placed on a four-cell tray is proposed with its lean, the
# report clears the proposal, an unchanged tray sends nothing, and a tray
# that shakes without end sends at most one frame per wire interval.
import json

import tablebot
from apprig import AppRig
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip.table.weigh import TELL_MS
from devsim.table import EMPTY_TRAY, Table
from tablerig import load
from test_app_games import _fresh
from test_app_lost import Out

PER_CAT = 12000
BASE = 4  # cats wedged into the base


class Corners:
    """What each of four cells weighs: the base's cats spread evenly, the
    cats placed above the right-front cell, a little noise; `shake` (ms)
    puts a cat on a corner, takes it off and puts it on the next corner, a
    move every `shake` ms."""

    def __init__(self):
        self.placed = 0
        self.shake = 0
        self.seed = 1

    def __call__(self, t_us):
        out = []
        for cell in range(4):
            self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (self.seed >> 16) % 60 - 30
            mass = BASE * PER_CAT // 4 + (self.placed * PER_CAT if cell == 1 else 0)
            hop = t_us // 1000 // self.shake if self.shake else 0
            if hop % 2 and hop // 2 % 4 == cell:
                mass += PER_CAT
            out.append(EMPTY_TRAY + mass + noise)
        return out


def _rig(tag, rate=10):
    """A two-player Stack O' Cats game on a four-cell tray read `rate` times a second."""
    path = _fresh(tag)
    with open(path + "/calibration.json", "w") as f:
        json.dump({"version": 2, "rate_hz": rate, "zero": [EMPTY_TRAY] * 4, "sign": [1] * 4,
                   "per_cat": PER_CAT, "cat_sd": 300, "noise": 60, "cats": 5,
                   "gain": [1024] * 4}, f)
    table = Table(load("mux", lambda d: d["tray"].update(rate=rate)), rate=rate)
    corners = Corners()
    table.counts = corners
    out = Out()
    rig = AppRig(Journal(path + "/journal"), line=Line(None, out, None, boot="b"),
                 weigh=path + "/calibration.json", table=table)
    tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False, "draw": "digital"},
                   [0, 1])
    return rig, corners, out


def _trays(out):
    """The tray frames so far, each checked as a laptop checks it."""
    got = []
    for item in wire.Reader().feed(bytes(out.data)):
        if item[0] == "frame" and item[2] == "tray":
            assert wire.message(item[1], item[2], item[3]) is None, item
            got.append(item[3])
    return got


def test_a_cat_placed_on_the_tray_goes_on_the_line_with_its_lean():
    rig, corners, out = _rig("tray-line")
    try:
        rig.run(3000)  # the tray finds the base and its four cats
        first = _trays(out)
        assert first and first[0]["proposes"] is None and first[0]["fault"] is None, first
        rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat
        rig.run(1000)
        corners.placed = 1  # ... and places it above the right-front cell
        rig.run(3000)
        assert rig.shows(0, "Tray +1 cat"), rig.lines(0)
        told = _trays(out)[-1]
        proposal = rig.app.weigh.verdict
        assert (told["proposes"], told["value"], told["conf"]) == ("place", 1, proposal["conf"]), told
        assert 0 < told["conf"] <= 100, told
        r, x, y = told["lean"]
        assert x > 0 and y < 0 and r > 0, told  # right and to the front
        assert told["lean"] == rig.app.weigh.view(None)["tray"]["lean"], told

        n = len(_trays(out))
        rig.run(5000)  # nothing changes: nothing is sent
        assert len(_trays(out)) == n, _trays(out)[n:]

        rig.table.stations[0].tap("ok", hold_ms=40)  # the tray's cat ...
        rig.run(300)
        rig.table.stations[0].tap("up", hold_ms=40)  # ... at height 1
        rig.run(300)
        rig.table.stations[0].tap("ok", hold_ms=40)
        rig.run(1000)
        assert rig.app.game.public()["turn"] == 1
        assert _trays(out)[-1]["proposes"] is None, _trays(out)[-1]  # the proposal is gone
    finally:
        rig.close()


class Timed(Out):
    """The line's bytes, and when (by the table's clock) each tray frame went."""

    def __init__(self, clock):
        super().__init__()
        self.clock = clock
        self.tray_ms = []

    def write(self, b):
        super().write(b)
        # A frame may reach the stream in pieces: a tray frame is counted once its head is in.
        while bytes(self.data).count(b" tray {") > len(self.tray_ms):
            self.tray_ms.append(self.clock.ticks_ms())


def test_a_tray_that_never_stops_shaking_cannot_flood_the_line():
    # Cats hop on and off the corners for ten seconds, the tray's events
    # bunched as close as 75 ms: its frames keep TELL_MS apart, and the last
    # word still reaches the line once it settles.
    rig, corners, out = _rig("tray-shaking", rate=80)
    try:
        rig.run(3000)
        rig.table.stations[0].tap("ok", hold_ms=40)  # P1 draws a cat
        rig.run(1000)
        timed = Timed(rig.table.clock)
        rig.app.line.out = timed
        corners.shake = 1500  # a cat hopping on and off the corners
        rig.run(10000)
        gaps = [b - a for a, b in zip(timed.tray_ms, timed.tray_ms[1:])]
        assert len(gaps) > 5 and min(gaps) >= TELL_MS - 15, gaps  # a reading's leeway
        corners.shake = 0
        rig.run(4000)  # it settles: the last word reaches the line
        assert _trays(timed)[-1]["lean"] == rig.app.weigh.view(None)["tray"]["lean"], _trays(timed)
    finally:
        rig.close()
