# A station's OLED that survives being unplugged.
#
# Screen is the SSD1306 driver with every bus transfer moved into flush(now):
# take(canvas) only copies into its frame, and the panel settings (contrast,
# invert, sleep, flip) are remembered and sent at the next flush. So the game
# UI never sees an exception; a panel that does not answer is an event.
#
# flush(now) sends what changed. An OSError marks the screen offline and
# reports OFFLINE once; every retry_ms it tries again, and once the panel
# answers it is initialised afresh and the whole frame resent (it lost both
# with its power), then ONLINE is reported. A panel that was power-cycled
# between two flushes still acknowledges its address, so every probe_ms
# flush also reads the status byte: a display that says "off" when catnip
# left it on has been reset, and is initialised again.
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

_STATUS_OFF = const(0x40)  # status byte D6: display off (datasheet 8.1.5, command table)
_CONTRAST = const(1)
_INVERT = const(2)
_SLEEP = const(4)
_STATUS = bytearray(1)  # the status byte read by a probe: one for every panel


class Screen(SSD1306):
    """The panel `oled` ({"addr", "height", "flip"}, as in the board config)
    on `i2c`, which may be one channel of the mux (catnip.parts.hardware.Channel).
    `queue` and `station` say where reports go; without a queue the screen
    keeps its state in `online` only. Draw on a canvas, take(canvas), then
    flush(now); show() is the driver's raw transfer, which raises."""

    def __init__(self, i2c, oled, queue=None, station=0, retry_ms=500, probe_ms=1000):
        self.online = None  # None until the first flush, then True or False
        self.restarts = 0  # panels found reset behind catnip's back
        self._queue = queue
        self._code = station << 8 | SCREEN
        self._retry_ms = retry_ms
        self._probe_ms = probe_ms
        self._retry_at = 0
        self._probe_at = 0
        self._inverted = False
        self._asleep = False
        self._pending = 0  # settings to send at the next flush
        self._cold = True  # the panel needs initialising
        super().__init__(i2c, oled["addr"], oled["height"], oled["flip"])

    # ---- what the UI calls: no bus traffic -------------------------------

    def init_display(self):
        """Initialise the panel and resend the whole frame at the next flush()
        (the driver's constructor calls this too, so building a Screen sends
        nothing)."""
        self._cold = True

    def contrast(self, value):
        if not 0 <= value <= 255:
            raise ValueError("contrast is 0..255, not %r" % (value,))
        self._contrast = value
        self._pending |= _CONTRAST

    def invert(self, on):
        self._inverted = bool(on)
        self._pending |= _INVERT

    def sleep(self, on):
        """Display and charge pump off (on=True), or back on. Waking
        initialises the panel afresh: asleep, it cannot tell catnip that it
        lost power meanwhile."""
        self._asleep = bool(on)
        if on:
            self._pending |= _SLEEP
        else:
            self._pending &= ~_SLEEP
            self._cold = True

    def flip(self, on):
        # The remap applies to data written after it: resend everything.
        self._flipped = bool(on)
        self._cold = True

    # ---- the bus ----------------------------------------------------------

    def flush(self, now):
        """Bring the panel up to date at `now` (ms ticks). Never raises OSError."""
        if self.online is False and ticks_diff(now, self._retry_at) < 0:
            return
        try:
            if not self._cold and ticks_diff(now, self._probe_at) >= 0:
                self._probe_at = ticks_add(now, self._probe_ms)
                self._probe()
            if self._cold:
                self._start()
                self._probe_at = ticks_add(now, self._probe_ms)
            else:
                self.show()
            if self._pending:
                self._settings()
        except OSError:
            self._lost(now)
            return
        if not self.online:
            self.online = True
            self._report(ONLINE)

    def _start(self):
        SSD1306.init_display(self)  # contrast and flip included
        self._cold = False
        # init_display() leaves the panel upright, not inverted, awake.
        self._pending = (_INVERT if self._inverted else 0) | (_SLEEP if self._asleep else 0)

    def _settings(self):
        pending = self._pending
        if pending & _CONTRAST:
            SSD1306.contrast(self, self._contrast)
        if pending & _INVERT:
            SSD1306.invert(self, self._inverted)
        if pending & _SLEEP:
            SSD1306.sleep(self, True)
        self._pending = 0

    def _probe(self):
        self.i2c.readfrom_into(self.addr, _STATUS)
        if _STATUS[0] & _STATUS_OFF and not self._asleep:
            self.restarts += 1
            self._cold = True

    def _lost(self, now):
        self._cold = True
        self._retry_at = ticks_add(now, self._retry_ms)
        if self.online is not False:
            self.online = False
            self._report(OFFLINE)

    def _report(self, kind):
        if self._queue is not None:
            self._queue.push(self._code | kind << 4)
