# The HX711's wires and clocks, below the driver's timing (catnip.drivers.hx711):
# the Pins set up for the side of the chip they face, the clocking pass that
# bit-bangs a word out of every chip (portable here; native on a Pico, from
# catnip.drivers.hx711_sio, with the same arguments), the pin interrupt that
# stamps each DOUT fall (Falls), and the Pico's clock as the driver uses it.
# It may import the interpreter's built-ins and its own room only.
import sys
import machine
from array import array
from machine import Pin

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


_DATA_BITS = const(24)


class SystemClock:
    """The Pico's time, as the driver uses it. Tests pass a virtual clock
    with the same methods instead."""

    def __init__(self):
        import time
        import asyncio

        self.ticks_ms = time.ticks_ms
        self.ticks_us = time.ticks_us
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add
        self.sleep_ms = time.sleep_ms
        self.sleep_us = time.sleep_us
        self.pause_ms = asyncio.sleep_ms


class Falls:
    """When each DOUT last fell, to the microsecond, from a pin interrupt:
    the moment a chip finished a conversion, whenever the loop next polls.
    Edges while a pass clocks the words out are data bits, not conversions,
    and are ignored (`shifting`)."""

    def __init__(self, pins, ticks_us):
        self.at = array("i", bytes(4 * len(pins)))
        self.seen = bytearray(len(pins))  # at[i] holds a fall not yet taken
        self.shifting = False
        self.ticks_us = ticks_us
        self._pins = pins
        fell = self._fell  # one handler for every pin (a closure each takes 64 B of heap)
        for pin in pins:
            pin.irq(fell, pin.IRQ_FALLING, hard=True)

    def _fell(self, pin):
        # A hard interrupt: it must not allocate. Which chip it was is found
        # by the pin it was called with (a loop over range allocates nothing).
        if self.shifting:
            return
        now = self.ticks_us()
        pins = self._pins
        for i in range(len(pins)):
            if pins[i] is pin:
                self.at[i] = now
                self.seen[i] = 1

    def take(self, i):
        """The moment chip i's DOUT last fell since the last take, or -1."""
        if not self.seen[i]:
            return -1
        self.seen[i] = 0
        return self.at[i]


def native(sck, douts):
    """The Pico's native clocking pass (catnip.drivers.hx711_sio) when the
    pins are GPIO numbers on a Pico, else None (Pin objects: the portable path)."""
    if sys.platform != "rp2" or not isinstance(sck, int):
        return None
    for d in douts:
        if not isinstance(d, int):
            return None
    from catnip.drivers.hx711_sio import shift
    return shift


def pin(pin, mode):
    """A Pin configured for the HX711 side it faces. DOUT gets a pull-up so an
    unplugged cell reads 'not ready' (a fault) instead of a stream of zeros."""
    if isinstance(pin, int):
        pin = Pin(pin)
    if mode == Pin.OUT:
        pin.init(Pin.OUT, value=0)
    else:
        pin.init(Pin.IN, Pin.PULL_UP)
    return pin


def shift(sck, douts, n, acc, extra, level):
    """The portable clocking pass, with the native one's arguments (here sck
    and douts are Pins): 24 data pulses into `acc`, then `extra` selection
    pulses; with level 0 the same pin writes leave the clock low (a dry run).
    Each pulse is two pin writes with interrupts off, so it lasts one pin
    write whatever else the Pico is doing; DOUT is sampled after the falling
    edge (valid 0.1 us after the rising edge, held until the next)."""
    irq_off = machine.disable_irq
    irq_on = machine.enable_irq
    for i in range(n):
        acc[i] = 0
    for _ in range(_DATA_BITS):
        state = irq_off()
        sck(level)
        sck(0)
        irq_on(state)
        for i in range(n):
            acc[i] = (acc[i] << 1) | douts[i]()
    for _ in range(extra):
        state = irq_off()
        sck(level)
        sck(0)
        irq_on(state)
