# The Stack O' Cats tray: HX711 load-cell readings in, tower events out.
#
# PURE: runs unchanged on the Pico (MicroPython) and the laptop (CPython).
# The per-reading path uses small integers only (< 2**30), no floats, and
# allocates nothing unless it returns an event, so both interpreters decide
# identically and the Pico keeps up at 80 readings/s.
#
# How it decides (docs/tray.md has the long version). While the tray is still,
# a slow filter follows the level: drift and creep move the zero, never the
# count. A reading outside the noise band starts an episode; it ends when a
# short window (3 readings) and a longer one (~100 ms) are flat and the load
# is a whole number of cats away from the last quiet state, or sooner (an
# early window) when a quiet sensor shows cats placed, a clean whole number
# of them: a hand's press seldom stops there. Placements and
# collapses are called then; removals half a second after the load settled
# (a cat lifted to be reseated is back by then); once the tray has been quiet
# for half a second the level is refined and a "settled" event closes the
# turn. Sharp bends, rebounds, dips and overshoots in the episode tell cats
# hitting the tray from a hand. The tray proposes; a person confirms: a
# placement proposes its height, a collapse how many fell, a change that is
# not whole cats asks.
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


FULL_SCALE = const(0x7FFFFF)
MIN_COUNT = const(-0x800000)
ALL_ONES = const(-1)  # 0xFFFFFF: what a DOUT line stuck high reads as

_RING = const(16)  # recent readings (a power of two)
_MASK = const(15)
_SHORT = const(3)  # readings in the short flatness window
# Identical readings in a row that mean a stuck sensor. An HX711's noise is
# tens of counts, so even two equal readings are unusual; eight are not chance.
_STUCK_RUN = const(8)
_RAIL_RUN = const(3)  # readings at full scale in a row: saturated
_FRAC = const(3)  # levels are kept x8, an eighth of a count
_POOL_MOST = const(400)  # cats pooled into the average at most (keeps the sum < 2**30)

_SETTLED = const(0)
_MOVING = const(1)
_FAULT = const(2)
_TARING = const(3)

CALIBRATION_VERSION = 1

# 100 / (1 + exp(-x)) at x = 0, 1/4, 1/2, ...: confidence in the nearest whole
# number of cats from its log-likelihood ratio against the next one.
_LOGISTIC = (50, 56, 62, 68, 73, 78, 82, 85, 88, 90, 92, 94, 95, 96, 97, 98,
             98, 99, 99, 99, 99, 99)

# What an impact looks like, in thousandths of a cat (docs/tray.md shows the
# measurements behind these). A bend (second difference over ~25 ms) beyond
# _SHARP is sharper than any hand. At 10 readings/s the converter's averaging
# spreads a thud to the size of a finger's poke, so a milder bend (_BEND)
# counts only with the shape of a fall: cats leaving the tray after a landing
# (the load rose by _LANDING from its lowest point, once it had fallen half a
# cat: a hand gripping cats to lift them presses before the drop, not after),
# or cats staying on the tray after the load dipped below where it ends
# (_FALL) and then overshot it (_BOUNCE). Only a drop with an impact is a
# collapse; a drop without one is what a hand lifting cats off looks like.
_SHARP = {10: 5000, 80: 6000}
_BEND = const(1000)
_LANDING = const(1000)
_FALL = const(500)
_BOUNCE = const(500)


class TrayError(ValueError):
    """Bad calibration data or a bad answer; the message says what to do."""


def _scaled(x, num, den):
    """x * num // den without overflowing 31 bits for large x."""
    return x // den * num + x % den * num // den


def _isqrt(n):
    if n <= 0:
        return 0
    r = n
    y = (r + 1) >> 1
    while y < r:
        r = y
        y = (r + n // r) >> 1
    return r


def _whole(r, var):
    """Is a remainder of r thousandths of a cat what whole cats leave, given
    the variance expected of it? Within 0.2 always, within 0.4 if 3 sigma."""
    return -400 <= r <= 400 and (-200 <= r <= 200 or r * r <= 9 * var)


def _clean(r, var):
    """Is a remainder of r thousandths of a cat what whole cats leave with
    no hand holding part of one? Within 2 sigma of the expected spread, and
    never beyond 0.15."""
    return -150 <= r <= 150 and r * r <= 4 * var


def _still(buf, n, cells):
    """Per-cell means and the variance of the total over n readings stored
    cell by cell in buf; or a string saying why they are not a still load.
    Runs once per capture, never per reading."""
    means = [sum(buf[k * cells + c] for k in range(n)) // n for c in range(cells)]
    totals = [sum(buf[k * cells + c] - means[c] for c in range(cells)) for k in range(n)]
    var = sum(t * t for t in totals) // (n - 1)
    if var == 0:
        return "the readings do not change at all: the sensor looks stuck; check the HX711's wiring"
    # The two halves of a still load agree within five standard errors.
    half = n // 2
    step = (sum(totals[half:]) - sum(totals[:half])) // half
    if step * step > 50 * var // half + 4:
        return "the load moved while measuring: keep hands off the tray"
    return means, var


# ---- calibration -------------------------------------------------------------


class Calibration:
    """What the tray learned from a maker's calibration; saved as a JSON-ready
    dict (to_dict/from_dict) and reused.

    rate_hz: readings/s it was made at; zero: each cell's reading with the empty
    base (counts); sign: +1 or -1 per cell (the way its reading moves under
    load); per_cat: counts one average cat adds; cat_sd: how much cats differ
    (counts, standard deviation); noise: reading noise of the total (counts,
    standard deviation); cats: how many cats per_cat was measured with.
    """

    FIELDS = ("rate_hz", "zero", "sign", "per_cat", "cat_sd", "noise", "cats")

    def __init__(self, rate_hz, zero, sign, per_cat, cat_sd, noise, cats):
        self.rate_hz = rate_hz
        self.zero = zero
        self.sign = sign
        self.per_cat = per_cat
        self.cat_sd = cat_sd
        self.noise = noise
        self.cats = cats
        self.check()
        self.zero = list(zero)
        self.sign = list(sign)

    @property
    def cells(self):
        return len(self.zero)

    def check(self):
        if self.rate_hz not in (10, 80):
            raise TrayError("rate_hz must be 10 or 80 (the HX711's two rates), not %r"
                            % (self.rate_hz,))
        if (not isinstance(self.zero, (list, tuple)) or not isinstance(self.sign, (list, tuple))
                or len(self.zero) not in (1, 4) or len(self.sign) != len(self.zero)):
            raise TrayError("zero and sign are lists with one entry per cell (1 or 4 cells)")
        for z in self.zero:
            if not isinstance(z, int) or not MIN_COUNT <= z <= FULL_SCALE:
                raise TrayError("each zero is a 24-bit reading, not %r" % (z,))
        for s in self.sign:
            if s not in (1, -1):
                raise TrayError("each sign is 1 or -1, not %r" % (s,))
        if not isinstance(self.per_cat, int) or not 20 <= self.per_cat < 1 << 19:
            raise TrayError(
                "per_cat must be 20..524287 counts, not %r: below 20 a cat is lost in the "
                "noise (use a smaller load cell), above it calibrate again" % (self.per_cat,))
        if not isinstance(self.cat_sd, int) or not 0 <= self.cat_sd < self.per_cat // 2:
            raise TrayError("cat_sd must be 0..per_cat/2 counts, not %r" % (self.cat_sd,))
        if not isinstance(self.noise, int) or not 1 <= self.noise < self.per_cat // 2:
            raise TrayError(
                "noise must be 1..per_cat/2 counts, not %r: noisier than half a cat, the "
                "tray cannot count; check the wiring and shield the cable" % (self.noise,))
        if not isinstance(self.cats, int) or not 1 <= self.cats <= 200:
            raise TrayError("cats (how many cats calibrated per_cat) must be 1..200, not %r"
                            % (self.cats,))

    def to_dict(self):
        d = {"version": CALIBRATION_VERSION}
        for k in self.FIELDS:
            v = getattr(self, k)
            d[k] = list(v) if isinstance(v, list) else v
        return d

    @classmethod
    def from_dict(cls, d):
        if not isinstance(d, dict):
            raise TrayError("a saved calibration is a dict, not %s" % type(d).__name__)
        if d.get("version") != CALIBRATION_VERSION:
            raise TrayError("calibration version %r is not %d: calibrate the tray again"
                            % (d.get("version"), CALIBRATION_VERSION))
        missing = [k for k in cls.FIELDS if k not in d]
        if missing:
            raise TrayError("the calibration lacks %s: calibrate the tray again"
                            % ", ".join(missing))
        return cls(*[d[k] for k in cls.FIELDS])


class Calibrator:
    """The maker's procedure: put the empty base on the tray, hands off, press
    OK (capture(0)); then add cats one at a time, pressing OK after each
    (capture(k) with k cats on the tray). Each capture averages one second of
    readings (two at 10 readings/s); result() gives the Calibration.

    feed()/feed4() take every reading; they return None, or a dict when a
    capture ends: {"cats": k, "ok": True} or {"cats": k, "ok": False, "why": ...}
    (then press OK again).
    """

    def __init__(self, rate_hz, cells=1):
        if rate_hz not in (10, 80):
            raise TrayError("rate_hz must be 10 or 80, not %r" % (rate_hz,))
        if cells not in (1, 4):
            raise TrayError("a tray has 1 or 4 cells, not %r" % (cells,))
        self.rate_hz = rate_hz
        self.cells = cells
        self._n = _capture_length(rate_hz)
        self._buf = array("i", [0] * (self._n * cells))
        self._fill = -1  # -1: not capturing
        self._cats = 0
        self.levels = {}  # cats -> per-cell mean readings
        self._var = []  # variance of the total, per capture

    def capture(self, cats):
        """Start measuring: the tray holds `cats` cats and nobody touches it."""
        if not isinstance(cats, int) or cats < 0:
            raise TrayError("cats on the tray is a whole number from 0, not %r" % (cats,))
        if cats and 0 not in self.levels:
            raise TrayError("capture the empty base (0 cats) first")
        self._cats = cats
        self._fill = 0

    def feed(self, raw):
        if self.cells != 1:
            raise TrayError("this tray has four cells: use feed4(a, b, c, d)")
        return self._store(raw, 0, 0, 0)

    def feed4(self, a, b, c, d):
        if self.cells != 4:
            raise TrayError("this tray has one cell: use feed(raw)")
        return self._store(a, b, c, d)

    def _store(self, a, b, c, d):
        if self._fill < 0:
            return None
        buf, k = self._buf, self._fill * self.cells
        buf[k] = a
        if self.cells == 4:
            buf[k + 1] = b
            buf[k + 2] = c
            buf[k + 3] = d
        self._fill += 1
        if self._fill < self._n:
            return None
        self._fill = -1
        for v in self._buf:
            if v >= FULL_SCALE or v <= MIN_COUNT:
                return {"cats": self._cats, "ok": False,
                        "why": "the reading is at full scale: check the wiring and that "
                               "nothing presses on the tray, then press OK again"}
        got = _still(self._buf, self._n, self.cells)
        if isinstance(got, str):
            return {"cats": self._cats, "ok": False, "why": got + ", then press OK again"}
        means, var = got
        if self._var and var > 16 * min(self._var):
            return {"cats": self._cats, "ok": False,
                    "why": "much noisier than before: something touched the tray; press OK again"}
        self.levels[self._cats] = means
        self._var.append(var)
        return {"cats": self._cats, "ok": True}

    def result(self):
        if 0 not in self.levels:
            raise TrayError("no capture of the empty base yet: capture(0) first")
        counts = sorted(self.levels)
        if len(counts) < 2:
            raise TrayError("add at least one cat and capture it")
        zero = self.levels[0]
        top = counts[-1]
        sign = [1 if self.levels[top][c] >= zero[c] else -1 for c in range(self.cells)]

        def load(k):
            return sum((self.levels[k][c] - zero[c]) * sign[c] for c in range(self.cells))

        per_cat = load(top) // top
        # How much single cats differ, from captures one cat apart.
        singles = [load(b) - load(a) for a, b in zip(counts, counts[1:]) if b == a + 1]
        noise_var = sum(self._var) // len(self._var)
        if len(singles) >= 2:
            mean = sum(singles) // len(singles)
            spread = sum((s - mean) * (s - mean) for s in singles) // (len(singles) - 1)
            cat_sd = _isqrt(max(0, spread - 2 * noise_var // self._n))
        else:
            cat_sd = per_cat // 20  # not measured: assume cats differ by 5%
        # A handful of cats says little about their spread: never assume under 2%.
        cat_sd = max(cat_sd, per_cat // 50)
        return Calibration(self.rate_hz, zero, sign, per_cat, cat_sd,
                           max(1, _isqrt(noise_var)), top)


def _capture_length(rate_hz):
    """Readings in a still capture: 1 s at 80/s, 2 s at 10/s."""
    return 20 if rate_hz == 10 else rate_hz


# ---- the estimator -----------------------------------------------------------


class Tray:
    """Tower events from load-cell readings. Feed every reading:

        event = tray.feed(raw)            # one cell
        event = tray.feed4(a, b, c, d)    # four corner cells: left-front,
                                          # right-front, right-back, left-back
        event = tray.missed()             # a reading was due and none came
        event = tray.no_data()            # the driver reports the cells silent

    Each returns None or one event dict (docs/tray.md has the details):

        {"ev": "placed"|"collapse"|"removed"|"settled", "t": ms, "n": change,
         "cats": on the tray, "mass": hundredths of a cat, "conf": percent,
         "left": cats gone from the tray (collapse), "lean": [r, x, y] (four
         cells), "ask": a proposal (when a person should answer)}
        {"ev": "handling", "t": ms}
        {"ev": "fault", "t": ms, "sensor": "no data"|"stuck"|"saturated"|"ok"}

    A proposal is {"id", "ask": "height"|"fell"|"cats", "default", "min",
    "max", "conf", "why", "t"}; a default of None means the scale cannot tell
    and the player must choose. confirm(id, value) takes the answer.

    Call tare() with the empty base on the tray (it measures a still second);
    until then the count is taken from the calibration's zero.
    wedged: cats wedged into the base at setup; placing them proposes no
    height, and the first cat on top of them is at height 1.
    """

    def __init__(self, calibration, wedged=0):
        cal = calibration
        cal.check()
        self.cal = cal
        self.rate = rate = cal.rate_hz
        self.wedged = wedged
        # ~100 ms that must also be flat; three quarters of it (the early
        # window) are enough for cats placed, a clean whole number of them.
        self._long = max(_SHORT, rate // 10)
        self._span = max(1, rate // 40)  # ~25 ms: the bend of an impact
        self._handling = max(2, rate // 5)  # unsettled for 200 ms: a hand
        self._ask_after = rate * 3 // 2  # flat for 1.5 s but not whole cats
        self._no_data = max(3, rate * 3 // 10)  # 300 ms without readings
        self._quiet_after = rate // 2  # still for 0.5 s: the turn is over
        # A loss without an impact is called half a second after the load
        # settled (the long window, then this): a cat lifted to be reseated
        # would be back by then.
        self._lost_after = rate // 2 - self._long
        self._follow = rate * 3 // 4  # losses this soon after an impact: still falling
        self._drift = 5 if rate == 10 else 8  # zero follows with a ~3 s time constant
        # The average cat: the calibration's, then pooled with every cat
        # placed cleanly during play (_learn).
        self._per_cat = cal.per_cat
        self._pool = cal.per_cat * cal.cats
        self._pooled = cal.cats
        self._sharp = _scaled(cal.per_cat, _SHARP[rate], 1000)

        cells = self._cells = cal.cells
        self._zero = array("i", cal.zero)
        self._sign = array("i", cal.sign)
        self._ring = array("i", [0] * _RING)
        self._cell_ring = array("i", [0] * (_RING * cells))
        self._cell_level = array("i", [0] * cells)  # x8, like _level
        self._cell_mass = array("i", [0] * cells)
        self._cell_sum = array("i", [0] * cells)
        self._runs = array("i", [0] * cells)
        self._prev = array("i", [0x7FFFFFFF] * cells)
        self._rails = array("i", [0] * cells)
        self._tare_n = _capture_length(rate)
        self._tare_buf = array("i", [0] * (self._tare_n * cells))
        self._tare_fill = 0
        self._i = 0
        self._seen = 0  # readings in the ring since a start or a fault
        self.samples = 0
        self._missing = 0
        self._why = None
        self._resume = _MOVING

        self._total = self._r = self._var = 0  # the last judgement (see _whole)
        self._set_noise(cal.noise)
        self._state = _MOVING
        self._absolute = True  # the first verdict counts from the calibration zero
        self._level = 0  # still level x8, relative to the calibration zero
        self._verdict_level = 0
        self._quiet = 0
        self._sum = self._half = 0
        self._report = False  # this turn has something to report when quiet
        self._fell_at = -(1 << 29)  # reading of the collapse's first call
        self._fell_ask = 0  # its question, and the cats it took off the tower
        self._fell_left = 0
        self._start_episode()

        self.cats = 0
        self.mass = 0  # counts above the zero
        self.conf = 0
        # The last quiet state: counts are judged against it. A hand can hold
        # part of a cat still for half a second before letting go, so the
        # last clean quiet state (whole cats from the clean one before it)
        # is kept too, for a change that only it explains.
        self._anchor = self._clean = 0
        self._anchor_cats = self._clean_cats = 0
        self._anchor_conf = self._clean_conf = 0
        self._unclean = 0  # quiet states since the last clean one
        self.tower = 0  # cats on the tower, as far as the tray knows
        self.top = 0  # height of the last cat placed
        self._asked = 0
        self._accepted = 0
        self._next_id = 1
        self.pending = {}

    # ---- readings --------------------------------------------------------

    def feed(self, raw):
        if self._cells != 1:
            raise TrayError("this tray has four cells: use feed4(a, b, c, d)")
        bad = self._judge(0, raw)
        if bad or self._state == _FAULT:
            return self._fault(bad)
        return self._step((raw - self._zero[0]) * self._sign[0])

    def feed4(self, a, b, c, d):
        if self._cells != 4:
            raise TrayError("this tray has one cell: use feed(raw)")
        bad = self._judge(0, a) | self._judge(1, b) | self._judge(2, c) | self._judge(3, d)
        if bad or self._state == _FAULT:
            return self._fault(bad)
        z, s, ring = self._zero, self._sign, self._cell_ring
        k = ((self._i + 1) & _MASK) << 2
        ring[k] = ya = (a - z[0]) * s[0]
        ring[k + 1] = yb = (b - z[1]) * s[1]
        ring[k + 2] = yc = (c - z[2]) * s[2]
        ring[k + 3] = yd = (d - z[3]) * s[3]
        return self._step(ya + yb + yc + yd)

    def missed(self):
        """A reading was due and the HX711 gave none."""
        self.samples += 1
        self._missing += 1
        if self._missing >= self._no_data and self._state != _FAULT:
            self._why = "no data"
            return self._enter_fault()
        return None

    def no_data(self):
        """The HX711 driver gave up waiting for the cells (it waits several
        conversion periods first): the "no data" fault now, or None while a
        fault is already reported. Good readings end it, as for missed()."""
        if self._state == _FAULT:
            return None
        self._why = "no data"
        return self._enter_fault()

    def tare(self):
        """The base is empty: the next still second is the zero, no cats."""
        self._state = _TARING
        self._tare_fill = 0
        self.pending = {}

    # ---- faults ----------------------------------------------------------

    def _judge(self, c, raw):
        """1 if cell c reads stuck or saturated, else 0."""
        self._missing = 0
        runs, prev, rails = self._runs, self._prev, self._rails
        if raw == prev[c]:
            runs[c] += 1
        else:
            runs[c] = 1
            prev[c] = raw
        if raw >= FULL_SCALE or raw <= MIN_COUNT:
            rails[c] += 1
        else:
            rails[c] = 0
        if rails[c] >= _RAIL_RUN:
            self._why = "saturated"
            return 1
        if runs[c] >= _STUCK_RUN:
            self._why = "saturated" if raw == ALL_ONES else "stuck"
            return 1
        return 0

    def _suspect(self):
        """Repeated or full-scale readings: a sensor that may be dying is no
        evidence of a hand."""
        runs, rails = self._runs, self._rails
        for c in range(self._cells):
            if runs[c] > 1 or rails[c]:
                return True
        return False

    def _fault(self, bad):
        if bad:
            return None if self._state == _FAULT else self._enter_fault()
        # Good readings again. The next verdict compares with the level
        # before the fault, so a tower that changed meanwhile shows up.
        self._state = _TARING if self._resume == _TARING else _MOVING
        self._seen = 0
        self._tare_fill = 0
        self._start_episode()
        self._why = None
        return {"ev": "fault", "t": self._ms(), "sensor": "ok"}

    def _enter_fault(self):
        self._resume = self._state
        self._state = _FAULT
        return {"ev": "fault", "t": self._ms(), "sensor": self._why}

    # ---- the per-reading path ------------------------------------------

    def _step(self, y):
        self.samples += 1
        i = self._i = (self._i + 1) & _MASK
        ring = self._ring
        ring[i] = y
        if self._seen < _RING:
            self._seen += 1
        state = self._state
        if state == _SETTLED:
            d = y - (self._level >> _FRAC)
            if -self._enter <= d <= self._enter:
                return self._still(y)
            self._refine()
            self._state = _MOVING
            self._start_episode()
        elif state == _TARING:
            return self._taring(y)
        return self._moving(i, ring)

    def _start_episode(self):
        self._before = self._level >> _FRAC
        self._since = 0
        self._jolt = 0
        self._top = self._bottom = self._before
        self._fallen = self._before - (self._per_cat >> 1)  # half a cat below the start
        self._rebound = 0
        self._flat_odd = 0
        self._warned = False

    def _still(self, y):
        """Settled. For half a second the readings refine the verdict's level
        (their running mean); after that a slow filter follows drift and
        creep, which move the zero and leave the count alone."""
        quiet = self._quiet
        if quiet < self._quiet_after:
            self._sum += y - self._verdict_level
            quiet = self._quiet = quiet + 1
            self._level = (self._verdict_level << _FRAC) + (self._sum << _FRAC) // quiet
            if self._cells == 4:
                ring, k, acc, lv = self._cell_ring, self._i << 2, self._cell_sum, self._cell_level
                for c in range(4):
                    acc[c] += ring[k + c] - (lv[c] >> _FRAC)
            if quiet == self._quiet_after >> 1:
                self._half = self._sum
            if quiet == self._lost_after:
                return self._lost()
            if quiet == self._quiet_after:
                return self._quiet_now()
            return None
        sh = self._drift
        self._level += ((y << _FRAC) - self._level) >> sh
        if self._cells == 4:
            ring, k, lv = self._cell_ring, self._i << 2, self._cell_level
            for c in range(4):
                lv[c] += ((ring[k + c] << _FRAC) - lv[c]) >> sh
        return None

    def _refine(self):
        """Move what the still readings since the verdict have learned into
        the mass (they measured the same load more precisely)."""
        quiet = self._quiet
        if quiet == 0 or quiet > self._quiet_after:
            return
        level = self._level >> _FRAC
        self.mass += level - self._verdict_level
        self._verdict_level = level
        self._sum = 0
        self._quiet = self._quiet_after + 1  # refined: from now on, drift
        if self._cells == 4:
            acc, lv, cm = self._cell_sum, self._cell_level, self._cell_mass
            for c in range(4):
                d = acc[c] // quiet
                cm[c] += d
                lv[c] += d << _FRAC
                acc[c] = 0

    def _set_noise(self, sigma):
        self.noise = sigma = max(1, sigma)
        self._enter = sigma * 9 // 2 + 1
        self._band_short = sigma * 4 + 1
        self._band_long = sigma * 5 + 1
        # Three standard errors of the difference between the means of the
        # two halves of the quiet period (x8), beyond which it had a trend.
        # Mistaking noise for a trend only makes the quiet half a second later.
        q = self._quiet_after
        h = q >> 1
        self._trend = sigma * _isqrt(1024 * 9 * q // (h * (q - h))) >> 2

    def _moving(self, i, ring):
        self._since += 1
        span = self._span
        if self._seen > 2 * span:
            bend = ring[i] - 2 * ring[(i - span) & _MASK] + ring[(i - 2 * span) & _MASK]
            if bend < 0:
                bend = -bend
            if bend > self._jolt:
                self._jolt = bend
        y = ring[i]
        if y > self._top:
            self._top = y
        if y < self._bottom:
            self._bottom = y
        elif self._bottom < self._fallen and y - self._bottom > self._rebound:
            self._rebound = y - self._bottom  # a rise after a fall: a landing
        w = self._flat()
        if w:
            m = self._mean(w)
            if w == self._long or self._early_call(w, m):
                return self._verdict(m)
        if self._flat_odd:
            self._flat_odd -= 1  # leaky: a stray unflat window does not start over
        if self._since >= self._handling and not self._warned and not self._suspect():
            self._warned = self._report = True
            return {"ev": "handling", "t": self._ms()}
        return None

    def _flat(self):
        """How many of the latest readings are still: the long window's
        length if it and the short window are within their bands, the early
        window's if only that one is, else 0. Readings within the short
        window keep to the short band, older ones to the long band."""
        if self._seen < self._long:
            return 0
        ring, i = self._ring, self._i
        lo = hi = ring[i]
        flat = 0
        band, early = self._band_short, self._long * 3 // 4 - 1
        for k in range(1, self._long):
            v = ring[(i - k) & _MASK]
            if v < lo:
                lo = v
                if hi - lo > band:
                    return flat
            elif v > hi:
                hi = v
                if hi - lo > band:
                    return flat
            if k == early:
                if hi != lo:
                    flat = k + 1
            if k == _SHORT - 1:
                if hi == lo and self.noise > 1:
                    return 0  # perfectly equal readings: a sensor about to be called stuck
                band = self._band_long
        return self._long

    def _mean(self, w):
        """Mean of the latest readings: the short window, or fewer if only
        that many are still."""
        ring, i = self._ring, self._i
        if w < _SHORT:
            return (ring[i] + ring[(i - 1) & _MASK]) >> 1
        return (ring[i] + ring[(i - 1) & _MASK] + ring[(i - 2) & _MASK]) // _SHORT

    def _early_call(self, w, m):
        """May the early window (w readings) end the episode at mean m? Only for
        cats placed, a clean whole number of them (as close as a clean quiet
        state), with no impact, on a sensor quiet enough (noise within 3% of
        a cat) that the remainder tells a hand's fraction from a whole cat.
        Anything else waits for the long window."""
        pc = self._per_cat
        if self._absolute or self.noise * 32 > pc:
            return False
        if w < _SHORT and self._since <= self._handling:
            # Two conversions at 10/s: a poke whose crest sits centred
            # between them reads the same twice. A poke is over by now.
            return False
        change = self.mass + m - self._before - self._anchor
        off = (change + (pc >> 1)) % pc - (pc >> 1)  # counts from the nearest whole cats
        if (off if off >= 0 else -off) * 1000 > 150 * pc:
            return False  # the common case while a hand moves: cheap to rule out
        self._whole(change + self._anchor, self._anchor)
        n = self._anchor_cats + self._total - self.cats
        return n > 0 and _clean(self._r, self._var) and not self._impact(m)

    def _taring(self, y):
        buf, cells = self._tare_buf, self._cells
        k = self._tare_fill * cells
        if cells == 1:
            buf[k] = y
        else:
            ring, base = self._cell_ring, self._i << 2
            for c in range(4):
                buf[k + c] = ring[base + c]
        self._tare_fill += 1
        if self._tare_fill < self._tare_n:
            return None
        self._tare_fill = 0
        got = _still(buf, self._tare_n, cells)
        if isinstance(got, str):
            return None  # not still yet: measure the next second
        means, var = got
        cal = self.cal.noise
        self._set_noise(min(max(_isqrt(var), (cal + 1) >> 1), 4 * cal))
        level = sum(means)
        for c in range(cells):
            self._cell_level[c] = means[c] << _FRAC
            self._cell_mass[c] = 0
        self._absolute = False
        self.mass = 0
        self.cats = self.tower = self.top = 0
        self.conf = 100
        self._settle_at(level)
        self._quiet = self._quiet_after + 1  # the capture was the refinement
        self._level = level << _FRAC
        self._anchor_here(clean=True)
        return self._event("settled", 0, None)

    # ---- verdicts --------------------------------------------------------

    def _verdict(self, m):
        # Mass above the zero: the first verdict measures it from the
        # calibration zero, later ones add the step since the episode began.
        mass = m if self._absolute else self.mass + m - self._before
        plausible = self._whole(mass, self._anchor)
        impact = not self._absolute and self._impact(m)
        if not plausible:
            # Still but not whole cats: a hand resting, or a hand that rested
            # so long the last turn looked over, or something else on the
            # tray. Wait; if it stays so, look back a turn, then ask. After
            # an impact there is nothing more to wait for: something fell,
            # and the collapse is called with no confidence in the count.
            self._flat_odd += 2
            if self._flat_odd < 2 * self._quiet_after:
                return None
            if not self._absolute and self._rewind(mass):
                plausible = True
            elif self._flat_odd < 2 * self._ask_after and not impact:
                return None
        total = self._total
        self._settle_at(m)
        self._remember_cells(m)
        self.mass = mass
        conf = self._confidence() if plausible else 0
        if self._absolute:
            self._absolute = False
            self.cats = self.tower = total
            self.conf = conf
            self._anchor_here()
            self._report = True
            return None
        n = self._anchor_cats + total - self.cats
        if impact:
            if self.samples - self._fell_at > self._follow:
                self._fell_at = self.samples  # a new collapse begins
            return self._count(n, conf, self._collapse)
        if not plausible:
            return self._ask_cats(total)
        if n > 0:
            return self._count(n, conf, self._placed)
        if n < 0 and self.samples - self._fell_at <= self._follow:
            # Cats lost just after the tower came down were still falling.
            return self._count(n, conf, self._collapse)
        # Cats gone without an impact: a hand lifting them, perhaps to set
        # one back at once. Called when the tray is quiet.
        return None

    def _rewind(self, mass):
        """Judged against the last clean quiet state, is the change whole
        cats? Then the last turn was not over: go back to it. Only one quiet
        state back: further, the cats' differences add up until anything
        looks whole."""
        if self._unclean != 1 or not self._whole(mass, self._clean):
            self._whole(mass, self._anchor)  # the verdict uses the current anchor
            return False
        self._anchor = self._clean
        self._anchor_cats = self._clean_cats
        self._anchor_conf = self._clean_conf
        self._unclean = 0
        return True

    def _whole(self, mass, anchor):
        """Is the change from anchor to mass whole cats? Leaves the cats
        (_total), the remainder in thousandths of a cat (_r) and the variance
        expected of it (_var) for the verdict, without allocating."""
        pc = self._per_cat
        change = mass - anchor
        self._total = total = (2 * change + pc) // (2 * pc)
        self._r = r = _scaled(change - total * pc, 1000, pc)
        self._var = var = self._step_var(total)
        return _whole(r, var)

    def _step_var(self, n):
        """Variance of a change of n cats, in thousandths of a cat squared:
        the cats' own spread, the error of the average cat (pooled over the
        cats weighed so far), and the noise of the window and the level."""
        pc = self._per_cat
        sd = _scaled(self.cal.cat_sd, 1000, pc)
        noise = _scaled(self.noise, 1000, pc)
        a = min(n if n >= 0 else -n, 40)
        return a * sd * sd + a * a * (sd * sd // self._pooled) + 2 * noise * noise // _SHORT + 1

    def _confidence(self):
        r = self._r
        a = r if r >= 0 else -r
        x4 = 2000 * (1000 - 2 * a) // self._var
        return 100 if x4 >= len(_LOGISTIC) else _LOGISTIC[x4]

    def _settle_at(self, m):
        self._state = _SETTLED
        self._level = self._verdict_level = m
        self._level <<= _FRAC
        self._quiet = 0
        self._sum = 0
        if self._cells == 4:
            for c in range(4):
                self._cell_sum[c] = 0

    def _remember_cells(self, m):
        """Each cell's share of the change, for the lean."""
        if self._cells != 4:
            return
        ring, lv, cm = self._cell_ring, self._cell_level, self._cell_mass
        for c in range(4):
            s = 0
            for k in range(_SHORT):
                s += ring[(((self._i - k) & _MASK) << 2) + c]
            mean = s // _SHORT
            if self._absolute:
                cm[c] = mean
            else:
                cm[c] += mean - (lv[c] >> _FRAC)
            lv[c] = mean << _FRAC

    def _quiet_now(self):
        """Half a second still: refine the level, call what is still
        uncalled (removals), and close the turn with one event. A slow,
        steady slide within the noise band (a hand letting go very gently)
        is not still: the episode goes on."""
        q, h = self._quiet_after, self._quiet_after >> 1
        trend = ((self._sum - self._half) << _FRAC) // (q - h) - (self._half << _FRAC) // h
        self._refine()
        if trend > self._trend or -trend > self._trend:
            self._state = _MOVING
            self._start_episode()
            return None
        self._whole(self.mass, self._anchor)
        total = self._total
        n = self._anchor_cats + total - self.cats
        report, self._report = self._report, False
        if not -450 <= self._r <= 450:
            return self._ask_cats(total)
        conf = self._confidence()
        if n > 0:
            return self._count(n, conf, self._placed)
        if n < 0:
            return self._count(n, conf, self._removed)
        self.conf = self._anchor_conf * conf // 100
        self._anchor_here()
        return self._event("settled", 0, None) if report else None

    def _lost(self):
        """Cats went without an impact and were not set back: call it."""
        mass = self.mass + (self._level >> _FRAC) - self._verdict_level
        if not self._whole(mass, self._anchor):
            return None
        n = self._anchor_cats + self._total - self.cats
        return self._count(n, self._confidence(), self._removed) if n < 0 else None

    def _count(self, n, conf, then):
        self.cats += n
        self.conf = self._anchor_conf * conf // 100
        ev = then(n)
        if self._quiet > self._quiet_after:
            self._anchor_here()
        else:
            self._report = True
        return ev

    def _anchor_here(self, clean=False):
        """This is a quiet state. It is clean if a person said so, or if it
        is whole cats from the last clean one, within two standard deviations
        of what the cats' differences and the noise allow (and never more
        than 0.15): no hand held part of a cat when the tray went quiet."""
        self._fell_ask = self._fell_left = 0  # a new turn, a new collapse
        self._anchor = self.mass
        self._anchor_cats = self.cats
        self._anchor_conf = self.conf
        n = self.cats - self._clean_cats
        step = self.mass - self._clean
        off = _scaled(step - n * self._per_cat, 1000, self._per_cat)
        if clean or _clean(off, self._step_var(n)):
            if n == 1 and not clean:
                self._learn(step)
            self._clean = self.mass
            self._clean_cats = self.cats
            self._clean_conf = self.conf
            self._unclean = 0
        else:
            self._unclean += 1

    def _learn(self, cat):
        """One cat placed cleanly weighs `cat`: pool it with the calibration's
        cats, so the average cat is known better as the game goes on. Over a
        big collapse the average's error is what adds up fastest."""
        if self._pooled < _POOL_MOST:
            self._pool += cat
            self._pooled += 1
            self._per_cat = self._pool // self._pooled

    def _impact(self, m):
        """Did cats hit the tray during this episode?"""
        jolt = self._jolt
        if jolt >= self._sharp:
            return True
        pc = self._per_cat
        if jolt < _scaled(pc, _BEND, 1000):
            return False
        before = self._before
        if m < before - (pc >> 1):  # cats left the tray: did some land first?
            return self._rebound >= _scaled(pc, _LANDING, 1000)
        above = self._top - (before if before > m else m)
        below = (before if before < m else m) - self._bottom
        return below >= _scaled(pc, _FALL, 1000) and above >= _scaled(pc, _BOUNCE, 1000)

    # ---- what happened ---------------------------------------------------

    def _placed(self, n):
        before = self.tower
        self.tower += n
        ask = None
        if n == 1 and before >= self.wedged and before > 0:
            most = before - self.wedged + 1 if self.wedged else before
            guess = min(most, self.top + 1)
            self.top = guess
            # Confidence: how often players have accepted the suggestion.
            rate = (self._accepted + 1) * 100 // (self._asked + 2)
            ask = self._propose("height", guess, 1, most, rate,
                                "cats between the new cat and the base")
        return self._event("placed", n, ask)

    def _removed(self, n):
        # Cats that fell and stayed on the tray go first; then the tower's.
        loose = self.cats - n - self.tower
        if -n > loose:
            self.tower = max(0, self.tower + n + loose)
        return self._event("removed", n, None)

    def _collapse(self, n):
        # Cats gone from the tray since the last quiet state (a cat being
        # placed when the tower fell was never counted in it). Cats still
        # falling after the first call make another, with the total so far;
        # its question replaces the first one's.
        left = max(0, self._anchor_cats - self.cats)
        if self._fell_ask in self.pending:
            del self.pending[self._fell_ask]
        self.tower = max(0, self.tower - (left - self._fell_left))
        self._fell_left = left
        most = max(left, self.tower + left + 1)
        if left:
            ask = self._propose("fell", left, left, most, self.conf,
                                "%d left the tray; add any that fell but stayed on it" % left)
        else:
            ask = self._propose("fell", None, 0, most, 0,
                                "the tower came down but the cats stayed on the tray: "
                                "how many fell?")
        self._fell_ask = ask["id"]
        self.top = min(self.top, self.tower)
        return self._event("collapse", n, ask, left)

    def _ask_cats(self, total):
        """The change is not whole cats: take the nearest as a guess with no
        confidence, and ask."""
        change = self._in_cats(self.mass - self._anchor)
        n = self._anchor_cats + total - self.cats
        self.cats += n
        self.conf = 0
        self._anchor_here()
        ask = self._propose("cats", None, 0, self.cats + (n if n > 0 else -n) + 2, 0,
                            "the load changed by %s cats, not a whole number: how many "
                            "cats are on the tray?" % change)
        return self._event("settled", n, ask)

    # ---- events, proposals -----------------------------------------------

    def _in_cats(self, counts):
        c = _scaled(counts, 100, self._per_cat)
        sign = "-" if c < 0 else ""
        c = -c if c < 0 else c
        return "%s%d.%02d" % (sign, c // 100, c % 100)

    def _event(self, kind, n, ask, left=None):
        ev = {"ev": kind, "t": self._ms(), "n": n, "cats": self.cats,
              "mass": _scaled(self.mass, 100, self._per_cat), "conf": self.conf}
        if left is not None:
            ev["left"] = left
        if self._cells == 4:
            ev["lean"] = self.lean()
        if ask is not None:
            ev["ask"] = ask
        return ev

    def _propose(self, what, default, lo, hi, conf, why):
        p = {"id": self._next_id, "ask": what, "default": default, "min": lo, "max": hi,
             "conf": conf, "why": why, "t": self._ms()}
        self._next_id += 1
        self.pending[p["id"]] = p
        if len(self.pending) > 8:  # a question nobody answered goes stale
            del self.pending[min(self.pending)]
        return p

    def confirm(self, pid, value):
        """A person answered proposal `pid` with `value`. Returns the record
        to journal: {"ev": "confirmed", "id", "ask", "default", "value",
        "conf", "t"}. A bad answer raises TrayError and changes nothing."""
        p = self.pending.get(pid)
        if p is None:
            raise TrayError("no open question %r: it was answered or replaced" % (pid,))
        if not isinstance(value, int) or not p["min"] <= value <= p["max"]:
            raise TrayError("%s must be a whole number from %d to %d, not %r"
                            % (p["ask"], p["min"], p["max"], value))
        del self.pending[pid]
        what = p["ask"]
        if what == "height":
            self._asked += 1
            if value == p["default"]:
                self._accepted += 1
            self.top = value
        elif what == "fell":
            # The tower lost `value` cats, not the `default` assumed so far.
            self.tower = max(0, self.tower + (p["default"] or 0) - value)
            self.top = min(self.top, self.tower)
        else:
            self.cats = value
            self.tower = min(self.tower, value)
            self.conf = 100
            self._anchor_here(clean=True)
        return {"ev": "confirmed", "id": pid, "ask": what, "default": p["default"],
                "value": value, "conf": p["conf"], "t": self._ms()}

    def calibration(self):
        """The calibration with the average cat as learned in play, for the
        app to save in place of the old one."""
        c = self.cal
        return Calibration(c.rate_hz, c.zero, c.sign, self._per_cat, c.cat_sd, c.noise,
                           min(self._pooled, 200))

    def lean(self):
        """Where the cats' weight sits, from the four cells: [r, x, y] in
        thousandths of half the cell spacing from the centre (x to the right,
        y to the back; r the distance). 1000 is above the line between two
        cells, the edge of the support. [0, 0, 0] with no cats on the tray;
        None with one cell."""
        if self._cells != 4:
            return None
        cm = self._cell_mass
        a, b, c, d = cm[0], cm[1], cm[2], cm[3]
        total = a + b + c + d
        if total < self._per_cat // 2:
            return [0, 0, 0]
        while total >= 1 << 19:  # keep x * 1000 below 2**30
            a >>= 1
            b >>= 1
            c >>= 1
            d >>= 1
            total = a + b + c + d
        x = (b + c - a - d) * 1000 // total
        y = (c + d - a - b) * 1000 // total
        return [_isqrt(x * x + y * y), x, y]

    def _ms(self):
        return _scaled(self.samples, 1000, self.rate)


class TrayFeed:
    """A Tray on the HX711 driver: pass `counts` and `fault` as the driver's
    callbacks, HX711Group.run(feed.counts, feed.fault) or
    Hardware.weigh(feed.counts, feed.fault). Each event the tray gives goes
    to on_event(ev). A driver fault (reported once per outage) is the tray's
    "no data" fault; the next reading ends it. Allocates nothing per reading
    unless the tray returns an event."""

    def __init__(self, tray, on_event):
        self.tray = tray
        self.on_event = on_event
        self._four = tray.cal.cells == 4

    def counts(self, counts):
        if self._four:
            ev = self.tray.feed4(counts[0], counts[1], counts[2], counts[3])
        else:
            ev = self.tray.feed(counts[0])
        if ev is not None:
            self.on_event(ev)

    def fault(self, error):
        ev = self.tray.no_data()
        if ev is not None:
            self.on_event(ev)
