# The Tray: readings in, tower events out. It checks what it is given and
# runs the per-reading path: the sensor check (sensor.py), the reading filter
# (readings.py, which also holds whether the load is still, moving or being
# zeroed) and the episode's features (episode.py). When the load comes to
# rest it asks the Caller (calls.py) what that means, which counts whole
# cats (counting.py) and keeps the turn (turn.py): this module decides when
# each is asked, the Caller what it means.
#
# The per-reading path uses small integers only (< 2**30), no floats, and
# allocates nothing unless it returns an event, so both interpreters decide
# identically and the Pico keeps up at 80 readings/s.
from array import array

from catnip.tray.calibration import Calibration
from catnip.tray.calls import Caller
from catnip.tray.common import FULL_SCALE, MIN_COUNT, TrayError, is_int
from catnip.tray.counting import Counter
from catnip.tray.episode import Episode
from catnip.tray.readings import LOST, SETTLED, TARING, Readings
from catnip.tray.sensor import Sensor
from catnip.tray.turn import Turn


class Tray:
    """Tower events from load-cell readings (docs/tray.md; the package's
    __init__ has the app's view). calibration: a Calibration; wedged: cats
    wedged into the base at setup (checked; no proposal carries a height
    any more, so nothing depends on it); in_play: every cat the game has
    (the count never goes above it)."""

    def __init__(self, calibration, wedged=0, in_play=100):
        if not isinstance(calibration, Calibration):
            raise TrayError("calibration must be a Calibration (Calibration.from_dict(saved)), "
                            "not %s" % type(calibration).__name__, "calibration")
        if not is_int(in_play) or not 1 <= in_play <= 1000:
            raise TrayError("in_play (every cat the game has) must be a whole number from 1 "
                            "to 1000, not %r" % (in_play,), "in_play")
        if not is_int(wedged) or not 0 <= wedged <= in_play:
            raise TrayError("wedged must be a whole number from 0 to in_play (%d), not %r"
                            % (in_play, wedged), "wedged")
        calibration.check()
        cal = self.cal = calibration
        self.rate = rate = cal.rate_hz
        self._cells = cells = cal.cells
        self._zero = array("i", cal.zero)
        self._sign = array("i", cal.sign)
        self._handling = handling = max(2, rate // 5)  # unsettled for 200 ms: a hand
        # The early window: 75 ms (6 readings at 80/s, 2 at 10/s); during an
        # attempt, when a cat is expected, 62 ms (5) at 80/s. Shorter, a
        # poke's crest a cat high passes for a placed cat.
        self._early = max(2, rate * 3 // 40)
        self._early_attempt = max(2, rate // 16)
        self.sensor = Sensor(cells, rate)
        self.readings = r = Readings(cells, rate, cal.noise, cal.per_cat)
        self.count = c = Counter(cal, r)
        self.episode = ep = Episode(rate, cal.per_cat)
        self.turn = turn = Turn(wedged, in_play, rate)
        self.calls = Caller(cal, r, ep, c, turn, handling)
        self._faulty = False  # a sensor fault: readings.state waits under it
        self.calls.new_episode()

    # ---- what the app reads ----------------------------------------------

    @property
    def cats(self):
        return self.count.cats

    @property
    def mass(self):
        return self.count.mass

    @property
    def conf(self):
        return self.count.conf

    @property
    def tower(self):
        return self.turn.tower

    @property
    def pending(self):
        return self.turn.pending

    @property
    def noise(self):
        return self.readings.noise

    @property
    def samples(self):
        """Readings due so far (the tray's clock)."""
        return self.readings.samples

    # ---- readings --------------------------------------------------------

    def feed(self, raw):
        if self._cells != 1:
            raise TrayError("this tray has four cells: use feed4(a, b, c, d)")
        if type(raw) is not int or raw < MIN_COUNT or raw > FULL_SCALE:
            raise _bad_reading(raw)
        bad = self.sensor.judge(0, raw)
        if bad or self._faulty:
            return self._fault(bad)
        return self._step((raw - self._zero[0]) * self._sign[0])

    def feed4(self, a, b, c, d):
        if self._cells != 4:
            raise TrayError("this tray has one cell: use feed(raw)")
        if not (_count(a) and _count(b) and _count(c) and _count(d)):
            raise _bad_reading([a, b, c, d])
        sensor = self.sensor
        bad = sensor.judge(0, a) | sensor.judge(1, b) | sensor.judge(2, c) | sensor.judge(3, d)
        if bad or self._faulty:
            return self._fault(bad)
        z, s, ring = self._zero, self._sign, self.readings.cell_ring
        k = self.readings.slot()
        ring[k] = ya = (a - z[0]) * s[0]
        ring[k + 1] = yb = (b - z[1]) * s[1]
        ring[k + 2] = yc = (c - z[2]) * s[2]
        ring[k + 3] = yd = (d - z[3]) * s[3]
        return self._step(ya + yb + yc + yd)

    def missed(self):
        """A reading was due and the HX711 gave none."""
        self.readings.samples += 1
        if self.sensor.missed() and not self._faulty:
            return self._enter_fault()
        return None

    def no_data(self):
        """The HX711 driver gave up waiting for the cells (it waits several
        conversion periods first): the "no data" fault now, or None while a
        fault is already reported. Good readings end it, as for missed()."""
        if self._faulty:
            return None
        self.sensor.why = "no data"
        return self._enter_fault()

    def tare(self):
        """The base is empty: the next still second is the zero, no cats (a
        fault reported meanwhile is over: the next bad reading says it again)."""
        self._faulty = False
        self.readings.start_tare()
        self.turn.pending.clear()

    # ---- the attempt -----------------------------------------------------

    def begin_attempt(self):
        """The active player's attempt starts: from now until its verdict,
        cats leaving the tray are a collapse, with or without an impact."""
        self.turn.begin_attempt(self.count.cats)

    def verdict(self):
        """What happened since begin_attempt(), as one proposal; None while
        the load is moving or a call is still due (cats still falling, a loss
        not yet called). Its "kind" is "placed" (ask: "added", one cat, or
        "cats" for several), "collapse" (ask: "fell", with "left": the cats
        that left the tray), "ask" (the tray cannot tell: "cats") or "none"
        (nothing changed yet); "n" is the change in cats on the tray, cats
        lifted off the tray while the table is tidied left out; "conf" is
        the confidence in exactly the proposed default, 0 for a question.
        confirm(id, value) answers it, ends the attempt and returns
        the record to journal. Asked again, it is made again: ask on each
        "settled" and "collapse" event until the player answers (a tower can
        fall after its cat was placed, and cats can still be falling)."""
        if not self.turn.attempt:
            raise TrayError("no attempt in progress: call begin_attempt() when the player's "
                            "attempt starts")
        c = self.count
        if self._faulty:
            return self.turn.verdict(c.cats, self.readings.ms(), blind=self.sensor.why)
        if not self.calls.decided():
            return None
        return self.turn.verdict(c.cats, self.readings.ms())

    def confirm(self, pid, value):
        """A person answered proposal `pid` with `value`. Returns the record
        to journal: {"ev": "confirmed", "id", "ask", "default", "value",
        "conf", "t"} (and "kind" for an attempt's verdict). A bad answer
        raises TrayError and changes nothing."""
        c = self.count
        record = self.turn.confirm(pid, value, self.readings.ms(), c.cats)
        if record["ask"] == "cats" and ("kind" not in record or value != c.cats):
            c.cats = value
            c.conf = 100
            self.turn.fit(value)
            self.calls.anchor(clean=True)
        return record

    def agree(self, tower):
        """The game accepted a move a person reported (confirming a verdict or
        overruling it): the tower as the rules have it. The rules are the
        authority; the tray's own idea of the tower, which tells fallen cats
        lying on the tray from the tower's, follows them, and the attempt
        ends."""
        if not is_int(tower) or not 0 <= tower <= self.turn.in_play:
            raise TrayError("tower must be a whole number from 0 to %d, not %r"
                            % (self.turn.in_play, tower), "tower")
        self.turn.agree(tower, self.count.cats)

    def calibration(self):
        """The calibration with the average cat as learned in play, for the
        app to save in place of the old one."""
        cal, c = self.cal, self.count
        return Calibration(cal.rate_hz, cal.zero, cal.sign, c.per_cat, cal.cat_sd, cal.noise,
                           min(c.pooled, 200), cal.gain)

    def lean(self):
        """Where the cats' weight sits (four cells; None with one): see lean.py."""
        return self.calls.lean()

    # ---- faults ----------------------------------------------------------

    def _fault(self, bad):
        if bad:
            return None if self._faulty else self._enter_fault()
        # Good readings again. The next verdict compares with the level
        # before the fault, so a tower that changed meanwhile shows up.
        r = self.readings
        if r.state != TARING:
            r.move()
        self._faulty = False
        r.restart()
        self.calls.new_episode()
        self.sensor.why = None
        return {"ev": "fault", "t": r.ms(), "sensor": "ok"}

    def _enter_fault(self):
        self._faulty = True
        return {"ev": "fault", "t": self.readings.ms(), "sensor": self.sensor.why}

    # ---- the per-reading path ------------------------------------------

    def _step(self, y):
        r = self.readings
        r.push(y)
        state = r.state
        if state == SETTLED:
            if not r.leaves(y):
                got = r.still(y)
                if not got:  # STILL: nothing to call
                    return None
                return self.calls.lost() if got == LOST else self.calls.quiet()
            self.calls.moved()
        elif state == TARING:
            got = r.tare(y)
            return None if got is None else self.calls.tared(got)
        return self._moving()

    def _moving(self):
        ep, r = self.episode, self.readings
        ep.track(r)
        w = r.flat(self._early_attempt if self.turn.attempt else self._early)
        if w:
            m = r.mean(w)
            calls = self.calls
            if w == r.long or calls.early(w, m):
                return calls.at(m)
        if ep.flat_odd:
            ep.leak()
        if ep.since >= self._handling and not ep.warned and not self.sensor.suspect():
            ep.warn()
            return self.calls.handling()
        return None


def _count(v):
    return type(v) is int and MIN_COUNT <= v <= FULL_SCALE


def _bad_reading(v):
    return TrayError("a reading is a whole 24-bit count from %d to %d, not %r"
                     % (MIN_COUNT, FULL_SCALE, v), "raw")
