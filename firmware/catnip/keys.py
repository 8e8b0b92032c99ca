# A station's input as catnip names it, shared by the drivers that make it,
# the screens that read it and the app that acts on it: the four buttons (in
# the order of catnip.board.BUTTONS, whatever pins or expander bits they are
# wired to), the kinds of event they raise, and the tick arithmetic that
# times them. PURE: imports nothing of catnip.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: the Pico's 2**30 ms tick period
    _PERIOD = const(1 << 30)
    _HALF = const(1 << 29)

    def ticks_add(t, delta):
        return (t + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        d = (a - b) & (_PERIOD - 1)
        return d - _PERIOD if d >= _HALF else d


UP = const(0)
DOWN = const(1)
OK = const(2)
BACK = const(3)

# Event kinds. A button event is (station, kind, button); a station event has
# button 0.
PRESS = const(0)
RELEASE = const(1)
LONG = const(2)  # held for long_ms (buttons that do not repeat)
REPEAT = const(3)  # held: once after repeat_delay_ms, then every repeat_ms
STUCK = const(4)  # held for stuck_ms: a fault, reported once
UNSTUCK = const(5)  # a stuck button was released at last
OFFLINE = const(6)  # a station stopped answering (unplugged)
ONLINE = const(7)  # a station answers (at start, or plugged back)
NAMES = ("press", "release", "long", "repeat", "stuck", "unstuck", "offline", "online")

# The "stations" of reports that come from no station: the table display and the tray.
TABLE = const(254)
TRAY = const(255)


def pack(station, kind, button):
    """One event as a small int, so queueing it allocates nothing."""
    return station << 8 | kind << 4 | button


def unpack(code):
    return code >> 8, code >> 4 & 15, code & 15


class BackOnRelease:
    """BACK acts when let go, unless held for its long action (the menu),
    which alone acts: holding it for the menu once unlocked a card."""

    def __init__(self):
        self.down = 0  # stations (bits) whose BACK is down and has done nothing yet

    def kind(self, station, kind):
        """What BACK's event of `kind` on `station` acts as: PRESS once let go
        after a short press, LONG when held; None while nothing acts yet."""
        bit = 1 << station
        was = self.down & bit
        self.down = self.down | bit if kind == PRESS else self.down & ~bit
        if kind == RELEASE:
            return PRESS if was else None
        return None if kind == PRESS else kind
