# HX711 24-bit load-cell ADC, bit-banged on GPIO.
#
# The protocol (Avia Semiconductor HX711 datasheet): DOUT low means a
# conversion is ready. Each rising edge of PD_SCK puts the next bit on DOUT,
# MSB first: 24 bits of two's complement. One to three more pulses choose the
# input of the NEXT conversion: 25 pulses A x128, 26 B x32, 27 A x64.
# PD_SCK high for more than 60 us powers the chip down, so every pulse is
# kept short: interrupts are off for the two pin writes of a pulse and on
# again between pulses. After power-up or an input change the output needs 4
# conversions to settle (400 ms at 10 SPS, 50 ms at 80 SPS); readings from
# that time are dropped here.
#
# HX711Group reads several HX711s whose PD_SCK pins share one GPIO and whose
# DOUTs have one GPIO each (the four corner cells of the tray): one clocking
# pass shifts a bit out of every chip at once. HX711 is the one-chip case.
#
# A pass must end before any chip converts again: the datasheet wants every
# pulse of a read within one conversion period, and a chip reloads its output
# at each conversion, read or not, with no sign of it on DOUT mid-word. The
# chips run on their own oscillators, so the driver keeps time:
# - `quiet` is the last moment every DOUT was high: each word now waiting was
#   converted after it;
# - no chip reloads sooner than 80 % of the nominal period after its last word
#   became ready (the datasheet gives no tolerance; a measured chip ran 14 %
#   fast, and the reload takes 75 us);
# - a pass takes `pass_us`, measured on every pass and at construction by a
#   dry run with the clock held low, plus a quarter for interrupts.
# A pass starts only if it ends in time, and is discarded if it did not.
# Each chip's conversion period is learned from the moments its DOUT falls
# (the oscillators differ by percents; a period is known to tens of us after
# a few dozen conversions). Once every period is known, the driver predicts
# every chip's next reloads and starts a pass only in a gap between them
# long enough for it, waiting for the next gap otherwise: drifting chips
# then never need bringing back in step. Until then, or when the chips'
# conversions have drifted too far apart, or nobody polled DOUT for too
# long, the driver restarts every chip at once by a power cycle,
# which brings their conversions back in step; the next four conversions
# settle and are dropped. Needing a second restart before a reading came out
# means this board cannot read these chips at this rate: TOO_SLOW.
#
# On a Pico, with the pins given as GPIO numbers, the pass runs as native
# code on the SIO registers (catnip.drivers.hx711_sio: about 0.1 ms for four
# chips instead of 2 ms of Pin calls, interrupts off throughout), and a pin
# interrupt stamps each DOUT fall (Falls), so a conversion is timed to 0.1 ms
# however late the loop polls. The polls alone time it to a poll interval
# (1-2 ms while other tasks run): too coarse to find the gaps between four
# drifting chips at 80 SPS, where 95 % of conversions were read, with a
# restart every second or two (docs/pico.md). Elsewhere the portable path
# runs.
#
# The read path allocates nothing: the words are built in preallocated
# arrays and every intermediate stays far below 2**30.
# The wires and the clocking pass are catnip.drivers.hx711_pins; when each
# chip converts, learned, is catnip.drivers.hx711_phases; why a read failed,
# in words, is catnip.drivers.hx711_faults; the loops that wait for the chips
# and hand out readings (read, read_async, run) are catnip.drivers.hx711_loops.
import machine
from array import array

from catnip.drivers.hx711_faults import (NO_DATA, OK, RESTARTED, SETTLING,  # noqa: F401
                                         STUCK_LOW, TOO_SLOW, WAIT, WRONG_RATE, SensorFault)
from catnip.drivers.hx711_loops import Loops
from catnip.drivers.hx711_phases import Phases
from catnip.drivers.hx711_pins import Falls, SystemClock, native, pin, shift

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


A128 = const(1)  # channel A, gain 128 (25 pulses)
B32 = const(2)  # channel B, gain 32 (26 pulses)
A64 = const(3)  # channel A, gain 64 (27 pulses)

MAX_COUNT = const(0x7FFFFF)  # the chip saturates at these codes
MIN_COUNT = const(-0x800000)
_SIGN = const(0x800000)
_WRAP = const(0x1000000)
_SETTLE_READINGS = const(3)  # the 4th conversion after a change is settled
_POWER_DOWN_HOLD_US = const(100)  # PD_SCK high this long surely powers down
_QUIET_PERCENT = const(80)  # no reload sooner than this share of the period


class HX711Group(Loops):
    """HX711s sharing one PD_SCK pin, each with its own DOUT pin.

    sck: GPIO number or machine.Pin wired to every PD_SCK.
    douts: GPIO numbers or Pins, one per chip. Chips run on their own
      oscillators, so a read waits until every DOUT is low, then clocks all
      of them together, if the pass ends before any of them converts again.
    rate: 10 or 80 samples/s, as the RATE pins are wired.
    input: A128, B32 or A64, selected on every chip.
    timeout_ms: how long DOUT may stay high before the cell counts as
      missing; default five conversion periods: a chip may hold DOUT high
      through its four periods of settling after a power-up or a restart,
      and its oscillator may run slow.

    Raises ValueError if one pass takes too long on this board for `rate`.
    pass_us is how long a pass takes here (measured); restarts counts the
    times the chips had to be brought back in step; periods holds each
    chip's conversion period as learned (us; the nominal one until then).
    """

    def __init__(self, sck, douts, rate=10, input=A128, timeout_ms=None, clock=None):
        if rate not in (10, 80):
            raise ValueError("rate must be 10 or 80 samples/s, as the HX711 RATE pin is "
                             "wired (low: 10, high: 80), not %r" % (rate,))
        _check_input(input)
        if not douts:
            raise ValueError("give at least one DOUT pin")
        self.clock = clock or SystemClock()
        self._sck = pin(sck, machine.Pin.OUT)
        self._douts = tuple(pin(d, machine.Pin.IN) for d in douts)
        self._native = native(sck, douts)
        self._gpios = None  # (sck, bytes of the DOUTs) for the native pass
        self._falls = None  # Falls: conversions timed by a pin interrupt
        if self._native is not None:
            self._gpios = (sck, bytes(douts))
            self._falls = Falls(self._douts, self.clock.ticks_us)
        self._n = len(self._douts)
        self._all = (1 << self._n) - 1
        self.counts = array("i", bytes(4 * self._n))  # last settled reading per cell
        self._acc = array("i", bytes(4 * self._n))
        self.saturated = 0  # bit i: cell i sat at MIN_COUNT or MAX_COUNT
        self.rate = rate
        period_us = 100000 if rate == 10 else 12500
        self.period_ms = (period_us + 999) // 1000
        self.timeout_ms = timeout_ms or 5 * self.period_ms
        self.poll_us = min(1000, period_us // 32)
        self._window_us = period_us * _QUIET_PERCENT // 100
        self.input = input
        self.fault = 0  # code of the fault now being reported, 0 when healthy
        self._said = None  # the SensorFault of that fault, its words kept while it lasts
        self.bad = 0  # the cells of the fault an attempt found
        self.restarts = 0
        self._unread_restarts = 0  # restarts since the last reading or fault
        self._quiet_us = self._quiet_ms = self._last_quiet_us = self._down_us = 0
        self._in_step = False  # the driver knows when the chips convert
        self._chained = False  # the last attempt was a pass in time
        # The DOUTs high at the last poll, and when it was; each chip's last
        # conversion and its period as learned (Phases).
        self._was_high = self._all
        self._polled_us = 0
        self._phases = Phases(self._n, period_us, self._falls, self.clock)
        self.periods = self._phases.periods  # learned, us
        self.wait_us = 0
        # How long a pass takes on this board: one with the clock held low.
        start = self.clock.ticks_us()
        self._shift(A64, 0)
        self._high_mask()
        self.pass_us = self.clock.ticks_diff(self.clock.ticks_us(), start)
        if self._budget() >= self._window_us:
            raise ValueError("one clocking pass of %d HX711s takes about %d us on this board, "
                             "but at %d samples/s it must end within %d us of a conversion: "
                             "use rate=10, fewer cells per PD_SCK pin, HX711PIO or less "
                             "interrupt load" % (self._n, self.pass_us, rate, self._window_us))
        # Start from a known chip state whatever happened before (a soft reset
        # of the Pico leaves the chips running with their last input).
        self.powered = True
        self._restart()

    # -- control ----------------------------------------------------------

    def select(self, input):
        """Read `input` (A128, B32, A64) from now on. The chips switch at the
        next conversion; readings are held back until the new input settles."""
        _check_input(input)
        self.input = input

    def power_down(self):
        """Hold PD_SCK high: the chips sleep (< 1 uA) after 60 us."""
        self._sck(1)
        self.powered = False
        self._down_us = self.clock.ticks_us()

    def power_up(self):
        """Release PD_SCK: the chips reset to channel A x128 and convert again,
        all in step. The first settled reading comes four conversions later.
        Does nothing while powered."""
        if self.powered:
            return
        clock = self.clock
        hold = _POWER_DOWN_HOLD_US - clock.ticks_diff(clock.ticks_us(), self._down_us)
        if hold > 0:
            clock.sleep_us(hold)  # a shorter high would not reset the chips
        self._sck(0)
        self.powered = True
        self._chip_input = A128
        self._settle = _SETTLE_READINGS
        self._in_step = True
        self._chained = False
        self._quiet_us = clock.ticks_us()  # a chip fresh from reset holds no word
        self._quiet_ms = clock.ticks_ms()
        self._was_high = self._all
        self._polled_us = self._quiet_us
        self._phases.restart()  # their phases are new

    # -- reading ----------------------------------------------------------

    def ready(self):
        """True when every chip has a conversion waiting (all DOUTs low)."""
        return not self.not_ready()

    def result(self):
        return self.counts

    def _high_mask(self):
        """Mask of the DOUTs that are high."""
        douts = self._douts
        mask = 0
        for i in range(self._n):
            if douts[i]():
                mask |= 1 << i
        return mask

    def not_ready(self):
        """Mask of the cells with no conversion waiting (DOUT high); notes the
        moment when none has one."""
        clock = self.clock
        now_us = clock.ticks_us()
        now_ms = clock.ticks_ms()
        mask = self._high_mask()
        fell = self._was_high & ~mask
        if fell:
            self._phases.note(fell, self._polled_us, now_us)
        self._was_high = mask
        self._polled_us = now_us
        if mask == self._all:
            self._quiet_us = now_us
            self._quiet_ms = now_ms
        return mask

    def _budget(self):
        """The time to allow for one pass: the measured time and a quarter."""
        return self.pass_us + (self.pass_us >> 2)

    def attempt(self):
        """Every DOUT is low: clock a word out of every chip, choosing the
        next input, if the pass surely ends before any chip converts again.
        Anything out of time restarts the chips in step (see _resync).
        Return OK (counts updated), SETTLING (word dropped), RESTARTED,
        or a fault code (cells in self.bad)."""
        clock = self.clock
        start = clock.ticks_us()
        age = clock.ticks_diff(start, self._quiet_us)
        wait = self._phases.wait(start, self._budget(), self._in_step)
        if wait > 0:
            self.wait_us = wait
            return WAIT
        late_ms = clock.ticks_diff(clock.ticks_ms(), self._quiet_ms) > self._window_us // 1000 + 1
        if wait < 0 and (not self._in_step or age + self._budget() > self._window_us or late_ms):
            return self._resync(TOO_SLOW, self._all)
        if self._chained and clock.ticks_diff(start, self._last_quiet_us) < self._window_us:
            # Every DOUT fell again within the window: the chips convert
            # faster than `rate` says, or no chip drives the wires.
            return self._resync(WRONG_RATE, self._all)
        self._last_quiet_us = self._quiet_us
        self._shift(self.input, 1)
        checked = clock.ticks_us()
        low = self._all ^ self._high_mask()
        took = clock.ticks_diff(clock.ticks_us(), start)
        self.pass_us = max(took, self.pass_us - (self.pass_us >> 6))
        if took > self._budget() if wait == 0 else age + took > self._window_us:
            return self._resync(TOO_SLOW, self._all)  # late: a chip may have converted
        if low:
            # The 25th pulse pulled every DOUT high, and no chip can have
            # converted since: nothing drives these wires.
            return self._resync(STUCK_LOW, low)
        self._quiet_us = checked
        self._quiet_ms = clock.ticks_ms()
        self._was_high = self._all
        self._polled_us = checked
        self._chained = True
        word_input = self._chip_input
        self._chip_input = self.input
        if word_input != self.input:
            self._settle = _SETTLE_READINGS
            return SETTLING
        if self._settle:
            self._settle -= 1
            return SETTLING
        self._unread_restarts = 0
        acc = self._acc
        counts = self.counts
        saturated = 0
        for i in range(self._n):
            v = acc[i]
            if v & _SIGN:
                v -= _WRAP
            counts[i] = v
            if v == MAX_COUNT or v == MIN_COUNT:
                saturated |= 1 << i
        self.saturated = saturated
        return OK

    def _resync(self, again, cells):
        """Restart every chip in step. A DOUT low right after the restart is
        shorted to ground: STUCK_LOW. If the last restart has not given a
        reading yet, restarting does not help: report `again` for `cells`."""
        if self._unread_restarts:
            return self._fail(again, cells)
        self._unread_restarts += 1
        self.restarts += 1
        shorted = self._restart()
        if shorted:
            return self._fail(STUCK_LOW, shorted)
        return RESTARTED

    def _restart(self):
        """Power-cycle every chip at once; return the mask of DOUTs that stay
        low although no chip fresh from reset holds a word."""
        self.power_down()
        self.power_up()
        return self._all ^ self._high_mask()

    def _shift(self, extra, level):
        """24 data pulses into self._acc, then `extra` selection pulses; with
        level 0 the same pin writes leave the clock low (a dry run). Natively
        on a Pico, else by catnip.drivers.hx711_pins.shift."""
        if self._native is not None:
            falls = self._falls
            falls.shifting = True  # its edges are data bits
            state = machine.disable_irq()  # a whole pass is about 0.1 ms
            sck, douts = self._gpios
            self._native(sck, douts, self._n, self._acc, extra, level)
            machine.enable_irq(state)
            falls.shifting = False
            return
        shift(self._sck, self._douts, self._n, self._acc, extra, level)

    def _fail(self, code, cells):
        self.bad = cells
        self.lost()
        return code

    def due(self, missing):
        """Microseconds until the last of the `missing` cells converts, or
        below 0 when that is not known (catnip.drivers.hx711_phases)."""
        return self._phases.due(missing, self._budget(), self._in_step)

    def recovered(self):
        """A pass read every cell: the fault, if any, is over."""
        self.fault, self._said = 0, None

    def lost(self):
        """A fault: a chip that stops answering may come back reset, and the
        others went on converting unread. Restart them all before the next
        pass."""
        self._in_step = False
        self._chained = False
        self._unread_restarts = 0

    def failed(self, code, cells):
        """The SensorFault to raise or report for `code` on `cells`. A fault
        that goes on (read() raises it at every call) is said in the words
        of its first time: they are composed once, not at every call. Each
        raise gets a new SensorFault, since a raised one keeps its traceback."""
        said = self._said
        if self.fault == code and said is not None and said.cells == cells:
            return SensorFault(said.args[0], code, cells)
        from catnip.drivers.hx711_faults import describe  # the words, for a fault only

        self.fault = code
        try:
            said = describe(code, cells, self._douts, self.timeout_ms, self.pass_us,
                            self._window_us, self.rate)
        except MemoryError:  # a long game's heap with no piece for the words: the code says it
            said = SensorFault(_NO_ROOM, code, cells)
        self._said = said
        return said

# A fault's words when the heap has no room for them (a dead cell late in a
# long game): the fault is still reported, with its code and cells, and the
# reading loop goes on.
_NO_ROOM = "a load cell fault (no memory left to word it): check the tray's cells and wires"


class HX711(HX711Group):
    """One HX711: read() and read_async() return its signed count."""

    def __init__(self, sck, dout, rate=10, input=A128, timeout_ms=None, clock=None):
        super().__init__(sck, (dout,), rate, input, timeout_ms, clock)

    def result(self):
        return self.counts[0]


def _check_input(input):
    if input not in (A128, B32, A64):
        raise ValueError("input must be A128, B32 or A64 (channel A x128, channel B x32, "
                         "channel A x64), not %r" % (input,))
