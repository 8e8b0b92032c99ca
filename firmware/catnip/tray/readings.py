# The reading filter: the latest readings, whether they are still, and the
# still level with the drift filter that follows it; the tray's state (still,
# moving or measuring the zero) and its clock in readings. Allocates nothing.
from array import array

from catnip.tray.common import const, isqrt, scaled

_RING = const(16)  # recent readings (a power of two)
MASK = const(15)
SHORT = const(3)  # readings in the short flatness window
FRAC = const(3)  # levels are kept x8, an eighth of a count

# The tray's state (Readings.state): still since a verdict, moving (an
# episode), or collecting a still second for the zero. A sensor fault is the
# Tray's own: the state waits under it unchanged.
SETTLED = const(0)
MOVING = const(1)
TARING = const(2)

# What still() says about the tray (STILL is 0: nothing to call).
STILL = const(0)
LOST = const(1)  # half a second after the verdict: a loss not set back is a removal
QUIET = const(2)  # half a second still: the turn is over


class Readings:
    """The ring of the latest totals (and, with four cells, of each cell),
    the noise bands, and the level of a still tray.

    While still, for half a second after a verdict the readings refine the
    verdict's level (their running mean); after that a slow filter (time
    constant ~3 s) follows drift and creep, which move the zero, never the
    count.

    `samples` counts the readings due since the tray started (each pushed,
    and each missed), the clock every event's time is read from (ms())."""

    def __init__(self, cells, rate, noise, per_cat):
        self.cells = cells
        self.rate = rate
        self.samples = 0
        self.state = MOVING
        # The flatness bands never narrow below a few hundredths of a cat:
        # a very quiet sensor would otherwise wait for a wobble to die far
        # below what a settled load means (a twentieth of a cat).
        self._floor = per_cat * 6 // 100
        self.ring = array("i", bytes(4 * _RING))
        self.cell_ring = array("i", bytes(4 * _RING * cells))
        self.i = 0
        self.seen = 0  # readings in the ring since a start or a fault
        # ~100 ms that must be flat; three quarters of it (the early window)
        # are enough for cats placed, a clean whole number of them.
        self.long = max(SHORT, rate // 10)
        self.quiet_after = rate // 2  # still for 0.5 s: the turn is over
        # A loss without an impact is called half a second after the load
        # settled (the long window, then this): a cat lifted to be reseated
        # would be back by then.
        self._lost_after = rate // 2 - self.long
        self._drift = 5 if rate == 10 else 8  # zero follows with a ~3 s time constant
        self.level = 0  # still level x8, relative to the calibration zero
        self.near = 0  # x8: the level a reading is compared with (see still)
        self.verdict_level = 0
        self.quiet = 0
        self._sum = self._half = 0
        self.cell_level = array("i", bytes(4 * cells))  # x8, like level
        self.cell_mass = array("i", bytes(4 * cells))  # each cell's share of the mass
        self._cell_sum = array("i", bytes(4 * cells))
        # The still second of a tare (1.3 KB with four cells at 80/s): taken
        # when a tare starts and let go once it has measured the zero; a game
        # that never tares (the base stays on the tray) never holds it.
        self._tare_buf = None
        self._tare_fill = 0
        self.set_noise(noise)

    def set_noise(self, sigma):
        self.noise = sigma = max(1, sigma)
        self.enter = sigma * 9 // 2 + 1
        self._band_short = max(sigma * 4, self._floor) + 1
        self._band_long = max(sigma * 5, self._floor * 5 // 4) + 1
        # Three standard errors of the difference between the means of the
        # two halves of the quiet period (x8), beyond which it had a trend.
        # Mistaking noise for a trend only makes the quiet half a second later.
        q = self.quiet_after
        h = q >> 1
        self._trend = sigma * isqrt(1024 * 9 * q // (h * (q - h))) >> 2

    def push(self, y):
        self.samples += 1
        i = self.i = (self.i + 1) & MASK
        self.ring[i] = y
        if self.seen < _RING:
            self.seen += 1
        return i

    def slot(self):
        """Where the next reading's cells go in cell_ring."""
        return ((self.i + 1) & MASK) << 2

    def restart(self):
        self.seen = 0
        self._tare_fill = 0

    def move(self):
        """The load is moving (it left the still band, or slides within it)."""
        self.state = MOVING

    def start_tare(self):
        self.state = TARING
        self.restart()
        if self._tare_buf is None:
            from catnip.tray.calibration import capture_length  # a tare's only

            self._tare_buf = array("i", bytes(4 * capture_length(self.rate) * self.cells))

    def ms(self):
        """The latest reading's time: milliseconds since the tray started."""
        return scaled(self.samples, 1000, self.rate)

    # ---- still -----------------------------------------------------------

    def leaves(self, y):
        """Does reading y leave the still band?"""
        d = y - (self.near >> FRAC)
        return d < -self.enter or d > self.enter

    def still(self, y):
        """A reading within the band of a still tray: STILL, LOST or QUIET."""
        quiet = self.quiet
        if quiet < self.quiet_after:
            self._sum += y - self.verdict_level
            quiet = self.quiet = quiet + 1
            self.level = (self.verdict_level << FRAC) + (self._sum << FRAC) // quiet
            # Right after a verdict the level is the mean of a reading or
            # two: the next reading would differ from it by up to the square
            # root of two times the noise, and leave the band by chance. So
            # the band is kept around the mean of these readings and the
            # verdict's window (weighed as two readings).
            self.near = (self.verdict_level << FRAC) + (self._sum << FRAC) // (quiet + 2)
            if self.cells == 4:
                ring, k = self.cell_ring, self.i << 2
                acc, lv = self._cell_sum, self.cell_level
                for c in range(4):
                    acc[c] += ring[k + c] - (lv[c] >> FRAC)
            if quiet == self.quiet_after >> 1:
                self._half = self._sum
            if quiet == self._lost_after:
                return LOST
            if quiet == self.quiet_after:
                return QUIET
            return STILL
        sh = self._drift
        self.level += ((y << FRAC) - self.level) >> sh
        self.near = self.level
        if self.cells == 4:
            ring, k, lv = self.cell_ring, self.i << 2, self.cell_level
            for c in range(4):
                lv[c] += ((ring[k + c] << FRAC) - lv[c]) >> sh
        return STILL

    def trending(self):
        """Did the quiet half second have a trend (its halves differ by more
        than three standard errors)? A hand letting go slowly, not a still
        tray."""
        q, h = self.quiet_after, self.quiet_after >> 1
        trend = ((self._sum - self._half) << FRAC) // (q - h) - (self._half << FRAC) // h
        return trend > self._trend or -trend > self._trend

    def refine(self):
        """What the still readings since the verdict learned about the load:
        the change of level to add to the mass (they measured the same load
        more precisely). From then on the level follows drift."""
        quiet = self.quiet
        if quiet == 0 or quiet > self.quiet_after:
            return 0
        level = self.level >> FRAC
        change = level - self.verdict_level
        self.verdict_level = level
        self.near = self.level
        self._sum = 0
        self.quiet = self.quiet_after + 1
        if self.cells == 4:
            acc, lv, cm = self._cell_sum, self.cell_level, self.cell_mass
            for c in range(4):
                d = acc[c] // quiet
                cm[c] += d
                lv[c] += d << FRAC
                acc[c] = 0
        return change

    def settle_at(self, m):
        """A verdict at mean m: the tray is still, its level starts from it."""
        self.state = SETTLED
        self.verdict_level = m
        self.level = self.near = m << FRAC
        self.quiet = 0
        self._sum = 0
        if self.cells == 4:
            for c in range(4):
                self._cell_sum[c] = 0

    def remember_cells(self, absolute):
        """Each cell's share of the change, for the lean."""
        if self.cells != 4:
            return
        ring, lv, cm = self.cell_ring, self.cell_level, self.cell_mass
        for c in range(4):
            s = 0
            for k in range(SHORT):
                s += ring[(((self.i - k) & MASK) << 2) + c]
            mean = s // SHORT
            if absolute:
                cm[c] = mean
            else:
                cm[c] += mean - (lv[c] >> FRAC)
            lv[c] = mean << FRAC

    # ---- moving ----------------------------------------------------------

    def flat(self, early):
        """How many of the latest readings are still: the long window's
        length if it and the short window are within their bands, the early
        window's (`early` readings) if only that one is, else 0. Readings within the short
        window keep to the short band, older ones to the long band."""
        if self.seen < self.long:
            return 0
        ring, i = self.ring, self.i
        lo = hi = ring[i]
        flat = 0
        band = self._band_short
        early -= 1
        for k in range(1, self.long):
            v = ring[(i - k) & MASK]
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
            if k == SHORT - 1:
                if hi == lo and self.noise > 1:
                    return 0  # perfectly equal readings: a sensor about to be called stuck
                band = self._band_long
        return self.long

    def mean(self, w):
        """Mean of the latest readings: the short window, or fewer if only
        that many are still."""
        ring, i = self.ring, self.i
        if w < SHORT:
            return (ring[i] + ring[(i - 1) & MASK]) >> 1
        return (ring[i] + ring[(i - 1) & MASK] + ring[(i - 2) & MASK]) // SHORT

    # ---- tare ------------------------------------------------------------

    def tare(self, y):
        """Collect a still second for the zero: None until it is full, then
        (per-cell means, variance), or None again if it was not still (the
        next second is measured)."""
        buf, cells = self._tare_buf, self.cells
        k = self._tare_fill * cells
        if cells == 1:
            buf[k] = y
        else:
            ring, base = self.cell_ring, self.i << 2
            for c in range(4):
                buf[k + c] = ring[base + c]
        self._tare_fill += 1
        n = len(buf) // cells  # a still second of readings
        if self._tare_fill < n:
            return None
        self._tare_fill = 0
        from catnip.tray.calibration import capture_stats

        got = capture_stats(buf, n, cells)
        if isinstance(got, str):
            return None
        self._tare_buf = None
        return got

    def zero_here(self, means):
        """The tare's means are the new zero: no mass on any cell."""
        for c in range(self.cells):
            self.cell_level[c] = means[c] << FRAC
            self.cell_mass[c] = 0
        self.settle_at(sum(means))
        self.quiet = self.quiet_after + 1  # the capture was the refinement
