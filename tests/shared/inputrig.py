# A simulated table of button stations for tests and benchmarks: a TCA9548A
# at 0x70 on I2C0, station k's expander (PCF8574 or MCP23017 model) at 0x20
# on channel k, every INT on one shared line to GP6, bouncing button models on
# the expander pins, and the firmware's Buttons poller wired to all of it.
import machine

from catnip.drivers import mcp23017, pcf8574, tca9548a
from catnip.drivers.buttons import Buttons, ExpanderSource, GpioSource
from catnip.drivers.debounce import NAMES, unpack
from devsim import bus, pins
from devsim.models import mcp23017 as mcp_model
from devsim.models import pcf8574 as pcf_model
from devsim.models import tca9548a as mux_model
from devsim.models.button import Button
from devsim.models.line import Line

SDA, SCL, INT_PIN = 4, 5, 6
MUX_ADDR, CHIP_ADDR = 0x70, 0x20


def fresh():
    """Clean pins and buses; returns the I2C0 bus model."""
    pins.reset()
    bus.reset()
    return bus.bus(0)


def drain(buttons):
    """Every queued event as (station, kind name, button)."""
    out = []
    while buttons.queue.count:
        s, k, b = unpack(buttons.queue.pop())
        out.append((s, NAMES[k], b))
    return out


class Table:
    def __init__(self, stations=7, chip="pcf8574", irq=True, buttons=4, repeat=0b0011, **poller):
        self.bus = fresh()
        self.mux = self.bus.attach(MUX_ADDR, mux_model.TCA9548A())
        self.line = Line(INT_PIN)
        self.i2c = machine.I2C(0, scl=SCL, sda=SDA, freq=400000)
        self.mux_driver = tca9548a.TCA9548A(self.i2c, MUX_ADDR)
        irq_pin = machine.Pin(INT_PIN, machine.Pin.IN, machine.Pin.PULL_UP) if irq else None
        self.input = Buttons(irq=irq_pin, **poller)
        self.chips = []
        self.keys = []  # keys[station][n]: the button model on pin n
        mask = (1 << buttons) - 1
        for k in range(stations):
            if chip == "pcf8574":
                model = pcf_model.PCF8574(self.line)
                driver = pcf8574.PCF8574(self.i2c, CHIP_ADDR)
            else:
                model = mcp_model.MCP23017(inta=self.line)
                driver = mcp23017.MCP23017(self.i2c, CHIP_ADDR)
            self.mux.channels[k].attach(CHIP_ADDR, model)
            self.chips.append(model)
            self.keys.append([Button(n, on=model, seed="station %d key %d" % (k, n))
                              for n in range(buttons)])
            source = ExpanderSource(driver, mask, self.mux_driver, k, irq=irq)
            self.input.add(source, repeat=repeat)

    def run(self, start, stop, step=10):
        """Poll every `step` ms over [start, stop), moving the buttons first;
        returns the events."""
        events = []
        for now in range(start, stop, step):
            for row in self.keys:
                for key in row:
                    key.advance(now)
            self.input.poll(now)
            events.extend(drain(self.input))
        return events


def gpio_buttons(pin_ids, **poller):
    """A Buttons poller over one GPIO group, with a button model per pin."""
    fresh()
    b = Buttons(**poller)
    b.add(GpioSource(pin_ids), repeat=0b01)
    return b, [Button(p, seed="gpio %d" % p) for p in pin_ids]
