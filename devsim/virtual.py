# The virtual table. The unmodified app (catnip.table.app) runs on the simulated
# table (devsim.table) built from a board file, and talks to the laptop's
# `catnip sim` over this process's stdin and stdout, one line each way. It runs on
# the MicroPython unix port, or on CPython through devsim/cpython/run.py, which
# stands in for MicroPython's built-in modules (framebuf, micropython, ticks):
#
#   in  (text)   tap S BUTTON [HOLD_MS] | press S BUTTON | release S BUTTON
#                tray place | tray remove | tray collapse K | tray hand
#                serial TEXT (a line for the app's serial input) | wait MS
#                screens (send every screen again) | quit
#   out (JSON)   {"k": "ready", "stations", "board", "tray", "journal"}
#                {"k": "screen", "s": S, "h": height, "img": base64, "rows", "attr"}
#                    (when it changed: the SSD1306 model's image, and its 8x8
#                    cells read back as text, see cells())
#                {"k": "line", "m": {...}} (the app's serial output, a line each)
#                {"k": "tray", "tower": n, "loose": n[, "lean"]}   {"k": "error", "why"}
#                (a command refused: nothing changed)   {"k": "crash", "why"} (the app
#                raised: its traceback; the process exits 3)   {"k": "bye"}
#   scripts      {"k": "snap", "name", "s", "h", "img"}   {"k": "fail", "step", "why",
#                "screens"} (exit 1)   {"k": "standings", "lines", "screens"} (exit 0)
#
# Stations are numbered from 1 as players see them; buttons are up, down, ok,
# back. Time is the table's VirtualClock, stepped 10 ms at a time: in real
# time for a person at the keyboard (--clock live), as fast as it goes for a
# script (--clock fast, where only `wait` moves time on). A scenario file
# (--script FILE) is played the same way and checked by its expect steps.
#
#   micropython devsim/virtual.py --board B.json --journal DIR [--clock live|fast]
#       [--seed S] [--stations N] [--script FILE]
#   python devsim/cpython/run.py devsim/virtual.py ... (the same options)
import binascii
import hashlib
import io
import json
import os
import select
import sys
import time

from catnip import board as boards
from catnip.table.app import App
from catnip.board import BUTTONS
from catnip import wire
from catnip.parts.hardware import Hardware
from devsim import glyphs
from devsim.table import AppClock, Table
from devsim.traces import Ramp, Session, impulse_ring

STEP_MS = 10
HOLD_MS = 80  # a tap: how long the button is held,
GAP_MS = 70  # and the pause before the same station's next one
SETTLE_MS = 150  # a script's tap, then this long before its next step
LONG_MS = 1000  # a script's "hold" unless it says: past the app's 800 ms long press
CAT_COUNTS = 4300  # what one cat adds on the load cell, in HX711 counts
BASE_CATS = 4  # wedged into the base before a game (catnip.table.weigh counts them in)
TRAY_OFFSET = 21000  # what the empty base reads: a real bridge is never balanced to 0


def open_journal(folder):
    """catnip.flash.journal.Journal in `folder`/journal: the flash is the folder,
    laid out as on the Pico."""
    from catnip.flash.journal import Journal

    return Journal(folder.rstrip("/") + "/journal")


def game_seed(base, n):
    """The seed of the n-th game of a run seeded with `base`: 32 hex digits,
    as the device makes them."""
    return binascii.hexlify(hashlib.sha256(("catnip-sim:%s:%d" % (base, n)).encode())
                            .digest()[:16]).decode()


class GameSeeds:
    """seeds() for the app: the n-th game's seed from `base`."""

    def __init__(self, base):
        self.base = base
        self.n = 0

    def __call__(self):
        self.n += 1
        return game_seed(self.base, self.n - 1)


def make_app(board, hw, journal, line, clock, seed):
    """The app on the table, each game's seed drawn from `seed` (None: the
    board's entropy, as on the Pico), so a script plays the same game each
    time. A board with a tray weighs it with the calibration in the flash
    folder (calibration.json, as on the Pico), made once if it is missing."""
    seeds = GameSeeds(seed) if seed is not None else None
    weigh = None
    if hw.tray is not None:
        from catnip.boot import CALIBRATION_FILE
        from catnip.table.weigh import Weigh

        try:
            os.stat(CALIBRATION_FILE)
        except OSError:
            calibrate_tray(board.tray, CALIBRATION_FILE)
        weigh = Weigh(hw, CALIBRATION_FILE)
    return App(hw, journal, line=line, weigh=weigh, clock=clock, seeds=seeds)


def calibrate_tray(tray, path):
    """Calibrate the simulated tray the way a maker does (catnip.tray's
    Calibrator: the empty base, then five cats one at a time, and a cat
    above each corner with four cells) on a load-cell trace like the
    table's, and save the result at `path`."""
    from catnip.tray.calibrator import Calibrator

    cells, rate = len(tray["cells"]), tray["rate"]
    s = Session("virtual calibration", rate_hz=rate, cells=cells, per_cat=CAT_COUNTS,
                offset=TRAY_OFFSET, drift_per_min=0)
    cal = Calibrator(rate, cells)
    s.calibrated(cal, 5, cells == 4)
    with open(path, "w") as f:
        json.dump(cal.result().to_dict(), f)



# ---- the tray ----------------------------------------------------------------


class Tower(Session):
    """The cats on the tray, as load-cell forces (devsim.traces.Session),
    each move starting when it is asked for rather than after a pause."""

    def wait(self, lo_ms=0, hi_ms=0):
        return self.t

    def at(self, t_us):
        self.t = max(self.t, t_us)

    def collapse_k(self, k):
        """The top k cats fall; each lands on the tray (and stays) or clear of it."""
        if not 0 < k <= len(self.tower):
            raise ValueError("the tower has %d cats; %d cannot fall" % (len(self.tower), k))
        before = self.cats()
        start = self.wait()
        end = start
        stayed = 0
        for _ in range(k):
            m, x, y = self.tower.pop()
            tip = start + self.ms(0, 150)
            self._add(Ramp(tip, self.ms(20, 80), -m, self._w(x, y)))
            land = tip + self.ms(100, 250)
            if self.rng.below(100) < self.stay:
                lx = max(-1000, min(1000, x + self.between(-500, 500)))
                ly = max(-1000, min(1000, y + self.between(-500, 500)))
                w = self._w(lx, ly)
                self._add(impulse_ring(land, self.ms(14, 30), self.ms(10, 40),
                                       m * (land - tip) * 13 // 10, w))
                self._add(Ramp(land, self.ms(10, 40), m, w))
                self.loose.append([m, lx, ly])
                stayed += 1
            end = max(end, land + 40000)
        return self._record("collapse", start, end, before, fell=k, stayed=stayed)


# ---- the serial line's two ends ---------------------------------------------


_POLL = 3  # MicroPython's stream ioctl requests (py/stream.h)
_GET_FILENO = 10


class SerialIn(io.IOBase):
    """What the laptop sends on the app's serial line: catnip.link.line polls it
    and reads a byte at a time (b"" when nothing is waiting)."""

    def __init__(self):
        self.waiting = b""
        self.seq = 0

    def feed(self, text):
        """`text` as the laptop would send it: a command word and its JSON
        fields ("hello", 'pull {"gid": 1}'), framed; or raw text as it is."""
        word, _, rest = text.partition(" ")
        try:
            fields = json.loads(rest) if rest.strip() else {}
            wire.command(word, fields)
        except (ValueError, wire.WireError):
            self.waiting += text.encode() + b"\n"  # not a command: the table says why
            return
        self.seq += 1
        self.waiting += wire.encode(word, self.seq, fields, wire.LAPTOP)

    def read(self, n):
        got, self.waiting = self.waiting[:n], self.waiting[n:]
        return got

    def ioctl(self, request, arg):
        if request == _GET_FILENO:
            return -1  # no file descriptor: select.poll asks _POLL instead
        if request == _POLL:
            return arg if self.waiting else 0
        return -1


class SerialOut:
    """The app's serial output, read as a laptop reads it (catnip.wire):
    one {"k": "line"} message per frame, its kind as "t"; a line that is
    not a frame as {"t": "raw"}."""

    def __init__(self, send):
        self.send = send
        self.reader = wire.Reader()

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        for item in self.reader.feed(data):
            if item[0] == "frame":
                _, seq, kind, fields, _ = item
                fields["t"] = kind
                if seq:
                    fields["seq"] = seq
                self.send({"k": "line", "m": fields})
            elif item[0] == "bad":
                self.send({"k": "line", "m": {"t": "bad", "text": item[1]}})
            else:
                self.send({"k": "line", "m": {"t": "raw", "text": item[1]}})
        return len(data)


# ---- what a screen shows -------------------------------------------------------

_underlined = None


def _font():
    """{8 column bytes: (char, attribute)}: framebuf's glyphs, lit ("."),
    dark on a lit bar ("i") and with a line under them ("u")."""
    global _underlined
    if _underlined is None:
        font = {}
        for cell, glyph in glyphs._glyphs().items():
            font[cell] = (glyph[0], "i" if glyph[1] else ".")
            if not glyph[1]:
                font[bytes(b | 0x80 for b in cell)] = (glyph[0], "u")
        font[bytes(8)] = (" ", ".")
        font[b"\xff" * 8] = (" ", "i")
        _underlined = font
    return _underlined


def cells(image, height):
    """The screen as its 16 x height/8 character cells: (rows, attrs), one
    string each per text row. attr "g" marks a cell holding a drawing (a
    gauge, a frame): its char is a space and the picture has its pixels."""
    font = _font()
    rows, attrs = [], []
    for page in range(height // 8):
        text, attr = "", ""
        base = page * 128
        for col in range(16):
            cell = bytes(image[base + col * 8:base + col * 8 + 8])
            char, a = font.get(cell, (" ", "g"))
            text += char
            attr += a
        rows.append(text)
        attrs.append(attr)
    return rows, attrs


def shown(lines):
    """A screen's text rows with the scroll marks (^ v at the right edge) off."""
    out = []
    for line in lines:
        if len(line) >= 16 and line[15] in "^v" and line[14] == " ":
            line = line[:15]
        out.append(line.rstrip())
    return out


# ---- the table ------------------------------------------------------------------


class VirtualTable:
    """The simulated table with the app on it. send(message) gets every
    message for the laptop."""

    def __init__(self, board, journal_dir, send, stations=None, seed=None, line_fd=None):
        self.board = board
        self.send = send
        # A fitted DS3231 kept the time: the computer's, as a set clock's would be.
        self.table = Table(board, rate=board.tray["rate"] if board.tray else 10,
                           rtc_unix=int(time.time()))
        self._quiet_buses()
        n = stations or len(board.stations)
        self.stations = n
        self.tower = None
        if board.tray is not None:
            cells = len(board.tray["cells"])
            self.tower = Tower("virtual tray", rate_hz=board.tray["rate"], cells=cells,
                               per_cat=CAT_COUNTS, offset=TRAY_OFFSET, drift_per_min=0)
            self.table.counts = self.tower.trace
            for _ in range(BASE_CATS):  # the base stands on the tray with its wedged cats
                self.tower.place()
        self.written = [True] * n  # whether the driver wrote to each panel since
        for k in range(n):
            self._watch(k)
        self.hw = Hardware(board, n, clock=self.table.clock)
        self._warm_up(30)  # the panels and buttons come up before the app starts
        self.journal, self.journal_kind = open_journal(journal_dir), "flash"
        self.serial_in = SerialIn()
        if line_fd is None:  # the laptop's side is this process's stdin and stdout
            from catnip.link.line import Line

            line = Line(self.serial_in, SerialOut(send), None)
        else:  # a pseudo-terminal, which a laptop tool opens as it opens a Pico
            from devsim.link_runner import pty_line

            line = pty_line(line_fd)
        self.app = make_app(board, self.hw, self.journal, line, AppClock(self.table), seed)
        self.pacer = None  # called after each step while a scenario plays in real time
        self.free_at = [0] * n  # when each station's buttons are free for the next tap
        self.last = [None] * n  # the image last sent per station
        self.run(100)

    def _quiet_buses(self):
        """Buses keep every transfer for tests that count bytes; a table that
        plays for hours must not."""
        segments = [self.table.bus(b) for b in self.board.i2c]
        if self.table.mux is not None:
            segments += list(self.table.mux.model.channels)
        for segment in segments:
            segment.recording = False

    def close(self):
        """Put back the pin board and buses the table took (devsim.table), and
        let go of the journal's open file, as the power going would."""
        self.journal.close()
        self.table.close()

    def _watch(self, k):
        """Note every write to station k's panel, so only a panel the
        driver wrote to is read back and compared (reading all of them
        every 10 ms would be most of a live table's work)."""
        oled = self.table.stations[k].oled
        write = oled.write

        def watched(data):
            self.written[k] = True
            write(data)

        oled.write = watched

    def _warm_up(self, ms):
        for _ in range(ms // STEP_MS):
            self.table.advance(STEP_MS)
            now = self.table.ticks_ms()
            self.hw.poll(now)
            self.hw.flush(now)
            while self.hw.next() is not None:
                pass

    # ---- time ----------------------------------------------------------------

    def now(self):
        return self.table.now_ms()

    def run(self, ms):
        """Let `ms` of table time pass, the app stepped every 10 ms."""
        for i in range(ms // STEP_MS):
            self.table.advance(STEP_MS)
            self.app.loop.step(self.table.ticks_ms())
            if i % 100 == 99:
                self._forget_commands()
            if self.pacer is not None:
                self.pacer()
        self._forget_commands()

    def _forget_commands(self):
        """The panel models keep every command for tests; the table forgets them."""
        for st in self.table.stations:
            st.oled.commands = []
        if self.table.display is not None:
            self.table.display.commands = []

    # ---- hands -----------------------------------------------------------------

    def station(self, s):
        return self.table.stations[check_station(self, s) - 1]

    def height(self, s):
        return self.station(s).oled.height

    def tap(self, s, button, hold_ms=HOLD_MS):
        """Press and release after hold_ms; taps on one station queue up, so
        a fast typist's keys each arrive as their own press."""
        st = self.station(s)
        at = max(self.now(), self.free_at[s - 1])
        st.tap(button, at, hold_ms)
        self.free_at[s - 1] = at + hold_ms + GAP_MS

    def press(self, s, button):
        self.station(s).press(button, max(self.now(), self.free_at[s - 1]))

    def release(self, s, button):
        st = self.station(s)
        at = max(self.now(), self.free_at[s - 1])
        st.release(button, at)
        self.free_at[s - 1] = at + GAP_MS

    def tray(self, move, k=None):
        """place | remove | hand | collapse (k cats), as check_tray allows."""
        self.tower.at(self.table.clock.now_us())
        if move == "place":
            self.tower.place()
        elif move == "remove":
            self.tower.remove(most=1)
        elif move == "hand":
            self.tower.touch()
        else:
            self.tower.collapse_k(k)
        self.send_tray()

    def send_tray(self):
        t = self.tower
        msg = {"k": "tray", "tower": len(t.tower), "loose": len(t.loose)}
        if t.cells == 4:
            msg["lean"] = list(t.lean())
        self.send(msg)

    # ---- screens -----------------------------------------------------------------

    def image(self, s):
        return self.station(s).screen()

    def lines(self, s):
        """Station s's eight text rows (the app draws on an 8x8 grid)."""
        return shown(cells(self.image(s), self.height(s))[0])

    def send_screens(self, force=False):
        for s in range(1, self.stations + 1):
            if not (force or self.written[s - 1]):
                continue
            self.written[s - 1] = False
            img = bytes(self.image(s))
            if force or img != self.last[s - 1]:
                self.last[s - 1] = img
                height = self.height(s)
                rows, attrs = cells(img, height)
                self.send({"k": "screen", "s": s, "h": height, "img": _b64(img),
                           "rows": rows, "attr": attrs})

    def standings(self):
        """The final table as the stations show it, read off station 1 and
        scrolled through with DOWN (every station shows the same list), then
        back to the top; None when no game has ended. A row is taken from a
        view where it is not at the list's top or bottom edge when it can
        be, where a scroll mark (^ v) may be drawn over its last letter."""
        if self.app.scene.kind != "end":
            return None
        rows = {}  # position in the list: (read at an edge, text)
        first = 0  # the list's first row on the screen
        seen = self._take(rows, first)
        moves = 0
        while "New game" not in [text for _, text in rows.values()] and moves < 60:
            self.tap(1, "down")
            self.run(SETTLE_MS)
            moves += 1
            now = self.lines(1)[1:7]
            if now != seen:
                first += 1
                seen = self._take(rows, first)
        for _ in range(moves):
            self.tap(1, "up")
            self.run(SETTLE_MS)
        out = [rows[i][1] for i in sorted(rows)]
        return [line for line in out if line and line not in ("Rematch", "New game")]

    def _take(self, rows, first):
        shown_rows = self.lines(1)[1:7]
        for i, text in enumerate(shown_rows):
            edge = (i == 0 and first > 0) or i == len(shown_rows) - 1
            if first + i not in rows or (rows[first + i][0] and not edge):
                rows[first + i] = (edge, text)
        return shown_rows


def _b64(data):
    return binascii.b2a_base64(data).decode().strip()


# ---- commands from the laptop -------------------------------------------------


_FOLDER_FAULTS = {2: "there is no such folder; make it first, or leave --journal out",
                  20: "it is a file, not a folder", 13: "this user may not use it"}


class Refused(Exception):
    """A command or scenario step the table cannot carry out, and why; it
    changed nothing."""


def check_station(vt, s):
    if not isinstance(s, int) or not 1 <= s <= vt.stations:
        raise Refused("station %r: this table has stations 1 to %d" % (s, vt.stations))
    return s


def check_button(button):
    if button not in BUTTONS:
        raise Refused("buttons are %s, not %r" % (", ".join(BUTTONS), button))
    return button


def check_tray(vt, move, k):
    if vt.tower is None:
        raise Refused("board %s has no tray" % vt.board.name)
    if move not in ("place", "remove", "collapse", "hand"):
        raise Refused("tray moves are place, remove, collapse K and hand, not %r" % (move,))
    if move == "collapse" and not (isinstance(k, int) and 0 < k <= len(vt.tower.tower)):
        raise Refused("the tower has %d cats: a collapse fells 1 to %d, not %r" % (
            len(vt.tower.tower), len(vt.tower.tower), k))
    if move == "remove" and not vt.tower.loose:
        raise Refused("no fallen cat lies on the tray to lift off")


def _int(text, what):
    try:
        return int(text)
    except ValueError:
        raise Refused("%s must be a whole number, not %r" % (what, text))


COMMANDS = "tap, press, release, tray, serial, wait, screens, quit"


def command(vt, words):
    """Carry out one command line (split into words); False on quit."""
    word, args = words[0], words[1:]
    if word == "quit":
        return False
    if word in ("tap", "press", "release"):
        if len(args) < 2:
            raise Refused("write %s STATION BUTTON, e.g. '%s 1 ok'" % (word, word))
        s = check_station(vt, _int(args[0], "station"))
        button = check_button(args[1])
        if word == "tap":
            vt.tap(s, button, _int(args[2], "hold ms") if len(args) > 2 else HOLD_MS)
        else:
            getattr(vt, word)(s, button)
    elif word == "tray":
        if not args:
            raise Refused("write tray place, tray remove, tray hand or tray collapse K")
        k = _int(args[1], "cats") if len(args) > 1 else None
        check_tray(vt, args[0], k)
        vt.tray(args[0], k)
    elif word == "serial":
        vt.serial_in.feed(" ".join(args))
    elif word == "wait":
        vt.run(_int(args[0], "ms") if args else STEP_MS)
    elif word == "screens":
        vt.send_screens(force=True)
    else:
        raise Refused("unknown command %r; commands: %s" % (word, COMMANDS))
    return True


def crash_report(e):
    """The app's exception as the text a traceback would print."""
    out = io.StringIO()
    sys.print_exception(e, out)
    return out.getvalue()


class Stopped(BaseException):
    """The laptop said quit (or went away) while a scenario played: not an
    error of the app, so no `except Exception` takes it for one."""


class Laptop:
    """The laptop's end of stdin: commands read without blocking the table,
    and the table kept in step with real time (live) or moved only by
    `wait` (fast)."""

    def __init__(self, vt, live):
        self.vt = vt
        self.live = live
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.started = time.ticks_ms()
        self.t0 = vt.now()
        self.running = True

    def behind(self):
        """How far table time lags real time, in ms (negative: ahead)."""
        return self.t0 + time.ticks_diff(time.ticks_ms(), self.started) - self.vt.now()

    def read(self, timeout, obey=True):
        """One command, if one comes within timeout ms (-1: wait for it). With
        obey False (a scenario is playing) only quit is carried out."""
        if not self.poll.poll(timeout):
            return
        line = sys.stdin.readline()
        words = line.split()
        if not line or (words and words[0] == "quit"):
            self.running = False  # quit, or the laptop went away
        elif words and not obey:
            self.vt.send({"k": "error", "why": "a scenario is playing: the keys work "
                                               "once it ends"})
        elif words:
            try:
                self.running = command(self.vt, words)
            except Refused as e:
                self.vt.send({"k": "error", "why": str(e)})

    def serve(self):
        """Commands until quit; screens out as they change."""
        vt = self.vt
        vt.send_screens(force=True)
        if vt.tower is not None:
            vt.send_tray()
        while self.running:
            self.read(STEP_MS if self.live else -1)
            if self.live:
                # A stall (the laptop asleep) is skipped, not replayed.
                vt.run(min(self.behind(), 200) // STEP_MS * STEP_MS)
            vt.send_screens()

    def pace(self):
        """Called after each step of a scenario played live: the screens go
        out and the table waits for real time to catch up."""
        self.vt.send_screens()
        while self.running and self.behind() < 0:
            self.read(min(STEP_MS, -self.behind()), obey=False)
        if not self.running:
            raise Stopped()


def serve(vt, live, steps=None):
    """Play the scenario's steps if any (in real time when live, then carry
    on with the laptop's commands), else the laptop's commands until quit.
    Returns the exit status: 0, 1 when a step failed, 3 when the app crashed."""
    laptop = Laptop(vt, live)
    status = 0
    try:
        if steps is not None:
            vt.pacer = laptop.pace if live else None
            status = run_script(vt, steps)
            vt.pacer = None
        if live or steps is None:
            laptop.serve()
    except Stopped:
        pass
    except Exception as e:  # the app itself failed: say so, as the Pico's REPL would
        vt.send({"k": "crash", "why": crash_report(e)})
        return 3
    vt.send({"k": "bye"})
    return status


# ---- scenario files -------------------------------------------------------------
#
# A step is one object: {"station": S, "press": B} (a tap; "times": n for
# several), {"station": S, "hold": B, "ms": n} (held, then let go),
# {"station": S, "push": B} and {"station": S, "release": B} (held until
# released, to look at the screen meanwhile), {"wait": ms},
# {"tray": "place" | "remove" | "hand"}, {"tray": "collapse", "cats": k},
# {"expect": {"station": S, "text": T, "row": r, "not": T}} (row and not are
# optional), {"expect": {"standings": [line, ...]}}, {"snap": NAME, "station": S},
# {"names": [name, ...]} (the players' names by station, "" for none, sent on
# the serial line as `catnip names` sends them).

STEP_KINDS = ("press", "hold", "push", "release", "wait", "tray", "expect", "snap", "names")


class ScriptError(Exception):
    """A step that failed: its number (from 1) and why."""

    def __init__(self, step, why):
        super().__init__("step %d: %s" % (step, why))
        self.step = step
        self.why = why


def check_step(vt, step):
    """Refused unless `step` is a step this table can do."""
    if not isinstance(step, dict):
        raise Refused("a step is an object such as {\"station\": 1, \"press\": \"ok\"}")
    kinds = [k for k in STEP_KINDS if k in step]
    if len(kinds) != 1:
        raise Refused("a step does one thing: %s" % ", ".join(STEP_KINDS))
    kind = kinds[0]
    if kind in ("press", "hold", "push", "release", "snap"):
        check_station(vt, step.get("station"))
    if kind in ("press", "hold", "push", "release"):
        check_button(step[kind])
    for key in ("times", "ms", "wait"):
        if key in step and not (isinstance(step[key], int) and step[key] >= 0):
            raise Refused("%s is a whole number, not %r" % (key, step[key]))
    if kind == "tray" and step["tray"] not in ("place", "remove", "collapse", "hand"):
        raise Refused("tray moves are place, remove, collapse and hand")
    if kind == "tray" and step["tray"] == "collapse" and not isinstance(step.get("cats"), int):
        raise Refused("a collapse says how many \"cats\" fell")
    if kind == "expect":
        e = step["expect"]
        if not isinstance(e, dict) or not ("standings" in e or (
                "station" in e and ("text" in e or "not" in e))):
            raise Refused("expect {\"station\": S, \"text\": T} (or \"not\": T), or "
                          "{\"standings\": [...]}")
        if "station" in e:
            check_station(vt, e["station"])
    if kind == "names":
        try:
            wire.check_names(step["names"], vt.stations)
        except wire.WireError as e:
            raise Refused(str(e))


def do_step(vt, step):
    s = step.get("station")
    if "press" in step:
        for _ in range(step.get("times", 1)):
            vt.tap(s, step["press"])
            vt.run(SETTLE_MS)
    elif "hold" in step:
        vt.tap(s, step["hold"], step.get("ms", LONG_MS))
        vt.run(step.get("ms", LONG_MS) + SETTLE_MS)
    elif "push" in step:
        vt.press(s, step["push"])
        vt.run(SETTLE_MS)
    elif "release" in step:
        vt.release(s, step["release"])
        vt.run(SETTLE_MS)
    elif "wait" in step:
        vt.run(step["wait"])
    elif "tray" in step:
        check_tray(vt, step["tray"], step.get("cats"))
        vt.tray(step["tray"], step.get("cats"))
        vt.run(SETTLE_MS)
    elif "expect" in step:
        expect(vt, step["expect"])
    elif "names" in step:
        vt.serial_in.feed("names " + json.dumps({"names": step["names"]}))
        vt.run(SETTLE_MS)
    else:
        vt.send({"k": "snap", "name": step["snap"], "s": s, "h": vt.height(s),
                 "img": _b64(bytes(vt.image(s)))})


def expect(vt, what):
    if "standings" in what:
        got = vt.standings()
        if got != what["standings"]:
            raise Refused("standings are %s, expected %s" % (
                json.dumps(got), json.dumps(what["standings"])))
        return
    s = what["station"]
    rows = vt.lines(s)
    if "text" in what:
        where = [rows[what["row"]]] if "row" in what and what["row"] < len(rows) else rows
        if not any(what["text"] in row for row in where):
            raise Refused("station %d does not show %r%s; it shows %s" % (
                s, what["text"], " on row %d" % what["row"] if "row" in what else "",
                json.dumps(rows)))
    if "not" in what and any(what["not"] in row for row in rows):
        raise Refused("station %d shows %r; it shows %s" % (s, what["not"], json.dumps(rows)))


def check_steps(vt, steps):
    """Refused naming the first step that is not one this table can do."""
    for i, step in enumerate(steps):
        try:
            check_step(vt, step)
        except Refused as e:
            raise Refused("scenario step %d %s: %s" % (i + 1, json.dumps(step), e))


def play(vt, steps):
    """Play checked steps; ScriptError at the first that fails (an expect
    not met, a tray move the tower cannot make, or the app crashing)."""
    for i, step in enumerate(steps):
        try:
            do_step(vt, step)
        except Refused as e:
            raise ScriptError(i + 1, str(e))
        except Exception as e:
            raise ScriptError(i + 1, "the app crashed at %s:\n%s" % (json.dumps(step),
                                                                   crash_report(e)))


def run_script(vt, steps):
    """Play a scenario; the standings go out and the exit status is 0, or
    the failed step goes out and it is 1."""
    screens = lambda: [vt.lines(s) for s in range(1, vt.stations + 1)]  # noqa: E731
    try:
        play(vt, steps)
    except ScriptError as e:
        vt.send({"k": "fail", "step": e.step, "why": e.why, "screens": screens()})
        return 1
    vt.send({"k": "standings", "lines": vt.standings(), "screens": screens()})
    return 0


def load_script(path):
    """(seed, steps) of a scenario file: a list of steps, or {"seed": ...,
    "steps": [...]} (other keys are for people and tools)."""
    with open(path) as f:
        try:
            data = json.load(f)
        except ValueError:
            raise Refused("scenario %s is not JSON" % path)
    if isinstance(data, list):
        return None, data
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        raise Refused("scenario %s: write a list of steps, or an object with \"steps\"" % path)
    return data.get("seed"), data["steps"]


# ---- the command line -------------------------------------------------------------

USAGE = ("usage: virtual.py --board FILE --journal DIR [--clock live|fast] [--seed S] "
         "[--stations N] [--script FILE] [--line-fd FD] [--names JSON]")


def options(argv):
    opts = {"clock": "live", "seed": None, "stations": None, "script": None, "board": None,
            "journal": None, "line-fd": None, "names": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            raise Refused("%s; not %r" % (USAGE, argv[i]))
        opts[key] = argv[i + 1]
        i += 2
    if opts["board"] is None or opts["journal"] is None:
        raise Refused(USAGE)
    if opts["clock"] not in ("live", "fast"):
        raise Refused("--clock is live or fast, not %r" % opts["clock"])
    return opts


def _json(text, what):
    try:
        return json.loads(text)
    except ValueError:
        raise Refused("%s is JSON, not %r" % (what, text))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")


def start(opts):
    """The table for the options, and the scenario's steps (or None)."""
    try:
        with open(opts["board"]) as f:
            board = boards.parse(json.load(f))
    except OSError:
        raise Refused("cannot read board file %s" % opts["board"])
    except boards.BoardError as e:
        raise Refused("board %s: %s" % (opts["board"], "; ".join(e.problems)))
    except ValueError:
        raise Refused("board file %s is not JSON" % opts["board"])
    steps, seed = None, opts["seed"]
    if opts["script"] is not None:
        script_seed, steps = load_script(opts["script"])
        seed = seed if seed is not None else (script_seed or "1")
    try:
        os.chdir(opts["journal"])  # the Pico's flash: setup.json, the journal, the high scores
    except OSError as e:
        raise Refused("cannot use %s as the table's flash folder: %s" % (
            opts["journal"], _FOLDER_FAULTS.get(e.errno, "error %s" % e.errno)))
    stations = _int(opts["stations"], "--stations") if opts["stations"] else None
    if stations is not None and not 1 <= stations <= len(board.stations):
        raise Refused("board %s has %d stations, not %d" % (
            board.name, len(board.stations), stations))
    line_fd = _int(opts["line-fd"], "--line-fd") if opts["line-fd"] is not None else None
    vt = VirtualTable(board, opts["journal"], send, stations, seed, line_fd)
    if steps is not None:
        check_steps(vt, steps)
    if opts["names"] is not None:  # as a laptop would send them once the table is up
        step = {"names": _json(opts["names"], "--names")}
        try:
            check_step(vt, step)
        except Refused as e:
            raise Refused("--names: %s" % e)
        do_step(vt, step)
    return vt, steps


def main(argv):
    try:
        opts = options(argv)
        vt, steps = start(opts)
    except Refused as e:
        send({"k": "error", "why": str(e)})
        return 2
    except Exception as e:  # the app failed to start
        send({"k": "crash", "why": crash_report(e)})
        return 3
    send({"k": "ready", "stations": vt.stations, "board": vt.board.name,
          "tray": vt.tower is not None, "journal": vt.journal_kind})
    live = opts["clock"] == "live"
    if steps is not None and not live:
        return run_script(vt, steps)
    return serve(vt, live, steps)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
