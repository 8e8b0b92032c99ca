"""Synthetic load-cell traces for the Stack O' Cats tray, with ground truth.

A `Trace` is the force on the tray's load cell(s) over time, built from
effects (a cat's weight arriving, a hand pressing, a tower ringing after an
impact, creep, drift, mains-like vibration) plus Gaussian noise and optional
sensor faults (the shapes are in devsim.effects). A `Session`
(devsim.sessions) plays Stack O' Cats turns onto a trace and keeps the ground
truth: what happened, when the load settled, how many cats are on the tray.

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
