# An episode: the load moving, from the reading that left the still band to
# the verdict. It keeps the running extremes that tell cats striking the
# tray from a hand (docs/tray.md, "Impacts", has the measurements).
from catnip.tray.common import const, scaled
from catnip.tray.readings import MASK

# What an impact looks like, in thousandths of a cat. A bend (second
# difference over ~25 ms) beyond SHARP is sharper than any hand. At 10
# readings/s the converter's averaging spreads a thud to the size of a
# finger's poke, so a milder bend (_BEND) counts only with the shape of a
# fall: cats leaving the tray after a landing (the load rose by _LANDING
# from a low point it had fallen to: a hand gripping cats to lift them
# presses before the drop, not after), or cats staying on the tray after the
# load dipped below where it ends (_FALL) and then overshot it (_BOUNCE).
# During an attempt at 10/s a landing can hide under the placing hand's
# weight, its bend mild: a rise from a low point that ends above both where
# the load started and where it ends is one: 0.8 of a cat ending a fifth of
# one above (_ROSE, _ABOVE), or 0.4 ending 0.45 above (_ROSE_BIT,
# _ABOVE_MORE), plus three noise sigma above. A poke rises with no fall
# before it, a cat reseated rises no higher than it was, a placing hand does
# neither by that much. And a cat can bear on the tower and be gone again
# with the count unchanged (the player kept it, a cat that fell stayed on
# the tray): the load stayed a fifth of a cat above both ends (_HOLD) for
# _HELD readings (400 ms, longer than a poke lasts) and within them reached
# _BORNE above them, more than a hand presses without a cat (each plus a
# noise sigma; three would miss most of them at 2 % noise).
SHARP = {10: 5000, 80: 6000}
_BEND = const(1000)
_LANDING = const(1000)
_FALL = const(500)
_BOUNCE = const(500)
_ROSE = const(800)
_ABOVE = const(200)
_ROSE_BIT = const(400)
_ABOVE_MORE = const(450)
_HOLD = const(200)
_BORNE = const(700)
_HELD = const(4)
_NONE = const(1 << 29)  # no low point yet


class Episode:
    """The bend, the rebound after a fall, the top and bottom of the load,
    and how long it has been moving (in readings)."""

    def __init__(self, rate, per_cat):
        self._span = max(1, rate // 40)  # ~25 ms: the bend of an impact
        self._sharp = scaled(per_cat, SHARP[rate], 1000)
        self._slow = rate < 40  # a thud averaged into a conversion or two
        self.start(0, per_cat, 0)

    def start(self, before, per_cat, noise):
        self.before = before  # the still level the episode left
        self.since = 0
        self.jolt = 0
        self.top = self.bottom = before
        self.noise = noise
        # A fall: a tenth of a cat below an earlier reading, beyond the noise.
        self._drop = max(per_cat // 10, 4 * noise)
        self._low = _NONE  # the lowest reading that fell so
        self.rebound = 0  # the largest rise from it: a landing after a fall
        # Over every _HELD readings in a row: the highest floor, and the
        # highest top of those whose floor is _HOLD above where it began.
        self.held = self.held_top = -_NONE
        self._hold = before + scaled(per_cat, _HOLD, 1000)
        self.flat_odd = 0  # still windows whose load was not whole cats
        self.warned = False  # "handling" said

    def odd(self):
        """A still window whose load is no whole number of cats: how many
        such there were, doubled (each unflat window since took one off)."""
        self.flat_odd += 2
        return self.flat_odd

    def leak(self):
        """A window that is not flat: the odd ones fade, a stray one does not
        start the wait over."""
        self.flat_odd -= 1

    def warn(self):
        """The episode was said to be a hand (handling): said once."""
        self.warned = True

    def track(self, readings):
        """The latest reading is part of the episode."""
        self.since += 1
        ring, i, span = readings.ring, readings.i, self._span
        if readings.seen > 2 * span:
            bend = ring[i] - 2 * ring[(i - span) & MASK] + ring[(i - 2 * span) & MASK]
            if bend < 0:
                bend = -bend
            if bend > self.jolt:
                self.jolt = bend
        y = ring[i]
        if y > self.top:
            self.top = y
        elif self.top - y >= self._drop and y < self._low:
            self._low = y
        if y < self.bottom:
            self.bottom = y
        if y - self._low > self.rebound:
            self.rebound = y - self._low
        if self._slow and self.since >= _HELD:
            lo = hi = y
            for k in range(1, _HELD):
                v = ring[(i - k) & MASK]
                if v < lo:
                    lo = v
                elif v > hi:
                    hi = v
            if lo > self.held:
                self.held = lo
            if lo >= self._hold and hi > self.held_top:
                self.held_top = hi

    def impact(self, m, per_cat, attempt=False):
        """Did cats hit the tray during this episode, now still at mean m?
        Only a drop with an impact, or a loss during an attempt, is a
        collapse; a drop without one between turns is hands lifting cats."""
        jolt = self.jolt
        if jolt >= self._sharp:
            return True
        before = self.before
        above = self.top - (before if before > m else m)
        if attempt and self._slow:
            up, clear = self.rebound, above - 3 * self.noise
            if up >= scaled(per_cat, _ROSE_BIT, 1000) and (
                    clear >= scaled(per_cat, _ABOVE_MORE, 1000)
                    or up >= scaled(per_cat, _ROSE, 1000) and clear >= scaled(per_cat, _ABOVE, 1000)):
                return True
            if self.borne(m, per_cat):
                return True
        if jolt < scaled(per_cat, _BEND, 1000):
            return False
        if m < before - (per_cat >> 1):  # cats left the tray: did some land first?
            return self.rebound >= scaled(per_cat, _LANDING, 1000)
        below = (before if before < m else m) - self.bottom
        return below >= scaled(per_cat, _FALL, 1000) and above >= scaled(per_cat, _BOUNCE, 1000)

    def borne(self, m, per_cat):
        """Did a cat bear on the tower for a while and go, the load ending
        (mean m) within half a cat of where it began?"""
        before, noise = self.before, self.noise
        hi = before if before > m else m
        return (-(per_cat >> 1) < m - before < per_cat >> 1
                and self.held - hi >= scaled(per_cat, _HOLD, 1000) + noise
                and self.held_top - hi >= scaled(per_cat, _BORNE, 1000) + noise)
