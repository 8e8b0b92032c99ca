# The Tray: readings in, tower events out. It runs the stages in order:
# the sensor check (sensor.py), the reading filter (readings.py), the
# episode's features (episode.py), whole cats (counting.py) and the turn
# (turn.py); this module only decides when each is asked.
#
# The per-reading path uses small integers only (< 2**30), no floats, and
# allocates nothing unless it returns an event, so both interpreters decide
# identically and the Pico keeps up at 80 readings/s.
from array import array

from catnip.tray.calibration import Calibration
from catnip.tray.common import (FULL_SCALE, MIN_COUNT, TrayError, const, is_int, isqrt,
                                scaled)
from catnip.tray.counting import Counter
from catnip.tray.episode import Episode
from catnip.tray.lean import lean
from catnip.tray.readings import FRAC, LOST, QUIET, SHORT, Readings
from catnip.tray.sensor import Sensor
from catnip.tray.turn import Turn

_SETTLED = const(0)
_MOVING = const(1)
_FAULT = const(2)
_TARING = const(3)

_PLACED = const(0)
_REMOVED = const(1)
_COLLAPSE = const(2)


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
        self._handling = max(2, rate // 5)  # unsettled for 200 ms: a hand
        self._ask_after = rate * 3 // 2  # flat for 1.5 s but not whole cats
        # The early window: 75 ms (6 readings at 80/s, 2 at 10/s); during an
        # attempt, when a cat is expected, 62 ms (5) at 80/s. Shorter, a
        # poke's crest a cat high passes for a placed cat.
        self._early = max(2, rate * 3 // 40)
        self._early_attempt = max(2, rate // 16)
        self.samples = 0
        self.sensor = Sensor(cells, rate)
        self.readings = Readings(cells, rate, cal.noise, cal.per_cat)
        self.count = Counter(cal, self.readings)
        self.episode = Episode(rate, cal.per_cat)
        self.turn = Turn(wedged, in_play, rate)
        self._state = self._resume = _MOVING
        self._absolute = True  # the first verdict counts from the calibration zero
        self._report = False  # this turn has something to report when quiet
        self._start_episode()

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

    # ---- readings --------------------------------------------------------

    def feed(self, raw):
        if self._cells != 1:
            raise TrayError("this tray has four cells: use feed4(a, b, c, d)")
        if type(raw) is not int or raw < MIN_COUNT or raw > FULL_SCALE:
            raise _bad_reading(raw)
        bad = self.sensor.judge(0, raw)
        if bad or self._state == _FAULT:
            return self._fault(bad)
        return self._step((raw - self._zero[0]) * self._sign[0])

    def feed4(self, a, b, c, d):
        if self._cells != 4:
            raise TrayError("this tray has one cell: use feed(raw)")
        if not (_count(a) and _count(b) and _count(c) and _count(d)):
            raise _bad_reading([a, b, c, d])
        sensor = self.sensor
        bad = sensor.judge(0, a) | sensor.judge(1, b) | sensor.judge(2, c) | sensor.judge(3, d)
        if bad or self._state == _FAULT:
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
        self.samples += 1
        if self.sensor.missed() and self._state != _FAULT:
            return self._enter_fault()
        return None

    def no_data(self):
        """The HX711 driver gave up waiting for the cells (it waits several
        conversion periods first): the "no data" fault now, or None while a
        fault is already reported. Good readings end it, as for missed()."""
        if self._state == _FAULT:
            return None
        self.sensor.why = "no data"
        return self._enter_fault()

    def tare(self):
        """The base is empty: the next still second is the zero, no cats."""
        self._state = _TARING
        self.readings.restart()
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
        if not self._decided():
            return None
        c = self.count
        if self._state == _FAULT:
            return self.turn.verdict(c.cats, self._ms(), blind=self.sensor.why)
        return self.turn.verdict(c.cats, self._ms())

    def _decided(self):
        """Is there nothing left to call: the load still, no loss waiting to
        be called? (Cats still falling after a collapse make another
        collapse event, whose verdict replaces this one.)"""
        state, r, c = self._state, self.readings, self.count
        if state == _MOVING or state == _TARING:
            return False
        if state == _SETTLED and r.quiet <= r.quiet_after:
            c.whole(c.mass + (r.level >> FRAC) - r.verdict_level, c.anchor)
            return c.anchor_cats + c.total == c.cats
        return True

    def confirm(self, pid, value):
        """A person answered proposal `pid` with `value`. Returns the record
        to journal: {"ev": "confirmed", "id", "ask", "default", "value",
        "conf", "t"} (and "kind" for an attempt's verdict). A bad answer
        raises TrayError and changes nothing."""
        c = self.count
        record = self.turn.confirm(pid, value, self._ms())
        if record["ask"] == "cats" and ("kind" not in record or value != c.cats):
            c.cats = value
            c.conf = 100
            self.turn.fit(value)
            self._anchor_here(clean=True)
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
        if self._cells != 4:
            return None
        return lean(self.readings.cell_mass, self.cal.gain, self.count.per_cat)

    # ---- faults ----------------------------------------------------------

    def _fault(self, bad):
        if bad:
            return None if self._state == _FAULT else self._enter_fault()
        # Good readings again. The next verdict compares with the level
        # before the fault, so a tower that changed meanwhile shows up.
        self._state = _TARING if self._resume == _TARING else _MOVING
        self.readings.restart()
        self._start_episode()
        self.sensor.why = None
        return {"ev": "fault", "t": self._ms(), "sensor": "ok"}

    def _enter_fault(self):
        self._resume = self._state
        self._state = _FAULT
        return {"ev": "fault", "t": self._ms(), "sensor": self.sensor.why}

    # ---- the per-reading path ------------------------------------------

    def _step(self, y):
        self.samples += 1
        r = self.readings
        r.push(y)
        state = self._state
        if state == _SETTLED:
            if not r.leaves(y):
                got = r.still(y)
                if got == LOST:
                    return self._lost()
                if got == QUIET:
                    return self._quiet_now()
                return None
            self.count.mass += r.refine()
            self._state = _MOVING
            self._start_episode()
        elif state == _TARING:
            return self._taring(y)
        return self._moving()

    def _start_episode(self):
        r = self.readings
        self.episode.start(r.level >> FRAC, self.count.per_cat, r.noise)

    def _moving(self):
        ep, r = self.episode, self.readings
        ep.track(r)
        w = r.flat(self._early_attempt if self.turn.attempt else self._early)
        if w:
            m = r.mean(w)
            if w == r.long or self._early_call(w, m):
                return self._verdict(m)
        if ep.flat_odd:
            ep.flat_odd -= 1  # leaky: a stray unflat window does not start over
        if ep.since >= self._handling and not ep.warned and not self.sensor.suspect():
            ep.warned = self._report = True
            return {"ev": "handling", "t": self._ms()}
        return None

    def _early_call(self, w, m):
        """May the early window (w readings) end the episode at mean m? Only for
        cats placed, a clean whole number of them (as close as a clean quiet
        state), with no impact, on a sensor quiet enough (noise within 3% of
        a cat) that the remainder tells a hand's fraction from a whole cat.
        Anything else waits for the long window."""
        c, ep = self.count, self.episode
        pc = c.per_cat
        if self._absolute or self.readings.noise * 32 > pc:
            return False
        if w < SHORT and ep.since <= self._handling:
            # Two conversions at 10/s: a poke whose crest sits centred
            # between them reads the same twice. A poke is over by now.
            return False
        change = c.mass + m - ep.before - c.anchor
        off = (change + (pc >> 1)) % pc - (pc >> 1)  # counts from the nearest whole cats
        if (off if off >= 0 else -off) * 1000 > 150 * pc:
            return False  # the common case while a hand moves: cheap to rule out
        if not c.clean_step(change):
            return False
        n = c.anchor_cats + c.total - c.cats
        return (n > 0 and c.anchor_cats + c.total <= self.turn.in_play
                and not ep.impact(m, pc, self.turn.attempt))

    def _taring(self, y):
        got = self.readings.tare(y)
        if got is None:
            return None  # not full, or not still: measure the next second
        means, var = got
        cal = self.cal.noise
        r, c, turn = self.readings, self.count, self.turn
        r.set_noise(min(max(isqrt(var), (cal + 1) >> 1), 4 * cal))
        self._absolute = False
        c.mass = c.cats = 0
        c.conf = 100
        turn.tower = 0
        self._state = _SETTLED
        r.zero_here(means)
        self._anchor_here(clean=True)
        return self._event("settled", 0, None)

    # ---- verdicts --------------------------------------------------------

    def _verdict(self, m):
        c, ep, r = self.count, self.episode, self.readings
        # Mass above the zero: the first verdict measures it from the
        # calibration zero, later ones add the step since the episode began.
        mass = m if self._absolute else c.mass + m - ep.before
        plausible = c.whole(mass, c.anchor)
        impact = not self._absolute and ep.impact(m, c.per_cat, self.turn.attempt)
        if not plausible:
            # Still but not whole cats: a hand resting, or a hand that rested
            # so long the last turn looked over, or something else on the
            # tray. Wait; if it stays so, look back a turn, then ask. After
            # an impact there is nothing more to wait for: something fell,
            # and the collapse is called with no confidence in the count.
            ep.flat_odd += 2
            if ep.flat_odd < 2 * r.quiet_after:
                return None
            if not self._absolute and c.rewind(mass):
                plausible = True
            elif ep.flat_odd < 2 * self._ask_after and not impact:
                return None
        total = c.total
        self._state = _SETTLED
        r.settle_at(m)
        r.remember_cells(self._absolute)
        c.mass = mass
        conf = c.confidence() if plausible else 0
        if not self._possible(c.anchor_cats + total):
            self._absolute = False
            return self._ask_cats(total)
        if self._absolute:
            self._absolute = False
            c.cats = self.turn.tower = total
            c.conf = conf
            self._anchor_here()
            self._report = True
            return None
        n = c.anchor_cats + total - c.cats
        if impact:
            # A call that waited for an odd load to stay still comes after
            # the cats stopped falling: the follow-on window starts there.
            return self._count(n, conf, _COLLAPSE, ep.flat_odd >> 1, True)
        if not plausible:
            return self._ask_cats(total)
        if n > 0:
            return self._count(n, conf, _PLACED)
        if n < 0 and self.samples - self.turn.fell_at <= self.turn.follow:
            # Cats lost just after the tower came down were still falling.
            return self._count(n, conf, _COLLAPSE)
        # Cats gone without an impact: a hand lifting them, perhaps to set
        # one back at once. Called when the tray is quiet.
        return None

    def _possible(self, cats):
        """A count the game allows: never below none, never above in play."""
        return 0 <= cats <= self.turn.in_play

    def _loss(self, n):
        """n (< 0) cats gone without an impact are a removal between attempts
        (tidying), and during one too when they could all be fallen cats
        lying on the tray (lifted off while the player tries again); any
        more, during an attempt, are a collapse (the tower lost them)."""
        turn = self.turn
        if turn.attempt and -n > turn.loose(self.count.cats):
            return _COLLAPSE
        return _REMOVED

    def _quiet_now(self):
        """Half a second still: refine the level, call what is still
        uncalled (removals), and close the turn with one event. A slow,
        steady slide within the noise band (a hand letting go very gently)
        is not still: the episode goes on."""
        c, r = self.count, self.readings
        trend = r.trending()
        c.mass += r.refine()
        if trend:
            self._state = _MOVING
            self._start_episode()
            return None
        c.whole(c.mass, c.anchor)
        total = c.total
        n = c.anchor_cats + total - c.cats
        report, self._report = self._report, False
        if not -450 <= c.r <= 450 or not self._possible(c.anchor_cats + total):
            return self._ask_cats(total)
        conf = c.confidence()
        if n > 0:
            return self._count(n, conf, _PLACED)
        if n < 0:
            return self._count(n, conf, self._loss(n))
        c.conf = c.anchor_conf * conf // 100
        self._anchor_here()
        return self._event("settled", 0, None) if report else None

    def _lost(self):
        """Cats went without an impact and were not set back: call it."""
        c, r = self.count, self.readings
        mass = c.mass + (r.level >> FRAC) - r.verdict_level
        if not c.whole(mass, c.anchor) or not self._possible(c.anchor_cats + c.total):
            return None
        n = c.anchor_cats + c.total - c.cats
        return self._count(n, c.confidence(), self._loss(n)) if n < 0 else None

    def _count(self, n, conf, kind, still=0, struck=False):
        c, turn, t = self.count, self.turn, self._ms()
        c.cats += n
        c.conf = c.anchor_conf * conf // 100
        left = ask = None
        if kind == _PLACED:
            turn.placed(n, c.cats, conf)
            ev = "placed"
        elif kind == _REMOVED:
            turn.removed(n, c.cats)
            ev = "removed"
        else:
            if self.samples - turn.fell_at > turn.follow:
                turn.fell_at = self.samples - still  # a new collapse begins
            ask = turn.collapse(c.anchor_cats, c.cats, conf, struck, t)
            left = ask["left"]
            ev = "collapse"
        out = self._event(ev, n, ask, left)
        if self.readings.quiet > self.readings.quiet_after:
            self._anchor_here()
        else:
            self._report = True
        return out

    def _ask_cats(self, total):
        """The load is no whole number of cats from the last quiet state, or
        one the game does not allow: take the nearest possible count as a
        guess with no confidence, and ask."""
        c, turn = self.count, self.turn
        said = c.anchor_cats + total
        guess = 0 if said < 0 else turn.in_play if said > turn.in_play else said
        if said == guess:
            why = ("the load changed by %s cats, not a whole number: how many cats are on "
                   "the tray?" % c.in_cats(c.mass - c.anchor))
        else:
            why = ("the load says %d cats, outside the 0 to %d in play (a zero that moved, "
                   "or something else on the tray): how many cats are on the tray?"
                   % (said, turn.in_play))
        n = guess - c.cats
        c.cats = guess
        c.conf = 0
        self._anchor_here()
        return self._event("settled", n, turn.ask_cats(guess, why, self._ms()))

    def _anchor_here(self, clean=False):
        self.count.anchor_here(clean)
        self.turn.quiet_state()

    # ---- events ----------------------------------------------------------

    def _event(self, kind, n, ask, left=None):
        c = self.count
        ev = {"ev": kind, "t": self._ms(), "n": n, "cats": c.cats, "mass": c.hundredths(),
              "conf": c.conf}
        if left is not None:
            ev["left"] = left
        if self._cells == 4:
            ev["lean"] = self.lean()
        if ask is not None:
            ev["ask"] = ask
        return ev

    def _ms(self):
        return scaled(self.samples, 1000, self.rate)


def _count(v):
    return type(v) is int and MIN_COUNT <= v <= FULL_SCALE


def _bad_reading(v):
    return TrayError("a reading is a whole 24-bit count from %d to %d, not %r"
                     % (MIN_COUNT, FULL_SCALE, v), "raw")
