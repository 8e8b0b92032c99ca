# Where the cats' weight sits on a four-cell tray: the centre of pressure
# from each cell's share of the mass, each share corrected by the cell's
# calibrated gain so that the lean is a measurement, not a gauge.
from catnip.tray.calibration import GAIN_ONE
from catnip.tray.common import isqrt, scaled


def lean(cell_mass, gain, per_cat):
    """[r, x, y] in thousandths of half the cell spacing from the centre (x to
    the right, y to the back; r the distance): 1000 is above the line between
    two cells, the edge of the support. [0, 0, 0] with less than half a cat
    on the tray. cell_mass: counts per cell (left-front, right-front,
    right-back, left-back); gain: 1024ths per cell."""
    a = scaled(cell_mass[0], GAIN_ONE, gain[0])
    b = scaled(cell_mass[1], GAIN_ONE, gain[1])
    c = scaled(cell_mass[2], GAIN_ONE, gain[2])
    d = scaled(cell_mass[3], GAIN_ONE, gain[3])
    total = a + b + c + d
    if total < per_cat // 2:
        return [0, 0, 0]
    while total >= 1 << 19:  # keep x * 1000 below 2**30
        a >>= 1
        b >>= 1
        c >>= 1
        d >>= 1
        total = a + b + c + d
    x = (b + c - a - d) * 1000 // total
    y = (c + d - a - b) * 1000 // total
    return [isqrt(x * x + y * y), x, y]
