# Calibration: what a maker's calibration measured (a JSON-ready dict), and
# the checks and still-capture statistics the Calibrator (calibrator.py, loaded
# only while a tray is calibrated) shares with play. Runs once per tray or
# capture, never per reading in play, so it may allocate.

from catnip.tray.common import FULL_SCALE, MIN_COUNT, TrayError, is_int

VERSION = 2  # version 1 had no per-cell gain; it loads with every gain 1.0
GAIN_ONE = 1024  # gains are kept in 1024ths
CORNERS = ("left-front", "right-front", "right-back", "left-back")


def _refuse(field, message):
    raise TrayError("%s %s" % (field, message), field)


def check_rate(rate_hz, field="rate_hz"):
    if not is_int(rate_hz) or rate_hz not in (10, 80):
        _refuse(field, "must be 10 or 80 (the HX711's two rates, as its RATE pin is wired), "
                       "not %r" % (rate_hz,))


def check_cells(cells, field="cells"):
    if not is_int(cells) or cells not in (1, 4):
        _refuse(field, "must be 1 or 4 (one load cell, or four under the corners), not %r"
                % (cells,))


def _int_in(field, v, lo, hi, why=""):
    if not is_int(v) or not lo <= v <= hi:
        _refuse(field, "must be a whole number from %d to %d%s, not %r" % (lo, hi, why, v))


def _per_cell(field, v, cells, lo, hi):
    if type(v) not in (list, tuple) or len(v) != cells:
        _refuse(field, "must be a list with one entry per cell (%d), not %r" % (cells, v))
    for x in v:
        _int_in(field, x, lo, hi)


class Calibration:
    """What the tray learned from a maker's calibration; saved as a JSON-ready
    dict (to_dict/from_dict) and reused.

    rate_hz: readings/s it was made at; zero: each cell's reading with the empty
    base (counts); sign: +1 or -1 per cell (the way its reading moves under
    load); per_cat: counts one average cat adds; cat_sd: how much cats differ
    (counts, standard deviation); noise: reading noise of the total (counts,
    standard deviation); cats: how many cats per_cat was measured with;
    gain: each cell's sensitivity in 1024ths of the cells' mean (from a weight
    above each corner; all 1024 when not measured).
    """

    FIELDS = ("rate_hz", "zero", "sign", "per_cat", "cat_sd", "noise", "cats", "gain")

    def __init__(self, rate_hz, zero, sign, per_cat, cat_sd, noise, cats, gain=None):
        self.rate_hz = rate_hz
        self.zero = zero
        self.sign = sign
        self.per_cat = per_cat
        self.cat_sd = cat_sd
        self.noise = noise
        self.cats = cats
        self.gain = gain
        self.check()
        self.zero = list(zero)
        self.sign = list(sign)
        self.gain = list(self.gain)

    def check(self):
        """Raise TrayError naming the first field that is not what a tray
        can use (Tray() checks again: the fields may have been changed)."""
        check_rate(self.rate_hz)
        zero, sign = self.zero, self.sign
        if type(zero) not in (list, tuple) or len(zero) not in (1, 4):
            _refuse("zero", "must be a list with one entry per cell (1 or 4 cells), not %r"
                    % (zero,))
        cells = len(zero)
        _per_cell("zero", zero, cells, MIN_COUNT, FULL_SCALE)
        if type(sign) not in (list, tuple) or len(sign) != cells:
            _refuse("sign", "must be a list with one entry per cell (%d), not %r" % (cells, sign))
        for s in sign:
            if not is_int(s) or s not in (1, -1):
                _refuse("sign", "entries must be 1 or -1, not %r" % (s,))
        per_cat = self.per_cat
        _int_in("per_cat", per_cat, 20, (1 << 19) - 1,
                ": below 20 a cat is lost in the noise (use a smaller load cell), above it "
                "calibrate again")
        _int_in("cat_sd", self.cat_sd, 0, per_cat // 2 - 1, " (half a cat)")
        _int_in("noise", self.noise, 1, per_cat // 2 - 1,
                ": noisier than half a cat the tray cannot count; check the wiring and "
                "shield the cable")
        _int_in("cats", self.cats, 1, 200, " (the cats per_cat was measured with)")
        if self.gain is None:
            self.gain = [GAIN_ONE] * cells
        _per_cell("gain", self.gain, cells, GAIN_ONE // 2, GAIN_ONE * 2)

    @property
    def cells(self):
        return len(self.zero)

    def to_dict(self):
        d = {"version": VERSION}
        for k in self.FIELDS:
            v = getattr(self, k)
            d[k] = list(v) if isinstance(v, list) else v
        return d

    @classmethod
    def from_dict(cls, d):
        """A Calibration from a saved dict. Anything wrong (a missing, extra or
        malformed field) raises TrayError naming the field."""
        if type(d) is not dict:
            raise TrayError("a saved calibration is a dict, not %s" % type(d).__name__)
        version = d.get("version")
        if not is_int(version) or version not in (1, VERSION):
            _refuse("version", "%r is not one this firmware reads (1 or %d): calibrate the "
                    "tray again" % (version, VERSION))
        fields = cls.FIELDS if version == VERSION else cls.FIELDS[:-1]
        missing = [k for k in fields if k not in d]
        if missing:
            _refuse(missing[0], "is missing from the calibration (it lacks %s): calibrate "
                    "the tray again" % ", ".join(missing))
        extra = [k for k in d if k != "version" and k not in fields]
        if extra:
            k = extra[0]
            raise TrayError("%r is not a calibration field (expected %s)"
                            % (k, ", ".join(fields)), k if type(k) is str else None)
        if version == VERSION and d["gain"] is None:
            _refuse("gain", "must be a list with one entry per cell, not None")
        return cls(*[d[k] for k in fields])


def capture_stats(buf, n, cells):
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


def capture_length(rate_hz):
    """Readings in a still capture: 1 s at 80/s, 2 s at 10/s."""
    return 20 if rate_hz == 10 else rate_hz
