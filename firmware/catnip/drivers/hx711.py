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
# The read path allocates nothing: the words are built in preallocated
# arrays and every intermediate stays far below 2**30.
import machine
from array import array
from machine import Pin

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
_DATA_BITS = const(24)
_SETTLE_READINGS = const(3)  # the 4th conversion after a change is settled
_POWER_DOWN_HOLD_US = const(100)  # PD_SCK high this long surely powers down

# Why a read failed (SensorFault.code).
NO_DATA = const(1)  # DOUT never went low: no chip, no power, or a cut wire
STUCK_LOW = const(2)  # DOUT stayed low through a read: wire shorted to ground

# What one clocking pass gave.
_OK = const(0)
_SETTLING = const(-1)


class SensorFault(Exception):
    """A cell that does not answer. code is NO_DATA or STUCK_LOW; cells is a
    bit mask of the cells concerned (bit 0 = the first DOUT)."""

    def __init__(self, message, code, cells):
        super().__init__(message)
        self.code = code
        self.cells = cells


class SystemClock:
    """The Pico's time, as the driver uses it. Tests pass a virtual clock
    with the same methods instead."""

    def __init__(self):
        import time
        import asyncio

        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.sleep_ms = time.sleep_ms
        self.sleep_us = time.sleep_us
        self.pause_ms = asyncio.sleep_ms


class HX711Group:
    """HX711s sharing one PD_SCK pin, each with its own DOUT pin.

    sck: GPIO number or machine.Pin wired to every PD_SCK.
    douts: GPIO numbers or Pins, one per chip. Chips run on their own
      oscillators, so a read waits until every DOUT is low, then clocks all
      of them together; each chip holds its word until it is read.
    rate: 10 or 80 samples/s, as the RATE pins are wired.
    input: A128, B32 or A64, selected on every chip.
    timeout_ms: how long DOUT may stay high before the cell counts as
      missing; default four conversion periods.
    """

    def __init__(self, sck, douts, rate=10, input=A128, timeout_ms=None, clock=None):
        if rate not in (10, 80):
            raise ValueError("rate must be 10 or 80 samples/s, as the HX711 RATE pin is "
                             "wired (low: 10, high: 80), not %r" % (rate,))
        _check_input(input)
        if not douts:
            raise ValueError("give at least one DOUT pin")
        self._clock = clock or SystemClock()
        self._sck = _pin(sck, Pin.OUT)
        self._douts = tuple(_pin(d, Pin.IN) for d in douts)
        self._n = len(self._douts)
        self.counts = array("i", [0] * self._n)  # last settled reading per cell
        self._acc = array("i", [0] * self._n)
        self.saturated = 0  # bit i: cell i sat at MIN_COUNT or MAX_COUNT
        self.rate = rate
        self.period_ms = 100 if rate == 10 else 13
        self.timeout_ms = timeout_ms or 4 * self.period_ms
        self._poll_ms = max(1, self.period_ms // 8)
        self.input = input
        self.fault = 0  # code of the fault now being reported, 0 when healthy
        self.fault_cells = 0
        # Start from a known chip state whatever happened before (a soft reset
        # of the Pico leaves the chips running with their last input).
        self.power_down()
        self._clock.sleep_us(_POWER_DOWN_HOLD_US)
        self.power_up()

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

    def power_up(self):
        """Release PD_SCK: the chips reset to channel A x128 and convert again.
        The first settled reading comes four conversions later."""
        self._sck(0)
        self.powered = True
        self._chip_input = A128
        self._settle = _SETTLE_READINGS

    # -- reading ----------------------------------------------------------

    def ready(self):
        """True when every chip has a conversion waiting (all DOUTs low)."""
        return not self._not_ready()

    def read(self, timeout_ms=None):
        """Wait (blocking) for the next settled reading of every cell; return
        the counts array (signed counts, one per cell). A cell that gives no
        data in time raises SensorFault, every time it is asked."""
        self._check_powered()
        clock = self._clock
        timeout_ms = timeout_ms or self.timeout_ms
        while True:
            start = clock.ticks_ms()
            missing = self._not_ready()
            while missing:
                if clock.ticks_diff(clock.ticks_ms(), start) >= timeout_ms:
                    raise self._failed(NO_DATA, missing)
                clock.sleep_ms(1)
                missing = self._not_ready()
            status = self._transfer()
            if status == _OK:
                self.fault = 0
                return self._result()
            if status != _SETTLING:
                raise self._failed(STUCK_LOW, status)

    async def read_async(self):
        """read() for asyncio: polls DOUT, letting other tasks run meanwhile.

        A cell that stops answering raises SensorFault once; later calls
        wait quietly, trying again every conversion period, until every cell
        answers again (then `fault` is 0 and settled readings resume)."""
        self._check_powered()
        return await self._serve(None, None)

    async def run(self, on_counts, on_fault):
        """Read for ever: on_counts(counts) after every settled reading,
        on_fault(SensorFault) once when cells stop answering, then nothing
        until they answer again. Idles while powered down. One coroutine for
        the whole session, so a reading allocates nothing."""
        await self._serve(on_counts, on_fault)

    async def _serve(self, on_counts, on_fault):
        clock = self._clock
        while True:
            if not self.powered:
                if on_counts is None:
                    self._check_powered()
                await clock.pause_ms(self.period_ms)
                continue
            start = clock.ticks_ms()
            missing = self._not_ready()
            while missing and self.powered:
                if clock.ticks_diff(clock.ticks_ms(), start) >= self.timeout_ms:
                    break
                await clock.pause_ms(self._poll_ms)
                missing = self._not_ready()
            if not self.powered:
                continue
            if missing:
                code, cells = NO_DATA, missing
                self._lost()
            else:
                status = self._transfer()
                if status == _OK:
                    self.fault = 0
                    if on_counts is None:
                        return self._result()
                    on_counts(self._result())
                    continue
                if status == _SETTLING:
                    continue
                code, cells = STUCK_LOW, status
            if not self.fault:
                error = self._failed(code, cells)
                if on_fault is None:
                    raise error
                on_fault(error)
            await clock.pause_ms(self.period_ms)

    def _result(self):
        return self.counts

    def _not_ready(self):
        """Mask of the cells with no conversion waiting (DOUT high)."""
        douts = self._douts
        mask = 0
        for i in range(self._n):
            if douts[i]():
                mask |= 1 << i
        return mask

    def _transfer(self):
        """Clock one word out of every chip, choosing the next input.
        Return _OK (counts updated), _SETTLING (reading dropped) or the mask
        of cells whose DOUT never rose after the word."""
        self._shift(self.input)
        stuck = self._stuck()
        word_input = self._chip_input
        self._chip_input = self.input
        if stuck:
            self._lost()
            return stuck
        if word_input != self.input:
            self._settle = _SETTLE_READINGS
            return _SETTLING
        if self._settle:
            self._settle -= 1
            return _SETTLING
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
        return _OK

    def _shift(self, extra):
        """24 data pulses into self._acc, then `extra` selection pulses.
        Each pulse is two pin writes with interrupts off, so it lasts one pin
        write whatever else the Pico is doing; DOUT is sampled after the
        falling edge (valid 0.1 us after the rising edge, held until the next)."""
        sck = self._sck
        douts = self._douts
        acc = self._acc
        n = self._n
        irq_off = machine.disable_irq
        irq_on = machine.enable_irq
        for i in range(n):
            acc[i] = 0
        for _ in range(_DATA_BITS):
            state = irq_off()
            sck(1)
            sck(0)
            irq_on(state)
            for i in range(n):
                acc[i] = (acc[i] << 1) | douts[i]()
        for _ in range(extra):
            state = irq_off()
            sck(1)
            sck(0)
            irq_on(state)

    def _stuck(self):
        """Mask of the cells whose DOUT is still low after the read with an
        all-zero word: the 25th pulse sets DOUT high, so no HX711 drives it."""
        acc = self._acc
        douts = self._douts
        stuck = 0
        for i in range(self._n):
            if not acc[i] and not douts[i]():
                stuck |= 1 << i
        return stuck

    def _lost(self):
        """A chip that stops answering may come back reset: assume it did."""
        self._chip_input = A128
        self._settle = _SETTLE_READINGS

    def _failed(self, code, cells):
        self._lost()
        self.fault = code
        self.fault_cells = cells
        names = ", ".join("%d (DOUT %s)" % (i, self._douts[i])
                          for i in range(self._n) if cells >> i & 1)
        if code == NO_DATA:
            why = ("gave no conversion within %d ms: check the HX711's power and ground "
                   "and the DOUT and PD_SCK wires" % self.timeout_ms)
        else:
            why = ("held DOUT low through a whole read: the DOUT wire is shorted to "
                   "ground or no HX711 drives it")
        return SensorFault("load cell %s %s" % (names, why), code, cells)

    def _check_powered(self):
        if not self.powered:
            raise ValueError("the HX711 is powered down: call power_up() before reading")


class HX711(HX711Group):
    """One HX711: read() and read_async() return its signed count."""

    def __init__(self, sck, dout, rate=10, input=A128, timeout_ms=None, clock=None):
        super().__init__(sck, (dout,), rate, input, timeout_ms, clock)

    def _result(self):
        return self.counts[0]


def _pin(pin, mode):
    """A Pin configured for the HX711 side it faces. DOUT gets a pull-up so an
    unplugged cell reads 'not ready' (a fault) instead of a stream of zeros."""
    if isinstance(pin, int):
        pin = Pin(pin)
    if mode == Pin.OUT:
        pin.init(Pin.OUT, value=0)
    else:
        pin.init(Pin.IN, Pin.PULL_UP)
    return pin


def _check_input(input):
    if input not in (A128, B32, A64):
        raise ValueError("input must be A128, B32 or A64 (channel A x128, channel B x32, "
                         "channel A x64), not %r" % (input,))
