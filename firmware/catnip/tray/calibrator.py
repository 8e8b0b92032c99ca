# The Calibrator: the maker's procedure that measures a Calibration (the
# empty base, cats one at a time, a weight above each corner of a four-cell
# tray). Loaded only while a tray is calibrated (catnip.table.calibrate): in a
# game the Pico's heap holds the Calibration alone.
from array import array

from catnip.tray.calibration import (CORNERS, GAIN_ONE, Calibration, capture_length,
                                     capture_stats, check_cells, check_rate)
from catnip.tray.common import FULL_SCALE, MIN_COUNT, TrayError, is_int, isqrt


class Calibrator:
    """The maker's procedure: put the empty base on the tray, hands off, press
    OK (capture(0)); then add cats one at a time, pressing OK after each
    (capture(k) with k cats on the tray). With four cells, then clear the base
    and put one weight (a cat will do; the same one each time) above each
    corner in turn: capture_corner(0) .. capture_corner(3). Each capture
    averages one second of readings (two at 10 readings/s); result() gives
    the Calibration.

    feed()/feed4() take every reading; they return None, or a dict when a
    capture ends: {"cats": k, "ok": True} (or {"corner": i, "ok": True}), or
    the same with "ok": False and "why" (then press OK again).
    """

    def __init__(self, rate_hz, cells=1):
        check_rate(rate_hz)
        check_cells(cells)
        self.rate_hz = rate_hz
        self.cells = cells
        self._n = capture_length(rate_hz)
        self._buf = array("i", bytes(4 * self._n * cells))
        self._fill = -1  # -1: not capturing
        self._cats = 0
        self._corner = -1
        self.levels = {}  # cats -> per-cell mean readings
        self.corners = {}  # corner -> per-cell mean readings with the weight above it
        self._var = []  # variance of the total, per capture
        self._taken = []  # what each capture stored: (its dict, its key), for undo()

    def capture(self, cats):
        """Start measuring: the tray holds `cats` cats and nobody touches it."""
        if not is_int(cats) or not 0 <= cats <= 200:
            raise TrayError("cats on the tray is a whole number from 0 to 200, not %r"
                            % (cats,), "cats")
        if cats and 0 not in self.levels:
            raise TrayError("capture the empty base (0 cats) first", "cats")
        self._cats = cats
        self._corner = -1
        self._fill = 0

    def capture_corner(self, corner):
        """Start measuring with the corner weight above cell `corner` (0-3:
        left-front, right-front, right-back, left-back) and nothing else."""
        if self.cells != 4:
            raise TrayError("a one-cell tray has no corners to calibrate", "corner")
        if not is_int(corner) or not 0 <= corner <= 3:
            raise TrayError("corner is 0-3 (%s), not %r" % (", ".join(CORNERS), corner),
                            "corner")
        if 0 not in self.levels:
            raise TrayError("capture the empty base (0 cats) first", "corner")
        self._corner = corner
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
        for v in (a, b, c, d):
            if not is_int(v) or not MIN_COUNT <= v <= FULL_SCALE:
                raise TrayError("a reading is a 24-bit count (%d..%d), not %r"
                                % (MIN_COUNT, FULL_SCALE, v), "raw")
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
        done = {"corner": self._corner} if self._corner >= 0 else {"cats": self._cats}
        for v in self._buf:
            if v >= FULL_SCALE or v <= MIN_COUNT:
                done["ok"] = False
                done["why"] = ("the reading is at full scale: check the wiring and that "
                               "nothing presses on the tray, then press OK again")
                return done
        got = capture_stats(self._buf, self._n, self.cells)
        if isinstance(got, str):
            done["ok"] = False
            done["why"] = got + ", then press OK again"
            return done
        means, var = got
        if self._var and var > 16 * min(self._var):
            done["ok"] = False
            done["why"] = "much noisier than before: something touched the tray; press OK again"
            return done
        if self._corner >= 0:
            self.corners[self._corner] = means
            self._taken.append((self.corners, self._corner))
        else:
            self.levels[self._cats] = means
            self._taken.append((self.levels, self._cats))
        self._var.append(var)
        done["ok"] = True
        return done

    def undo(self):
        """Forget the last capture taken, as if it never was (a person found
        it wrong: the cat was not on the base)."""
        if not self._taken:
            raise TrayError("no capture to undo")
        where, key = self._taken.pop()
        del where[key]
        self._var.pop()

    def result(self):
        if 0 not in self.levels:
            raise TrayError("no capture of the empty base yet: capture(0) first")
        counts = sorted(self.levels)
        if len(counts) < 2:
            raise TrayError("add at least one cat and capture it")
        if self.corners and len(self.corners) != 4:
            raise TrayError("corner weights captured for %d of the 4 corners: capture all four corners "
                            "(or calibrate again without them)" % len(self.corners))
        zero = self.levels[0]
        top = counts[-1]
        sign = [1 if self.levels[top][c] >= zero[c] else -1 for c in range(self.cells)]

        def load(k):
            return sum((self.levels[k][c] - zero[c]) * sign[c] for c in range(self.cells))

        per_cat = load(top) // top
        if per_cat < 20:
            raise TrayError("one cat adds %d counts, too few to count (at least 20): use a "
                            "more sensitive load cell, or check its wiring" % per_cat)
        # How much single cats differ, from captures one cat apart.
        singles = [load(b) - load(a) for a, b in zip(counts, counts[1:]) if b == a + 1]
        noise_var = sum(self._var) // len(self._var)
        if len(singles) >= 2:
            mean = sum(singles) // len(singles)
            spread = sum((s - mean) * (s - mean) for s in singles) // (len(singles) - 1)
            cat_sd = isqrt(max(0, spread - 2 * noise_var // self._n))
        else:
            cat_sd = per_cat // 20  # not measured: assume cats differ by 5%
        # A handful of cats says little about their spread: never assume under 2%.
        cat_sd = min(max(cat_sd, per_cat // 50), per_cat // 2 - 1)
        noise = min(max(1, isqrt(noise_var)), per_cat // 2 - 1)
        gain = None
        if self.corners:
            gain = corner_gains([[(self.corners[k][c] - zero[c]) * sign[c]
                                  for c in range(4)] for k in range(4)])
        return Calibration(self.rate_hz, zero, sign, per_cat, cat_sd, noise, top, gain)


def corner_gains(rise):
    """Each cell's gain (1024ths of the mean) from rise[k][c]: how far cell c
    read above its zero with the weight above corner k. The cells share the
    weight whatever its place, so sum(rise[k][c] / gain[c]) is the same for
    every k; the weight above a corner makes the system diagonal enough that
    a few rounds of fixed-point iteration solve it (exact integers, so both
    interpreters agree)."""
    for k in range(4):
        if rise[k][k] * 2 <= sum(rise[k]):
            raise TrayError("with the weight above corner %d (%s) its cell took only part of "
                            "it: put the weight right above that cell, or check the cells' "
                            "order (%s)" % (k, CORNERS[k], ", ".join(CORNERS)), "corner")
    gain = [GAIN_ONE] * 4
    for _ in range(12):
        # The weight as each capture reads it, in mean-gain counts.
        weights = [sum(rise[k][c] * GAIN_ONE // gain[c] for c in range(4)) for k in range(4)]
        w = sum(weights) // 4
        for k in range(4):
            leak = sum(rise[k][c] * GAIN_ONE // gain[c] for c in range(4) if c != k)
            gain[k] = rise[k][k] * GAIN_ONE // max(1, w - leak)
        total = sum(gain)
        gain = [g * 4 * GAIN_ONE // total for g in gain]
    for k in range(4):
        if not GAIN_ONE // 2 <= gain[k] <= 2 * GAIN_ONE:
            raise TrayError("cell %d (%s) reads %d%% of the others' mean: a cell that far off "
                            "is faulty or mounted wrong" % (k, CORNERS[k], gain[k] * 100 // 1024),
                            "corner")
    return gain
