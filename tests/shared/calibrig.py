# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# A maker calibrating the simulated table's tray: the load cells weigh a
# devsim.sessions.Session calibration (the empty base, then cats one at a
# time, with four cells a cat above each corner), and the maker asks for
# each weighing when the trace's OK is pressed, from a station's buttons or
# over the serial line. What the same conversions give fed straight into a
# Calibrator (Session.calibrated) is the yardstick.
import json
import os
import sys

from apprig import AppRig, remove_tree
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip.tray.calibrator import Calibrator
from devsim.table import Table
from devsim.sessions import Session
from tablerig import load
from scratch import scratch

PER_CAT = 4300
OFFSET = 61000
NOISE = 40
GAINS = (1000, 1040, 970, 1010)  # each cell's sensitivity, per mille (Hands)


class Hands:
    """What the cells weigh, as a maker's hands leave it: cats on the base,
    or one above a corner, or a hand pressing on; a little noise, the same
    on both interpreters. do(words) takes calibplay.py's commands."""

    def __init__(self, cells, clock):
        self.cells = cells
        self.clock = clock
        self.shares = [1000 // cells] * cells  # per mille of the load on each cell
        self.cats = 0
        self.pushed = None  # when a hand began pressing
        self.seed = 7

    def __call__(self, t_us):
        out = []
        for i in range(self.cells):
            self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
            load = self.cats * PER_CAT * self.shares[i] // 1000 * GAINS[i] // 1000
            if self.pushed is not None:
                load += (t_us - self.pushed) // 100
            out.append(OFFSET + load + (self.seed >> 16) % 81 - 40)
        return out if self.cells > 1 else out[0]

    def do(self, words):
        if words[0] == "load":
            self.cats, self.pushed = int(words[1]), None
            self.shares = [1000 // self.cells] * self.cells
        elif words[0] == "corner":
            self.cats, self.pushed = 1, None
            self.shares = [700 if i == int(words[1]) else 100 for i in range(self.cells)]
        elif words[0] == "push":
            self.pushed = self.clock.now_us()


def folder(tag):
    path = scratch("catnip-calib-" + tag)
    remove_tree(path)
    os.mkdir(path)
    return path


def session(cells, rate, seed="maker", gains=None):
    return Session(seed, rate_hz=rate, cells=cells, noise=NOISE, per_cat=PER_CAT,
                   offset=OFFSET, drift_per_min=0, gains=gains)


def straight(cells, rate, cats, corners, seed="maker", gains=None):
    """The calibration the trace's conversions give fed straight in."""
    s = session(cells, rate, seed, gains)
    cal = Calibrator(rate, cells)
    answers = s.calibrated(cal, cats, corners)
    assert all(a["ok"] for a in answers), answers
    return cal.result().to_dict()


class Out:
    """The app's serial output, read back as frames."""

    def __init__(self):
        self.reader = wire.Reader()
        self.frames = []

    def write(self, data):
        for item in self.reader.feed(data):
            assert item[0] == "frame", item
            self.frames.append((item[2], item[3]))

    def take(self):
        got, self.frames = self.frames, []
        return got


class Maker:
    """The simulated table with the app, its load cells weighing `trace`
    (None: an empty tray), its serial line fed by command()."""

    def __init__(self, tag, board="direct", trace=None, calibration=None, rate=None):
        self.path = folder(tag)
        b = load(board, (lambda d: d["tray"].update(rate=rate)) if rate else None)
        self.table = Table(b, rate=b.tray["rate"] if b.tray else 10)
        if trace is not None:
            self.table.counts = trace
        self.file = self.path + "/calibration.json"
        if calibration is not None:
            with open(self.file, "w") as f:
                json.dump(calibration, f)
        self.out = Out()
        self.line = Line(None, self.out, None, boot="b")
        self.seq = 0
        os.chdir(self.path)  # setup.json and the high scores, as on the Pico's flash
        self.rig = AppRig(Journal(self.path + "/journal"), line=self.line,
                          weigh=self.file if b.tray else None, table=self.table)
        self.app = self.rig.app
        self.out.take()

    def command(self, kind, **fields):
        self.seq += 1
        self.line.feed(wire.encode(kind, self.seq, fields, wire.LAPTOP))
        return self.seq

    def calibrate(self, step):
        """Send a step; the answers that came at once."""
        self.command("calibrate", step=step)
        return self.out.take()

    def until(self, t_us):
        """Let the table run to trace time t_us."""
        now = self.table.clock.now_us()
        if t_us > now:
            self.rig.run((t_us - now) // 1000 // 10 * 10)

    def answer(self, limit_ms=6000):
        """Run until a calibrate answer (or an error) arrives."""
        for _ in range(limit_ms // 50):
            got = [f for f in self.out.take() if f[0] in ("calib", "err")]
            if got:
                assert len(got) == 1, got
                return got[0]
            self.rig.run(50)
        raise AssertionError("no answer in %d ms" % limit_ms)

    def saved(self):
        with open(self.file) as f:
            return json.load(f)

    def close(self):
        if self.app.calibration is not None:  # the next test starts with none loaded
            self.app.calibration.step("abort")
        self.rig.close()


def modules(prefix):
    """The loaded modules under `prefix`, sorted (sys.modules has no order
    to rely on once modules come and go)."""
    return sorted(m for m in sys.modules if m == prefix or m.startswith(prefix + "."))
