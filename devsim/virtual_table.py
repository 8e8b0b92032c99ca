# The virtual table itself: the unmodified app (catnip.table.app) on the simulated
# table (devsim.table) built from a board file, with a tray of cats on the load
# cells, stepped in virtual time; what it shows goes to send(message). devsim/virtual.py
# runs it for `catnip sim`.
import binascii
import hashlib
import json
import os
import time

from catnip.table.app import App
from catnip.parts.hardware import Hardware
from devsim.table import AppClock, Table
from devsim.effects import Ramp, impulse_ring
from devsim.sessions import Session
from devsim.virtual_io import SerialIn, SerialOut, cells, shown

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
    """The cats on the tray, as load-cell forces (devsim.sessions.Session),
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




class Refused(Exception):
    """A command or scenario step the table cannot carry out, and why; it
    changed nothing."""


def check_station(vt, s):
    if not isinstance(s, int) or not 1 <= s <= vt.stations:
        raise Refused("station %r: this table has stations 1 to %d" % (s, vt.stations))
    return s



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

            line = Line(self.serial_in, SerialOut(self._heard), None)
        else:  # a pseudo-terminal, which a laptop tool opens as it opens a Pico
            from devsim.link_runner import pty_line

            line = pty_line(line_fd)
        self.views = {}  # phone seat -> its last view's fields (a script's laptop)
        self.viewed = 0  # views that came
        self.claimed = set()
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

    def _heard(self, message):
        # The line, as this process's laptop hears it: a phone seat's view
        # is kept for the script's checks, and goes no further.
        m = message.get("m", {})
        if m.get("t") == "view":
            self.views[m["seat"]] = m
            self.viewed += 1
            return
        self.send(message)

    def phone_press(self, seat, button, hold=False):
        """Seat `seat` (from 0) pressed on its phone: claimed first, as the
        laptop does; refused on the line when it is not a phone seat."""
        if seat not in self.claimed:
            self.serial_in.feed('claim {"seat": %d}' % seat)
            self.claimed.add(seat)
            self.run(SETTLE_MS)
        self.serial_in.feed('press {"seat": %d, "button": "%s", "hold": %s}'
                            % (seat, button, "true" if hold else "false"))

    def phone_rows(self, seat):
        """The rows of seat `seat`'s last view (none before it is claimed)."""
        return self.views.get(seat, {}).get("rows", [])

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
