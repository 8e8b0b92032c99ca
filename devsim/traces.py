"""Synthetic load-cell traces for the Stack O' Cats tray, with ground truth.

A `Trace` is the force on the tray's load cell(s) over time, built from
effects (a cat's weight arriving, a hand pressing, a tower ringing after an
impact, creep, drift, mains-like vibration) plus Gaussian noise and optional
sensor faults. A `Session` plays Stack O' Cats turns onto a trace and keeps the
ground truth: what happened, when the load settled, how many cats are on the
tray.

Contract for the HX711 model (and anything else that samples a trace):

    source.counts_at(t_us) -> int or None

  is the signed 24-bit count (-0x800000 .. 0x7FFFFF) of the conversion that
  completes at t_us microseconds: the mean load over the conversion period
  before t_us (1/rate_hz, the HX711's averaging), plus noise. None means the
  sensor produces no data from then on (DOUT stays high), until a repair. Successive calls on
  one source need non-decreasing t_us. Noise is drawn once per conversion
  period of the rate the trace was built for (10 or 80 samples/s), so sampling
  at that rate gives one fresh draw per sample; several calls in one period
  see the same noise.

  A one-cell trace is itself a source. A four-cell trace (cells under the
  corners, in the order left-front, right-front, right-back, left-back) gives
  one source per cell: `trace.cell(i)`; `trace.counts4_at(t_us)` samples all
  four at once.

Identical on CPython and MicroPython: noise comes from catnip.rules.rng.Rng
through an integer inverse-CDF table; the deterministic shapes use IEEE
double arithmetic and the C library's sin/exp, which both interpreters share
(tests/shared/test_traces.py pins a checksum under both). This module runs on
the laptop and the unix port only, never on the Pico, so it uses big ints
and floats freely.
"""
import math

from catnip.rules.rng import Rng

FULL_SCALE = 0x7FFFFF
MIN_COUNT = -0x800000
ALL_ONES = -1  # 0xFFFFFF read as two's complement: what a DOUT stuck high gives
FAULTS = ("stuck", "ones", "rail", "silent")

US_PER_MS = 1000
US_PER_MIN = 60000000

# Standard normal quantiles (x 4096) for the upper half of the distribution,
# indexed by dyadic bands of a 15-bit draw: band j covers half-normal
# probabilities [1 - 2**-j, 1 - 2**-(j+1)) in 8 steps, so the tail is as finely
# resolved as the middle. Knot 120 ends band 14; knot 121 is the last draw's
# value (4.32 sigma). Checked against statistics.NormalDist in tests/test_traces.py.
_Z = (
    0, 321, 644, 972, 1305, 1648, 2002, 2372,
    2763, 2968, 3180, 3402, 3634, 3878, 4137, 4414,
    4712, 4871, 5038, 5213, 5399, 5596, 5807, 6035,
    6284, 6417, 6558, 6706, 6865, 7034, 7216, 7413,
    7630, 7746, 7870, 8001, 8141, 8290, 8452, 8628,
    8822, 8927, 9038, 9156, 9282, 9418, 9565, 9725,
    9902, 9998, 10100, 10208, 10324, 10449, 10584, 10732,
    10896, 10984, 11079, 11179, 11287, 11403, 11529, 11667,
    11820, 11903, 11991, 12085, 12186, 12295, 12413, 12543,
    12686, 12765, 12848, 12936, 13032, 13135, 13246, 13369,
    13505, 13579, 13658, 13742, 13833, 13931, 14037, 14154,
    14283, 14354, 14429, 14509, 14595, 14689, 14790, 14902,
    15025, 15093, 15165, 15242, 15324, 15413, 15511, 15618,
    15737, 15801, 15870, 15944, 16023, 16109, 16203, 16306,
    16420, 16482, 16549, 16620, 16696, 16779, 16869, 16968,
    17079, 17715,
)
GAUSS_ONE = 4096


def gauss(rng):
    """A standard normal draw x 4096 from a single 16-bit draw of `rng`:
    the top bit is the sign, the rest a probability mapped through _Z."""
    r = rng.next16()
    q = r & 0x7FFF
    band = 0
    bit = 0x4000
    while q & bit:
        band += 1
        bit >>= 1
    if band == 15:
        z = _Z[121]
    else:
        # Position inside the band, in 256ths of one of its 8 steps.
        x = (((q & (bit - 1)) << 1) + 1) << 10 >> (14 - band)
        k = (band << 3) + (x >> 8)
        z = _Z[k] + (((_Z[k + 1] - _Z[k]) * (x & 255)) >> 8)
    return -z if r & 0x8000 else z


# ---- effects: one shape each, known by its running integral ----------------
#
# A conversion reports the mean load over its period T, so an effect starting
# at t0 contributes (I(t - t0) - I(t - T - t0)) / T, where I is the integral of
# its shape from its start. After `length` microseconds the shape is constant
# (`final`), and the effect folds into the trace's base load.


class _Effect:
    def setup(self, t0, length, final, weights):
        self.t0 = t0
        self.length = length
        self.final = final
        self.weights = weights
        self.i_end = self.integral(length)

    def running(self, s):
        if s <= 0:
            return 0.0
        if s >= self.length:
            return self.i_end + self.final * (s - self.length)
        return self.integral(s)

    def mean(self, t, period):
        s = t - self.t0
        return (self.running(s) - self.running(s - period)) / period


class Ramp(_Effect):
    """A lasting change of `amount` counts, reached linearly over `dur` us."""

    def __init__(self, t0, dur, amount, weights):
        self.amount = amount
        self.dur = max(1, dur)
        self.setup(t0, self.dur, amount, weights)

    def integral(self, s):
        return self.amount * s * s / (2 * self.dur)


class Bump(_Effect):
    """A passing push of peak `amount`: a raised cosine `dur` us long."""

    def __init__(self, t0, dur, amount, weights):
        self.amount = amount
        self.dur = max(1, dur)
        self.setup(t0, self.dur, 0, weights)

    def integral(self, s):
        w = 2 * math.pi / self.dur
        return self.amount * (s - math.sin(w * s) / w) / 2


class Ring(_Effect):
    """A damped oscillation amount * exp(-s/tau) * sin(2 pi s / period): a
    tray ringing after an impact, or a tower rocking to rest. Its integral
    over all time (the impulse it delivers) is amount * b."""

    def __init__(self, t0, period, tau, amount, weights):
        self.amount = amount
        self.w = 2 * math.pi / period
        self.tau = tau
        d = self.w * self.w + 1 / (tau * tau)
        self.a = (1 / tau) / d
        self.b = self.w / d
        # Below half a count it no longer matters.
        length = tau * math.log(max(1.0, 2 * abs(amount)))
        self.setup(t0, length, 0, weights)

    def integral(self, s):
        e = math.exp(-s / self.tau)
        ws = self.w * s
        return self.amount * (self.b - e * (self.a * math.sin(ws) + self.b * math.cos(ws)))


def impulse_ring(t0, period, tau, impulse, weights):
    """The ring an impact of `impulse` count-microseconds sets off."""
    w = 2 * math.pi / period
    return Ring(t0, period, tau, impulse * (w * w + 1 / (tau * tau)) / w, weights)


class Tremor(_Effect):
    """A hand's tremor: amount * sin(2 pi s / period + phase) under a raised
    cosine envelope `dur` us long."""

    def __init__(self, t0, dur, period, phase, amount, weights):
        self.amount = amount
        self.w = 2 * math.pi / period
        self.env = 2 * math.pi / max(1, dur)
        self.phase = phase
        self.setup(t0, max(1, dur), 0, weights)

    def integral(self, s):
        # sin(a)(1 - cos(b))/2 = sin(a)/2 - (sin(a + b) + sin(a - b))/4
        w, e, p = self.w, self.env, self.phase
        return self.amount * (
            _sin_integral(w, p, s) / 2
            - (_sin_integral(w + e, p, s) + _sin_integral(w - e, p, s)) / 4
        )


def _sin_integral(k, phase, s):
    if abs(k) < 1e-12:
        return s * math.sin(phase)
    return (math.cos(phase) - math.cos(k * s + phase)) / k


class Creep(_Effect):
    """A load cell creeping by `amount` after a load change, time constant tau."""

    def __init__(self, t0, tau, amount, weights):
        self.amount = amount
        self.tau = tau
        length = tau * math.log(max(1.0, 2 * abs(amount)))
        self.setup(t0, length, amount, weights)

    def integral(self, s):
        return self.amount * (s - self.tau * (1 - math.exp(-s / self.tau)))


# ---- the trace ---------------------------------------------------------------

def weights_at(cells, x, y):
    """How a load at (x, y) splits over the cells. x runs left to right and y
    front to back, both in thousandths of half the cell spacing (-1000..1000)."""
    if cells == 1:
        return (1.0,)
    right = (1000 + x) / 2000
    back = (1000 + y) / 2000
    return (
        (1 - right) * (1 - back),
        right * (1 - back),
        right * back,
        (1 - right) * back,
    )


class Trace:
    """The load on a tray's cell(s), sampled at `rate_hz` (10 or 80).

    noise: Gaussian noise per cell per sample, in counts (standard deviation).
    offset: each cell's reading with nothing on it (the tare), in counts.
    drift_per_min: slow zero drift of the total, counts per minute.
    vibration, mains_hz: a mains-like disturbance of the total, peak counts
    before the converter's averaging (which rejects it at 10 samples/s).
    gains: each cell's sensitivity (1.0: as the load says; real cells of one
    batch differ by a few percent).
    """

    def __init__(self, seed, rate_hz=80, cells=1, noise=0, offset=0,
                 drift_per_min=0, vibration=0, mains_hz=50, gains=None):
        if rate_hz not in (10, 80):
            raise ValueError("the HX711 samples at 10 or 80 per second, not %r" % (rate_hz,))
        if cells not in (1, 4):
            raise ValueError("a tray has 1 cell or 4 corner cells, not %r" % (cells,))
        self.rate_hz = rate_hz
        self.period = 1000000 // rate_hz
        # Effects stay active two periods past their end, so a cell sampled a
        # little behind another (four HX711s are not in lockstep) sees them.
        self._slack = 2 * self.period
        self.cells = cells
        self.noise = noise
        self.drift_per_min = drift_per_min
        self.vibration = vibration
        self.mains_hz = mains_hz
        self.gains = tuple(gains) if gains else (1.0,) * cells
        self._offset = float(offset)
        self._base = [float(offset)] * cells
        self._all = []
        self._pending = []  # effects by start time, not yet reached
        self._active = []
        self._now = None
        self._load_t = None
        self._load = None
        self._sources = [Source(self, i, Rng("%s:cell%d" % (seed, i))) for i in range(cells)]
        self._faults = []  # (t_us, kind, cell or None)

    # ---- building ------------------------------------------------------

    def add(self, effect):
        if self._now is not None and effect.t0 < self._now - self._slack:
            raise ValueError("an effect must start after the time already sampled")
        pend = self._pending
        i = len(pend)
        while i and pend[i - 1].t0 > effect.t0:
            i -= 1
        pend.insert(i, effect)
        self._all.append(effect)
        return effect

    def fault(self, t_us, kind, cell=None):
        """From t_us on, the sensor (or one cell) fails: 'stuck' repeats its
        last reading, 'ones' reads all ones (0xFFFFFF), 'rail' reads full
        scale (0x7FFFFF), 'silent' gives no data."""
        if kind not in FAULTS:
            raise ValueError("unknown fault %r; choose one of %s" % (kind, ", ".join(FAULTS)))
        self._faults.append((t_us, kind, cell))

    def repair(self, t_us, cell=None):
        """From t_us on, the sensor (or one cell) reads the load again."""
        self._faults.append((t_us, None, cell))

    # ---- sampling ------------------------------------------------------

    def cell(self, i):
        return self._sources[i]

    def counts_at(self, t_us):
        if self.cells != 1:
            raise ValueError("a four-cell trace has one source per cell: use cell(i) or counts4_at")
        return self._sources[0].counts_at(t_us)

    def counts4_at(self, t_us):
        return tuple(s.counts_at(t_us) for s in self._sources)

    def load_at(self, t_us):
        """The noiseless mean load per cell over the conversion ending at
        t_us. Stateless, so any order of calls; for tests and truth."""
        out = [self._offset + self._common(t_us)] * self.cells
        for e in self._all:
            self._spread(out, e.mean(t_us, self.period), e.weights)
        return out

    def _spread(self, out, value, weights):
        for i in range(self.cells):
            out[i] += value * weights[i]

    def _common(self, t):
        """Drift and vibration, per cell."""
        T = self.period
        v = self.drift_per_min * (t - T / 2) / US_PER_MIN
        if self.vibration:
            w = 2 * math.pi * self.mains_hz / 1000000
            v += self.vibration * (math.cos(w * (t - T)) - math.cos(w * t)) / (w * T)
        return v / self.cells

    def _load_now(self, t):
        """Mean load per cell for the conversion ending at t (monotonic path)."""
        if t == self._load_t:
            return self._load
        if self._now is None or t > self._now:
            self._now = t
        pend = self._pending
        act = self._active
        while pend and pend[0].t0 <= t:
            act.append(pend.pop(0))
        T = self.period
        horizon = self._now - T - self._slack
        out = [0.0] * self.cells
        keep = []
        for e in act:
            if horizon - e.t0 >= e.length:
                self._retire(e)
            else:
                keep.append(e)
                self._spread(out, e.mean(t, T), e.weights)
        self._active = keep
        common = self._common(t)
        for i in range(self.cells):
            out[i] += self._base[i] + common
        self._load_t = t
        self._load = out
        return out

    def _retire(self, e):
        for i in range(self.cells):
            self._base[i] += e.final * e.weights[i]

    def _fault_at(self, t, cell):
        kind = None
        for ft, k, c in self._faults:
            if ft <= t and (c is None or c == cell):
                kind = k
        return kind


class Source:
    """One cell's readings: the HX711 model samples this."""

    def __init__(self, trace, index, rng):
        self.trace = trace
        self.index = index
        self._rng = rng
        self._tick = -1
        self._noise = 0
        self._last = 0
        self._last_t = None

    def counts_at(self, t_us):
        if t_us < 0 or self._last_t is not None and t_us < self._last_t:
            raise ValueError(
                "counts_at needs non-decreasing times: asked for %d us after %d us"
                % (t_us, self._last_t))
        tr = self.trace
        fault = tr._fault_at(t_us, self.index) if tr._faults else None
        self._last_t = t_us
        if fault == "stuck":
            return self._last
        if fault == "ones":
            return ALL_ONES
        if fault == "rail":
            return FULL_SCALE
        if fault == "silent":
            return None
        load = tr._load_now(t_us)[self.index]
        gain = tr.gains[self.index]
        if gain != 1.0:
            load = tr._offset + (load - tr._offset) * gain
        value = load + self._noise_at(t_us // tr.period)
        raw = int(math.floor(value + 0.5))
        raw = FULL_SCALE if raw > FULL_SCALE else MIN_COUNT if raw < MIN_COUNT else raw
        self._last = raw
        return raw

    def _noise_at(self, tick):
        sigma = self.trace.noise
        if not sigma:
            return 0
        while self._tick < tick:
            # Every period draws once, sampled or not, so a slower reader
            # sees the same noise at the same instants.
            self._noise = gauss(self._rng) * sigma / GAUSS_ONE
            self._tick += 1
        return self._noise


# ---- a session of play on the tray --------------------------------------------


class Session:
    """Stack O' Cats turns played onto a trace, with the ground truth.

    per_cat: mean counts one cat adds; cat_spread: its standard deviation in
    percent (cats differ in pose and wood). Times are microseconds; each turn
    starts after a pause and returns its truth record:

        {"kind": "placed" | "collapse" | "removed" | "touch" | "fault",
         "start": us, "settle": us (when the load stops moving),
         "n": change in cats on the tray, "cats": cats on the tray after,
         "left": cats that left the tray, "stayed": cats that fell but stayed
         on it, "fell": left + stayed, "hit": cats that struck the tray
         (the rest fell clear of it), "lean": thousandths (4 cells), ...}

    The settle time is physical: the conversions that complete up to one
    period later still average some of the motion in.
    """

    WEDGED = 4  # cats wedged into the base at setup; they never fall

    def __init__(self, seed, rate_hz=80, cells=1, noise=80, per_cat=4300, cat_spread=5,
                 offset=None, drift_per_min=None, vibration=None, creep_permille=5,
                 stay=35, bounce=40, gains=None):
        self.rng = Rng("%s:play" % seed)
        self.per_cat = per_cat
        self.cat_spread = cat_spread
        self.creep_permille = creep_permille
        self.stay = stay
        self.bounce = bounce
        if offset is None:
            offset = self.between(-200000, 200000)
        if drift_per_min is None:
            drift_per_min = per_cat * self.between(-200, 200) // 10000  # up to 2% of a cat
        if vibration is None:
            vibration = noise
        self.trace = Trace(seed, rate_hz, cells, noise, offset, drift_per_min, vibration,
                           gains=gains)
        self.cells = cells
        self.truth = []
        self.tower = []  # cats on the tower, bottom first: [mass, x, y]
        self.loose = []  # cats that fell but stayed on the tray
        self.t = 0

    # ---- drawing ---------------------------------------------------------

    def between(self, lo, hi):
        """A uniform integer in [lo, hi]."""
        span = hi - lo + 1
        if span <= 65536:
            return lo + self.rng.below(span)
        return lo + (self.rng.next16() << 16 | self.rng.next16()) % span

    def ms(self, lo, hi):
        return self.between(lo, hi) * US_PER_MS

    def share(self, amount, lo_pct, hi_pct):
        return amount * self.between(lo_pct, hi_pct) // 100

    def new_cat(self):
        m = self.per_cat + gauss(self.rng) * self.per_cat * self.cat_spread // (100 * GAUSS_ONE)
        return max(self.per_cat // 4, m)

    def _w(self, x=0, y=0):
        return weights_at(self.cells, x, y)

    def _add(self, effect):
        return self.trace.add(effect)

    # ---- what the tray holds ---------------------------------------------

    def cats(self):
        return len(self.tower) + len(self.loose)

    def lean(self):
        """Centre of the cats' weight from the tray centre, thousandths of
        half the cell spacing: (distance, x, y)."""
        every = self.tower + self.loose
        total = sum(c[0] for c in every)
        if not total:
            return (0, 0, 0)
        x = sum(c[0] * c[1] for c in every) / total
        y = sum(c[0] * c[2] for c in every) / total
        return (int(math.sqrt(x * x + y * y) + 0.5), int(round(x)), int(round(y)))

    def _record(self, kind, start, settle, before, **more):
        rec = {"kind": kind, "start": start, "settle": settle, "n": self.cats() - before,
               "cats": self.cats(), "tower": len(self.tower)}
        if self.cells == 4:
            rec["lean"] = self.lean()
        rec.update(more)
        self.truth.append(rec)
        self.t = max(self.t, settle)
        return rec

    def _settles(self, ring):
        """When a ring has decayed below a twentieth of a cat."""
        band = self.per_cat / 20
        a = abs(ring.amount)
        if a <= band:
            return ring.t0
        return ring.t0 + int(ring.tau * math.log(a / band)) + 1

    # ---- turns -----------------------------------------------------------

    def wait(self, lo_ms=800, hi_ms=2500):
        self.t += self.ms(lo_ms, hi_ms)
        return self.t

    def _next_spot(self):
        if self.tower:
            _, x, y = self.tower[-1]
        else:
            x = y = 0
        x = max(-600, min(600, x + self.between(-120, 120)))
        y = max(-600, min(600, y + self.between(-120, 120)))
        return x, y

    def _hand(self, t0, dur, m, w, press=True):
        """A hand on the tower for `dur` us: tremor, a slow wander, and a
        push or a lift. Fingers cannot hold a force of a few grams steadier
        than about 0.01 N, a tenth of a 10 g cat: physiological tremor at
        8-12 Hz (4-15% of a cat), and most of the fluctuation, below 5 Hz,
        as a wander at 1-3 Hz (3-10% of a cat) that survives the averaging
        of a 10/s conversion."""
        self._add(Tremor(t0, dur, self.ms(80, 125), self.between(0, 628) / 100,
                         self.share(self.per_cat, 4, 15), w))
        self._add(Tremor(t0, dur, self.ms(300, 1000), self.between(0, 628) / 100,
                         self.share(self.per_cat, 3, 10), w))
        if press and dur > 200 * US_PER_MS:
            pdur = self.between(200 * US_PER_MS, dur)
            self._add(Bump(t0 + self.between(0, dur - pdur), pdur, self.share(m, -30, 60), w))

    def _load_change(self, t0, dur, amount, w):
        self._add(Ramp(t0, dur, amount, w))
        if self.creep_permille:
            self._add(Creep(t0 + dur, self.ms(1000, 4000),
                            amount * self.creep_permille / 1000, w))

    def place(self):
        """A cat placed on the tower: contact, partial support, release, wobble."""
        start = self.wait()
        before = self.cats()
        m = self.new_cat()
        x, y = self._next_spot()
        w = self._w(x, y)
        contact = self.ms(300, 1500)
        first = self.share(m, 0, 100)
        self._load_change(start, self.ms(50, 300), first, w)
        release = self.ms(30, 150)
        self._hand(start, contact - release, m, w)
        self._load_change(start + contact - release, release, m - first, w)
        end = start + contact
        wobble = self._add(Ring(end, self.ms(40, 200), self.ms(20, 100),
                                self.share(m, -25, 25), w))
        self.tower.append([m, x, y])
        return self._record("placed", start, max(end, self._settles(wobble)), before)

    def touch(self):
        """A hand on the tower that changes nothing: a push, a sharp poke, or
        a cat lifted and set back."""
        start = self.wait()
        before = self.cats()
        m = self.per_cat
        x, y = self._next_spot()
        w = self._w(x, y)
        style = self.between(0, 2)
        if style == 0:
            dur = self.ms(300, 1500)
            self._hand(start, dur, m, w)
            end = start + dur
        elif style == 1:
            dur = self.ms(60, 250)
            self._add(Bump(start, dur, self.share(m, 50, 300), w))
            end = start + dur
        else:
            # A cat lifted a little and reseated: part or all of its weight
            # leaves the tower for a moment.
            lift = self.ms(80, 250)
            hold = self.ms(100, 400)
            part = self.share(m, 30, 100)
            self._hand(start, 2 * lift + hold, m, w, press=False)
            self._add(Ramp(start, lift, -part, w))
            self._add(Ramp(start + lift + hold, lift, part, w))
            end = start + 2 * lift + hold
        return self._record("touch", start, end, before)

    def collapse(self):
        """A placement that brings the tower down: some top cats fall, each
        leaving the tray or landing on it (a thud), some bouncing off."""
        start = self.wait()
        before = self.cats()
        m = self.new_cat()
        x, y = self._next_spot()
        w = self._w(x, y)
        contact = self.ms(300, 1500)
        first = self.share(m, 0, 100)
        self._add(Ramp(start, self.ms(50, 300), first, w))
        self._hand(start, contact, m, w)
        crash = start + self.between(200 * US_PER_MS, contact)
        above = len(self.tower) - self.WEDGED
        k = 0
        while k < above and (k == 0 or self.rng.below(100) < 55):
            k += 1
        # Each falling cat: [mass, x, y, load it puts on the tray until it tips].
        falling = [c + [c[0]] for c in (self.tower.pop() for _ in range(k))]
        held = self.rng.below(2) == 0
        end = max(start + contact, crash)
        if held:
            # The player keeps the cat and lifts it away to try again.
            lift = crash + self.ms(100, 400)
            dur = self.ms(100, 300)
            self._add(Ramp(lift, dur, -first, w))
            end = max(end, lift + dur)
        else:
            falling.append([m, x, y, first])
        left = stayed = hit = 0
        fallen_mass = 0
        for cm, cx, cy, on in falling:
            tip = crash + self.ms(0, 150)
            self._add(Ramp(tip, self.ms(20, 80), -on, self._w(cx, cy)))
            fallen_mass += cm
            land = tip + self.ms(100, 250)
            fate = self.rng.below(100)
            lx = max(-1000, min(1000, cx + self.between(-500, 500)))
            ly = max(-1000, min(1000, cy + self.between(-500, 500)))
            lw = self._w(lx, ly)
            if fate < self.stay + self.bounce:
                # It hits the tray: the impulse of its fall rings the tray,
                # and it bounces back up with e percent of its speed.
                e = self.between(20, 60) if fate < self.stay else self.between(10, 30)
                impulse = cm * (land - tip) * (100 + e) // 100
                period, tau = self.ms(14, 30), self.ms(10, 40)
                thud = self._add(impulse_ring(land, period, tau, impulse, lw))
                end = max(end, self._settles(thud))
                hit += 1
            if fate < self.stay:
                # It stays: in the air for 2e percent of its fall (its weight
                # still off the tray), it lands again and stops, so the
                # impulses add up to its weight over all the time it was off,
                # as momentum requires (a cat at rest before and after).
                again = land + (land - tip) * 2 * e // 100
                second = self._add(impulse_ring(again, period, tau,
                                                cm * (land - tip) * e // 100, lw))
                end = max(end, self._settles(second))
                self._add(Ramp(again, self.ms(10, 40), cm, lw))
                self.loose.append([cm, lx, ly])
                stayed += 1
                land = again
            else:
                left += 1
            end = max(end, land + 40 * US_PER_MS)
        rock = self._add(Ring(crash + 150 * US_PER_MS, self.ms(150, 400), self.ms(80, 250),
                              fallen_mass * self.between(-50, 50) // 100, self._w()))
        end = max(end, self._settles(rock))
        return self._record("collapse", start, end, before, left=left, stayed=stayed,
                            fell=left + stayed, hit=hit, held=held)

    def remove(self, most=3):
        """Fallen cats lifted off the tray by hand (put aside, as the rules say)."""
        if not self.loose:
            raise ValueError("no fallen cats on the tray to remove")
        start = self.wait()
        before = self.cats()
        n = min(len(self.loose), 1 + self.rng.below(most))
        took = [self.loose.pop() for _ in range(n)]
        mass = sum(c[0] for c in took)
        w = self._w(took[0][1], took[0][2])
        grip = self.ms(150, 400)
        self._add(Bump(start, grip, self.share(mass, 10, 40), w))
        lift = self.ms(100, 400)
        self._load_change(start + grip - lift // 2, lift, -mass, w)
        self._hand(start, grip + lift, mass, w, press=False)
        return self._record("removed", start, start + grip + lift, before)

    def fail(self, kind, cell=None):
        """The sensor dies now."""
        start = self.wait()
        self.trace.fault(start, kind, cell)
        return self._record("fault", start, start, self.cats(), fault=kind)

    # ---- whole sequences -------------------------------------------------

    def calibrate(self, cats=5, corners=False):
        """The maker's calibration: the empty base, hands off, then cats added
        one at a time. Returns [(t_us, k)]: when OK was pressed with k cats on
        the tray; the tray stays still for half a second longer than a
        capture takes after each press (1 s at 80 readings/s, 2 s at 10).
        With corners (four cells), the cats are then lifted off and one cat
        is set above each corner in turn: (t_us, "corner", i) when OK was
        pressed."""
        hold = (1500 if self.trace.rate_hz == 80 else 2500) * US_PER_MS
        self.t = self.ms(300, 800)
        marks = [(self.t, 0)]
        self.t += hold
        for k in range(1, cats + 1):
            self.place()
            self.t += self.ms(400, 1200)
            marks.append((self.t, k))
            self.t += hold
        if corners:
            weight = self.tower[0][0]
            for cat in self.tower:
                self._add(Ramp(self.t, self.ms(100, 300), -cat[0], self._w(cat[1], cat[2])))
            self.tower = []
            self.t += 1500 * US_PER_MS
            for i, (x, y) in enumerate(((-1000, -1000), (1000, -1000), (1000, 1000),
                                        (-1000, 1000))):
                w = self._w(x, y)
                self._add(Ramp(self.t, self.ms(100, 300), weight, w))
                self.t += self.ms(800, 1500)
                marks.append((self.t, "corner", i))
                self.t += hold
                self._add(Ramp(self.t, self.ms(100, 300), -weight, w))
                self.t += 1000 * US_PER_MS
        return marks

    def calibrated(self, calibrator, cats=5, corners=False, after_us=1500000):
        """The maker's calibration (calibrate()) played into `calibrator`
        (catnip.tray's Calibrator for this trace's rate and cells): every
        conversion fed straight in, each capture started when OK was
        pressed, until after_us past the last press. Returns the answers
        its captures gave, in order."""
        marks = self.calibrate(cats, corners)
        trace, answers = self.trace, []
        k = mark = 0
        while k * trace.period < self.t + after_us:
            t = k * trace.period
            if mark < len(marks) and t >= marks[mark][0]:
                if len(marks[mark]) == 3:
                    calibrator.capture_corner(marks[mark][2])
                else:
                    calibrator.capture(marks[mark][1])
                mark += 1
            if trace.cells == 1:
                got = calibrator.feed(trace.counts_at(t))
            else:
                got = calibrator.feed4(*trace.counts4_at(t))
            if got is not None:
                answers.append(got)
            k += 1
        return answers

    def game(self, bag=36, touch_pct=5):
        """A whole game: tare time, the wedged cats, then placements with
        collapses (likelier as the tower grows), tidying and the odd touch,
        until the bag is empty."""
        self.t = 2000 * US_PER_MS
        self.tare_at = self.t - 1000 * US_PER_MS
        for _ in range(self.WEDGED):
            self.place()
        while bag > 0:
            if self.loose:
                self.remove()
                continue
            if self.rng.below(100) < touch_pct:
                self.touch()
                continue
            height = len(self.tower) - self.WEDGED
            if self.rng.below(1000) < min(400, 12 * height):
                rec = self.collapse()
                bag -= 0 if rec["held"] else 1
            else:
                self.place()
                bag -= 1
        self.t += 2000 * US_PER_MS
        return self.truth
