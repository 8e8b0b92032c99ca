# A station's OLED that survives being unplugged.
#
# Screen wraps a panel driver (catnip.drivers.ssd1306's SSD1306, or
# catnip.drivers.sh1106's SH1106 for the 1.3-inch module: board.json's
# "panel") and moves every bus transfer into flush(now): take(canvas) only
# notes what changed, and the panel settings (contrast, invert, sleep, flip)
# are remembered and sent at the next flush. So the game UI never sees an
# exception; a panel that does not answer is an event.
#
# flush(now) sends what changed. An OSError marks the screen offline and
# reports OFFLINE once; every retry_ms it tries again, and once the panel
# answers it is initialised afresh (it lost its settings and pixels with its
# power) and either the picture taken last is sent whole, if the canvas
# still holds it, or the panel is cleared and wants_picture() until it is
# drawn again (catnip.ui.frame redraws it), then ONLINE is reported. A
# panel that was power-cycled between two flushes still acknowledges its
# address, so every probe_ms flush also reads the status byte: a display
# that says "off" when catnip left it on has been reset, and is initialised
# again.
#
# Reports go to an EventQueue (the button poller's, so the application has
# one stream) as (station, OFFLINE or ONLINE, SCREEN). flush() allocates
# nothing.
from catnip.keys import OFFLINE, ONLINE, ticks_add, ticks_diff
from catnip.drivers.ssd1306 import SSD1306

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

SCREEN = const(1)  # the part a report names; the buttons are part 0

# A Screen's _state, one int: the settings still to send at the next flush,
_CONTRAST = const(1)
_INVERT = const(2)
_SLEEP = const(4)
_FLIP = const(8)
_PENDING = const(15)
# and what the panel is to be: inverted, asleep, flipped, in need of initialising.
_INVERTED = const(16)
_ASLEEP = const(32)
_FLIPPED = const(64)
_COLD = const(128)


def panel(i2c, oled):
    """The driver for `oled`'s "panel" (ssd1306 unless it says otherwise),
    built without a word on the bus."""
    kind = oled.get("panel", "ssd1306")
    if kind == "sh1106":
        from catnip.drivers.sh1106 import SH1106 as Driver  # only on boards that have one
    elif kind == "ssd1306":
        Driver = SSD1306
    else:
        raise ValueError("no driver for a %r panel: ssd1306 or sh1106" % (kind,))
    return Driver(i2c, oled["addr"], oled["height"], oled["flip"], start=False)


class Screen:
    """The panel `oled` ({"addr", "height", "flip", "panel"}, as in the board
    config) on `i2c`, which may be one channel of the mux
    (catnip.parts.hardware.Channel). `queue` and `station` say where reports
    go; without a queue the screen keeps its state in `online` only. Draw on
    a canvas, take(canvas), then flush(now); `panel` is the driver, whose
    show() is the raw transfer, which raises."""

    # Shared by every panel unless it is built otherwise (a station's
    # instance dict holds only its own: seven of them add up on the Pico).
    restarts = 0  # panels found reset behind catnip's back
    _retry_ms = 500
    _probe_ms = 1000

    def __init__(self, i2c, oled, queue=None, station=0, retry_ms=500, probe_ms=1000):
        self.panel = panel(i2c, oled)
        self.online = None  # None until the first flush, then True or False
        self._queue = queue
        self._code = station << 8 | SCREEN
        if retry_ms != Screen._retry_ms:
            self._retry_ms = retry_ms
        if probe_ms != Screen._probe_ms:
            self._probe_ms = probe_ms
        self._at = 0  # offline: when to retry; online: when to probe
        self._state = _COLD

    # ---- what the UI calls: no bus traffic -------------------------------

    def take(self, canvas, top=0, end=0):
        """The panel's take(): True if the picture changes what it shows."""
        return self.panel.take(canvas, top, end)

    def holds(self, canvas):
        return self.panel.holds(canvas)

    def wants_picture(self):
        return self.panel.wants_picture()

    def init_display(self):
        """Initialise the panel and send its whole picture at the next flush()."""
        self._state |= _COLD

    def contrast(self, value):
        if not 0 <= value <= 255:
            raise ValueError("contrast is 0..255, not %r" % (value,))
        self._contrast = value
        self._state |= _CONTRAST

    def invert(self, on):
        self._state = (self._state | _INVERTED if on else self._state & ~_INVERTED) | _INVERT

    def sleep(self, on):
        """Display and its supply off (on=True), or back on. Waking
        initialises the panel afresh: asleep, it cannot tell catnip that it
        lost power meanwhile."""
        if on:
            self._state |= _ASLEEP | _SLEEP
        else:
            self._state = self._state & ~(_ASLEEP | _SLEEP) | _COLD

    def flip(self, on):
        """Turn the picture by 180 degrees (the driver resends it whole)."""
        self._state = (self._state | _FLIPPED if on else self._state & ~_FLIPPED) | _FLIP

    # ---- the bus ----------------------------------------------------------

    def flush(self, now):
        """Bring the panel up to date at `now` (ms ticks). Never raises OSError."""
        if self.online is False and ticks_diff(now, self._at) < 0:
            return
        try:
            if not self._state & _COLD and ticks_diff(now, self._at) >= 0:
                self._at = ticks_add(now, self._probe_ms)
                self._probe()
            if self._state & _COLD:
                self._start()
                self._at = ticks_add(now, self._probe_ms)
            else:
                self.panel.show()
            if self._state & _PENDING:
                self._settings()
        except OSError:
            self._lost(now)
            return
        if not self.online:
            self.online = True
            self._report(ONLINE)

    def _start(self):
        self.panel.init_display()
        # init_display() leaves the panel at the contrast and orientation it
        # was last given (those still due follow), not inverted, awake.
        state = self._state & (_INVERTED | _ASLEEP | _FLIPPED | _CONTRAST | _FLIP)
        self._state = state | (_INVERT if state & _INVERTED else 0) | \
            (_SLEEP if state & _ASLEEP else 0)

    def _settings(self):
        state, panel = self._state, self.panel
        if state & _CONTRAST:
            panel.contrast(self._contrast)
        if state & _FLIP:
            panel.flip(state & _FLIPPED)
        if state & _INVERT:
            panel.invert(state & _INVERTED)
        if state & _SLEEP:
            panel.sleep(True)
        self._state = state & ~_PENDING

    def _probe(self):
        if self.panel.is_off() and not self._state & _ASLEEP:
            self.restarts += 1
            self._state |= _COLD

    def _lost(self, now):
        self._state |= _COLD
        self._at = ticks_add(now, self._retry_ms)
        if self.online is not False:
            self.online = False
            self._report(OFFLINE)

    def _report(self, kind):
        if self._queue is not None:
            self._queue.push(self._code | kind << 4)
