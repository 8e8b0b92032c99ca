# Why HX711s could not be read: the fault codes (and what an attempt at a
# reading gave when it was none), the SensorFault that carries one with the
# cells concerned, and the words that tell whoever wires the tray what to
# check. catnip.drivers.hx711 raises these; the table catches SensorFault.
# It imports nothing.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


# Why a read failed (SensorFault.code).
NO_DATA = const(1)  # DOUT never went low: no chip, no power, or a cut wire
STUCK_LOW = const(2)  # DOUT stayed low through a read: wire shorted to ground
TOO_SLOW = const(3)  # no pass could be fitted between conversions
WRONG_RATE = const(4)  # the chips convert faster than `rate` says

# What one attempt at a reading gave, when it is not a fault code.
OK = const(0)
SETTLING = const(-1)
RESTARTED = const(-2)
WAIT = const(-3)  # a reload is due before a pass could end: wait the group's _wait_us


class SensorFault(Exception):
    """Cells that cannot be read. code is NO_DATA, STUCK_LOW, TOO_SLOW or
    WRONG_RATE; cells is a bit mask of the cells concerned (bit 0 = the
    first DOUT)."""

    def __init__(self, message, code, cells):
        super().__init__(message)
        self.code = code
        self.cells = cells


def describe(code, cells, douts, timeout_ms, pass_us, window_us, rate):
    """The SensorFault for `code` on `cells` (a mask over `douts`, the DOUT
    pins), its message worded from the group's timing. The message is
    formatted in one piece: on a fragmented heap a fault must not need room
    for its words twice."""
    names = ", ".join("%d (DOUT %s)" % (i, _pin(douts[i]))
                      for i in range(len(douts)) if cells >> i & 1)
    if code == NO_DATA:
        text = ("load cell %s gave no conversion within %d ms: check the HX711's power and "
                "ground and the DOUT and PD_SCK wires" % (names, timeout_ms))
    elif code == STUCK_LOW:
        text = ("load cell %s held DOUT low through a whole read: the DOUT wire is shorted "
                "to ground or no HX711 drives it" % names)
    elif code == TOO_SLOW:
        text = ("load cell %s could not be read in time: a pass (about %d us here) must end "
                "within %d us of the conversions it reads, and the chips drifted apart "
                "again before they settled; use rate=10, HX711PIO, fewer cells per PD_SCK "
                "pin, or poll more often (less task or interrupt load)"
                % (names, pass_us, window_us))
    else:
        text = ("load cell %s converted again within %d us, faster than rate=%d allows: "
                "check the RATE pin (low: 10, high: 80 samples/s) and the clock source"
                % (names, window_us, rate))
    return SensorFault(text, code, cells)


def _pin(pin):
    # A pin by its name: the rp2 port's repr, "Pin(GPIO16, mode=IN,
    # pull=PULL_UP)", would take a fifth of a four-cell message.
    text = "%s" % (pin,)
    return text[text.find("(") + 1:].split(",")[0].rstrip(")")
