# What every stage of the tray shares: its error, the HX711's codes and the
# integer arithmetic that keeps both interpreters deciding alike (no floats;
# every intermediate below 2**30, a small int on the Pico).
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


FULL_SCALE = const(0x7FFFFF)
MIN_COUNT = const(-0x800000)
ALL_ONES = const(-1)  # 0xFFFFFF: what a DOUT line stuck high reads as

# 100 / (1 + exp(-x)) at x = 0, 1/4, 1/2, ...: confidence in the nearest whole
# number of cats from its log-likelihood ratio against the next one.
LOGISTIC = (50, 56, 62, 68, 73, 78, 82, 85, 88, 90, 92, 94, 95, 96, 97, 98,
            98, 99, 99, 99, 99, 99)


class TrayError(ValueError):
    """Bad calibration data, a bad reading or a bad answer. The message names
    what was wrong and what to do; `field` names the calibration field or
    argument concerned (None when it is not one)."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.field = field


def is_int(v):
    """A whole number, not a bool (True == 1 would pass isinstance)."""
    return type(v) is int


def scaled(x, num, den):
    """x * num // den without overflowing 31 bits for large x."""
    return x // den * num + x % den * num // den


def isqrt(n):
    if n <= 0:
        return 0
    r = n
    y = (r + 1) >> 1
    while y < r:
        r = y
        y = (r + n // r) >> 1
    return r


def is_whole(r, var):
    """Is a remainder of r thousandths of a cat what whole cats leave, given
    the variance expected of it? Within 0.2 always, within 0.4 if 3 sigma."""
    return -400 <= r <= 400 and (-200 <= r <= 200 or r * r <= 9 * var)


def is_clean(r, var):
    """Is a remainder of r thousandths of a cat what whole cats leave with
    no hand holding part of one? Within 2 sigma of the expected spread, and
    never beyond 0.15."""
    return -150 <= r <= 150 and r * r <= 4 * var


def confidence(r, var):
    """Percent confidence that the nearest whole number of cats is right
    rather than the next one, for a remainder r (thousandths of a cat) and
    the variance expected of it."""
    a = r if r >= 0 else -r
    x4 = 2000 * (1000 - 2 * a) // var
    return 100 if x4 >= len(LOGISTIC) else LOGISTIC[x4]
