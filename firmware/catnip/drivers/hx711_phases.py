# When each HX711 of a group converts, as catnip.drivers.hx711 learns it:
# per chip the bracket of its last observed conversion (after `lo`, within
# `w`, from the poll that saw its DOUT fall or the pin interrupt's stamp)
# and its period, pooled from the intervals between conversions. Once every
# period is known it predicts the gaps between the chips' reloads where a
# clocking pass fits. It imports only the interpreter's built-ins.
#
# Allocation-free like the driver's read path: preallocated arrays, and
# every intermediate far below 2**30.
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


_RELOAD_US = const(75)  # DOUT high while a conversion reloads the output
_LEARNED = const(16)  # conversions seen before a chip's period is trusted
_POOLED = const(64)  # conversions pooled into a period at most (then halved)
_IRQ_US = const(100)  # a DOUT interrupt runs within this of the fall


class Phases:
    """The conversions of n chips of nominal period `period_us`; `falls` is
    the pin interrupt's Falls, or None when only the polls time them."""

    def __init__(self, n, period_us, falls, clock):
        self._n = n
        self._all = (1 << n) - 1
        self._nominal_us = period_us
        self._falls = falls
        self._clock = clock
        self._ready_lo = array("i", bytes(4 * n))
        self._ready_w = array("i", bytes(4 * n))
        self._mark = array("i", bytes(4 * n))
        self._marked = 0  # chips whose _mark holds a conversion
        self._fresh = 0  # chips with a conversion observed since the last restart
        self.periods = array("i", [period_us] * n)  # learned, us
        self._sum_us = array("i", bytes(4 * n))  # the sums of conversion intervals
        self._sum_n = array("i", bytes(4 * n))  # ... and of their counts
        self._counted = array("i", bytes(4 * n))

    def restart(self):
        """The chips were restarted together: their phases are new."""
        self._marked = self._fresh = 0

    def note(self, fell, polled_us, now_us):
        """The chips in `fell` converted since their DOUT was last seen high:
        note when, and learn their periods from the intervals."""
        clock = self._clock
        for i in range(self._n):
            if not fell >> i & 1:
                continue
            lo = polled_us  # it was high then
            w = clock.ticks_diff(now_us, lo)
            if self._falls is not None:
                at = self._falls.take(i)
                d = clock.ticks_diff(at, lo) if at != -1 else -1
                if 0 <= d <= w:
                    # The interrupt ran at most _IRQ_US after the fall.
                    skip = d - _IRQ_US if d > _IRQ_US else 0
                    lo = (lo + skip) & 0x3FFFFFFF
                    w = d - skip
            self._ready_lo[i] = lo
            self._ready_w[i] = w
            self._fresh |= 1 << i
            if w > self._nominal_us >> 3:
                self._marked &= ~(1 << i)  # polled too late to time it
                continue
            mid = lo + (w >> 1)
            if self._marked >> i & 1:
                p = self.periods[i]
                d = clock.ticks_diff(mid, self._mark[i])
                k = (d + (p >> 1)) // p
                if 1 <= k <= (4 if self._counted[i] >= _LEARNED else 2):
                    self._sum_us[i] += d
                    self._sum_n[i] += k
                    if self._sum_n[i] >= _POOLED:
                        self._sum_us[i] >>= 1
                        self._sum_n[i] >>= 1
                    if self._sum_n[i] >= 8:
                        self.periods[i] = self._sum_us[i] // self._sum_n[i]
                    if self._counted[i] < _LEARNED:
                        self._counted[i] += k
            self._mark[i] = mid & 0x3FFFFFFF
            self._marked |= 1 << i

    def wait(self, now_us, budget, in_step):
        """By the learned periods: 0 if a pass started now ends before any
        chip may reload, else how long to wait (us) for the next gap; -1
        while some chip's period or last conversion is not known, or the
        chips are not `in_step`. `budget`: the time allowed for a pass."""
        if self._fresh != self._all or not in_step:
            return -1  # after a fault the chips are restarted first
        clock = self._clock
        wait = 0
        for i in range(self._n):
            if self._counted[i] < _LEARNED:
                return -1
            p = self.periods[i]
            el = clock.ticks_diff(now_us, self._ready_lo[i])
            if el < 0 or el > 4 * p:
                return -1  # too long unobserved for the prediction to hold
            w = self._ready_w[i]
            # Its next conversions fall within w after lo + j * p; keep clear
            # of each by the reload and a guard growing with j.
            j = el // p
            while True:
                guard = 50 + (j + 1) * (p >> 8)
                start = (j + 1) * p - _RELOAD_US - guard - el  # from now
                end = (j + 1) * p + w + guard - el
                if end > 0:
                    break
                j += 1
            if j >= 1 and el - j * p < w + guard:
                start = 0  # the last one may not have happened yet
                end = j * p + w + guard - el
            if start <= budget and end > wait:
                wait = end
        return wait

    def due(self, missing, budget, in_step):
        """With conversions timed by interrupt and every period learned: how
        long until the last chip in `missing` converts, at the latest; else -1."""
        clock = self._clock
        now_us = clock.ticks_us()
        if self._falls is None or self.wait(now_us, budget, in_step) < 0:
            return -1
        due = 0
        for i in range(self._n):
            if missing >> i & 1:
                p = self.periods[i]
                el = clock.ticks_diff(now_us, self._ready_lo[i])
                d = p + self._ready_w[i] - el % p
                if d > due:
                    due = d
        return due
