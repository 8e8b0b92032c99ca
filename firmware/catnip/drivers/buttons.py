# Buttons: every source of button samples behind one poller and one event
# queue, run as an asyncio task.
#
# A source reads a bitmask of pressed buttons: a group of GPIO pins, or an
# I/O expander on a station (behind the TCA9548A). Each source feeds its own
# Debouncer (catnip.drivers.debounce), which pushes events to the queue the
# application awaits with get().
#
# Expanders may share one open-drain, active-low interrupt line: while it is
# high nothing changed, and the poller reads none of them (the debouncers
# still run, for long press, repeat and stuck timing). When it is low the
# poller reads the sources on the line until it goes high again. A source
# with a button held is read every poll all the same: its release must not
# hang on one edge while it repeats, and an unplugged station must stop
# repeating at once. A full read every `fallback_ms` covers a lost edge and
# notices an idle station unplugged.
#
# A source that raises OSError goes offline: its held buttons are released,
# OFFLINE is queued, and every `retry_ms` it is set up again; once that works
# ONLINE is queued and polling carries on.
import asyncio

try:
    from time import ticks_ms
except ImportError:  # CPython
    from time import monotonic_ns

    def ticks_ms():
        return monotonic_ns() // 1000000 & 0x3FFFFFFF

try:
    sleep_ms = asyncio.sleep_ms
except AttributeError:  # CPython
    async def sleep_ms(ms):
        await asyncio.sleep(ms / 1000)

from catnip.drivers.debounce import (MAX_BUTTONS, OFFLINE, ONLINE, Debouncer, EventQueue,
                                     ticks_add, ticks_diff, unpack)


class GpioSource:
    """Buttons on GPIO pins, bit i = pins[i]. Active low with the internal
    pull-up (button to ground) unless active_low is False (button to 3V3,
    internal pull-down)."""

    irq = False

    def __init__(self, pins, active_low=True):
        from machine import Pin

        if not 0 < len(pins) <= 16:
            raise ValueError("a GPIO button group has 1..16 pins, not %d" % len(pins))
        pull = Pin.PULL_UP if active_low else Pin.PULL_DOWN
        self.pins = tuple(Pin(p, Pin.IN, pull) for p in pins)
        self.idle = 1 if active_low else 0

    def setup(self):
        return

    def read(self):
        mask = 0
        bit = 1
        for p in self.pins:
            if p.value() != self.idle:
                mask |= bit
            bit <<= 1
        return mask


class ExpanderSource:
    """Buttons on an I/O expander (PCF8574 or MCP23017 driver), optionally on
    a channel of a TCA9548A. `irq`: the expander's INT is on the shared line."""

    # Unless given: the table's stations reach their mux through a Channel
    # (catnip.parts.hardware), and each attribute of its own is heap.
    mux = None
    channel = None
    irq = False

    def __init__(self, expander, buttons, mux=None, channel=None, irq=False):
        if (mux is None) != (channel is None):
            raise ValueError("an expander behind a mux needs both mux and channel")
        if not 0 < buttons < 1 << 16:
            raise ValueError("button mask 0x%x: name 1 to 16 expander pins" % buttons)
        self.expander = expander
        self.buttons = buttons
        if mux is not None:
            self.mux = mux
            self.channel = channel
        if irq:
            self.irq = True

    def setup(self):
        self._select()
        try:
            self.expander.setup_buttons(self.buttons)
        except OSError:
            self._lost()
            raise

    def read(self):
        self._select()
        try:
            return self.expander.pressed()
        except OSError:
            self._lost()
            raise

    def _select(self):
        if self.mux is not None:
            self.mux.select(self.channel)

    def _lost(self):
        # The station may have taken the mux's power with it: select again.
        if self.mux is not None:
            self.mux.invalidate()


class _Station:
    __slots__ = ("source", "debouncer", "online", "sample", "retry_at")

    def __init__(self, source, debouncer):
        self.source = source
        self.debouncer = debouncer
        self.online = None  # not tried yet
        self.sample = 0
        self.retry_at = 0


class Buttons:
    """The poller. add() sources, run() as a task, await get() for events."""

    def __init__(self, poll_ms=10, irq=None, fallback_ms=1000, retry_ms=500, queue_size=64,
                 **timing):
        self.poll_ms = poll_ms
        self.irq = irq  # a machine.Pin (input, pull-up) on the shared INT line
        self.fallback_ms = fallback_ms
        self.retry_ms = retry_ms
        self.timing = timing  # Debouncer keyword arguments for every station
        self.queue = EventQueue(queue_size)
        self.ready = asyncio.Event()
        self.stations = []
        self._full_at = None
        # Set when the INT line falls: a button changed, so whoever waits on
        # it can poll at once instead of at the next poll_ms.
        self.changed = None
        flag = getattr(asyncio, "ThreadSafeFlag", None)  # MicroPython's (CPython has none)
        if irq is not None and flag is not None:
            self.changed = flag()
            irq.irq(self._fell, irq.IRQ_FALLING)

    def _fell(self, pin):
        self.changed.set()

    def add(self, source, repeat=0, width=MAX_BUTTONS):
        """Add a source; its events carry the returned station number.
        `repeat`: mask of its buttons that repeat while held; `width`: its
        highest button bit + 1 (the debouncer keeps times for that many)."""
        n = len(self.stations)
        self.stations.append(_Station(source, Debouncer(self.queue, n, repeat, width=width,
                                                        **self.timing)))
        return n

    def poll(self, now):
        """One poll of every source at `now` (ms ticks). Allocates nothing."""
        irq = self.irq
        full = irq is None or self._full_at is None or ticks_diff(now, self._full_at) >= 0
        if full:
            self._full_at = ticks_add(now, self.fallback_ms)
        changed = not full and not irq.value()  # the line is low: someone changed
        for station in self.stations:
            if station.online:
                if full or not station.source.irq or changed or station.debouncer.down:
                    self._read(station, now)
                    if changed and station.source.irq:
                        changed = not irq.value()  # that read may have released it
                if station.online:
                    station.debouncer.update(station.sample, now)
            elif station.online is None or ticks_diff(now, station.retry_at) >= 0:
                self._connect(station, now)
        if self.queue.count:
            self.ready.set()

    def _read(self, station, now):
        try:
            station.sample = station.source.read()
        except OSError:
            station.debouncer.release_all()
            self._offline(station, now)

    def _connect(self, station, now):
        try:
            station.source.setup()
            station.sample = station.source.read()
        except OSError:
            if station.online is None:
                self._offline(station, now)  # absent from the start: say so once
            else:
                station.retry_at = ticks_add(now, self.retry_ms)
            return
        station.online = True
        self.queue.push(station.debouncer.base | ONLINE << 4)
        station.debouncer.update(station.sample, now)

    def _offline(self, station, now):
        station.online = False
        station.sample = 0
        station.retry_at = ticks_add(now, self.retry_ms)
        self.queue.push(station.debouncer.base | OFFLINE << 4)

    async def run(self):
        while True:
            self.poll(ticks_ms())
            await sleep_ms(self.poll_ms)

    def next(self):
        """The oldest waiting event as (station, kind, button), or None."""
        if not self.queue.count:
            return None
        return unpack(self.queue.pop())

    async def get(self):
        """Wait for the next event: (station, kind, button)."""
        while not self.queue.count:
            self.ready.clear()
            await self.ready.wait()
        return unpack(self.queue.pop())
