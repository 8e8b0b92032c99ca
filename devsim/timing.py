# Time for the simulated board: the clock the chip models schedule their
# events on, the pin board that charges firmware pin operations to it, and the
# time functions handed to drivers (ticks_ms, sleep_ms, pause_ms, ...).
#
# VirtualClock makes a run exact and repeatable: time moves only when the
# firmware spends it (a fixed cost per pin operation, its sleeps) or when an
# interrupt steals it, so a pulse width is a sum of known costs however loaded
# the machine running the test is. RealClock runs the same models against the
# host's real microsecond counter, to measure what the unix port really does.
#
#     with VirtualClock() as clock:      # installs the timed board
#         model = HX711Model(clock, sck=2, dout=3, counts_at=...)
#         hx = HX711(2, 3, clock=clock)
import heapq

import machine
from devsim import pins

try:
    from time import sleep_us as _real_sleep_us  # type: ignore[attr-defined]  # MicroPython's
    from time import ticks_us as _real_ticks_us  # type: ignore[attr-defined]  # MicroPython's
except ImportError:  # CPython
    from time import perf_counter_ns, sleep

    def _real_ticks_us():
        return perf_counter_ns() // 1000

    def _real_sleep_us(us):
        sleep(us / 1000000)

TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2


class _Clock:
    """What both clocks share: timers for the models, MicroPython-style
    ticks for the firmware, and installing the timed board."""

    def __init__(self):
        self._timers = []  # heap of (t_us, seq, callback, arg)
        self._seq = 0
        self._saved = None
        self.irq_enabled = True

    # -- for the chip models ---------------------------------------------

    def at(self, t_us, callback, arg=None):
        """Call callback(t_us, arg) once the clock reaches t_us."""
        self._seq += 1
        heapq.heappush(self._timers, (t_us, self._seq, callback, arg))

    def _fire_due(self, until_us):
        """Fire every timer due by until_us, in time order; return how many."""
        fired = 0
        timers = self._timers
        while timers and timers[0][0] <= until_us:
            t, _, callback, arg = heapq.heappop(timers)
            self._set_now(t)
            callback(t, arg)
            fired += 1
        return fired

    def _set_now(self, t_us):
        """A virtual clock moves to t_us while a timer fires; a real one can't."""

    # -- MicroPython's time API, for the firmware ------------------------

    def ticks_us(self):
        return self.now_us() & _TICKS_MAX

    def ticks_ms(self):
        return (self.now_us() // 1000) & _TICKS_MAX

    def ticks_add(self, ticks, delta):
        return (ticks + delta) & _TICKS_MAX

    def ticks_diff(self, end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF

    def sleep_ms(self, ms):
        self.sleep_us(ms * 1000)

    # -- machine.disable_irq / enable_irq while installed ----------------

    def disable_irq(self):
        state = self.irq_enabled
        self.irq_enabled = False
        return state

    def enable_irq(self, state=True):
        self.irq_enabled = bool(state)

    # -- installing the timed board --------------------------------------

    def __enter__(self):
        self._saved = (pins.board, machine.disable_irq, machine.enable_irq)
        pins.board = TimedBoard(self)
        machine.disable_irq = self.disable_irq
        machine.enable_irq = self.enable_irq
        return self

    def __exit__(self, *exc):
        pins.board, machine.disable_irq, machine.enable_irq = self._saved
        self._saved = None
        return False


class VirtualClock(_Clock):
    """Simulated time in microseconds, starting at 0.

    pin_op_us: what one firmware pin operation (Pin.value(), Pin()) costs, of
    the order of a MicroPython pin call on a 125 MHz RP2040.
    isr_every_us, isr_us: an interrupt load (USB, timers) that takes isr_us of
    CPU every isr_every_us while interrupts are enabled; one that falls due
    while they are disabled runs as soon as they are enabled again. With
    masking=False interrupts ignore disable_irq(), to show what the driver's
    masking protects against.
    """

    def __init__(self, pin_op_us=5, isr_every_us=0, isr_us=0, masking=True):
        super().__init__()
        self._now = 0
        self.pin_op_us = pin_op_us
        self.isr_every_us = isr_every_us
        self.isr_us = isr_us
        self.masking = masking
        self._next_isr = isr_every_us if isr_every_us else -1
        self.isr_count = 0
        self._sleepers = []  # wake-up times of the tasks in pause_ms()

    def now_us(self):
        return self._now

    def _set_now(self, t_us):
        if t_us > self._now:
            self._now = t_us

    def advance(self, us):
        """Let us microseconds of firmware work pass. Timers fire at their own
        times; an interrupt that is allowed to run stretches the interval."""
        end = self._now + us
        while True:
            isr_due = self._next_isr >= 0 and (self.irq_enabled or not self.masking)
            t_isr = max(self._next_isr, self._now) if isr_due else end + 1
            t_timer = self._timers[0][0] if self._timers else end + 1
            if t_isr <= t_timer and t_isr <= end:
                self._now = t_isr
                end += self.isr_us
                self._next_isr += self.isr_every_us
                self.isr_count += 1
            elif t_timer <= end:
                self._fire_due(t_timer)
            else:
                break
        self._now = end

    def run_until(self, t_us):
        """Let time reach t_us while the CPU waits on hardware (a PIO state
        machine): timers fire; interrupts due meanwhile run during the wait."""
        while self._timers and self._timers[0][0] <= t_us:
            self._fire_due(self._timers[0][0])
        if self._next_isr >= 0:
            while self._next_isr <= t_us:
                self._next_isr += self.isr_every_us
                self.isr_count += 1
        if t_us > self._now:
            self._now = t_us

    def pin_access(self):
        self.advance(self.pin_op_us)

    def enable_irq(self, state=True):
        super().enable_irq(state)
        if self.irq_enabled:
            self.advance(0)  # an interrupt held back while masked runs now

    def sleep_us(self, us):
        self.advance(us)

    async def pause_ms(self, ms):
        """asyncio.sleep_ms in virtual time. Time moves on only when every
        pausing task waits: the one due first moves it to its wake-up time,
        so tasks interleave as they would on the Pico."""
        import asyncio  # only for the async firmware: a driver's test runs without it

        wake = self._now + ms * 1000
        sleepers = self._sleepers
        sleepers.append(wake)
        try:
            await asyncio.sleep(0)
            while self._now < wake:
                if wake <= min(sleepers):
                    self.advance(wake - self._now)
                else:
                    await asyncio.sleep(0)
        finally:
            sleepers.remove(wake)


class RealClock(_Clock):
    """The host's microsecond counter. Model timers fire when the firmware
    next touches a pin or sleeps, as close to their time as the host allows."""

    def now_us(self):
        return _real_ticks_us()

    def pin_access(self):
        if self._timers:
            self._fire_due(_real_ticks_us())

    def sleep_us(self, us):
        _real_sleep_us(us)
        self.pin_access()

    async def pause_ms(self, ms):
        import asyncio

        await asyncio.sleep(ms / 1000)
        self.pin_access()


class TimedBoard(pins.Board):
    """The pin board with every firmware pin operation charged to a clock.

    Models read pins through board.pin(id).level(), which costs nothing:
    only the firmware spends time."""

    def __init__(self, clock):
        super().__init__()
        self.timeline = clock
        self.clock = clock.now_us
        self._access = clock.pin_access

    def level(self, pin_id):
        self._access()
        return pins.Board.level(self, pin_id)

    def set_firmware(self, pin_id, level):
        self._access()
        pins.Board.set_firmware(self, pin_id, level)
