# The TCA9548A driver and model: routing to channel buses, and a channel
# cache that saves bus traffic but never outlives a fault.
import machine
from check import message

from catnip.drivers.pcf8574 import PCF8574
from catnip.drivers.tca9548a import TCA9548A
from devsim.models.pcf8574 import PCF8574 as PcfModel
from devsim.models.tca9548a import TCA9548A as MuxModel
from inputrig import fresh

MUX = 0x70


def rig(channels=8):
    bus = fresh()
    mux = bus.attach(MUX, MuxModel())
    chips = []
    for n in range(channels):
        chips.append(mux.channels[n].attach(0x20, PcfModel()))
    return bus, mux, chips, machine.I2C(0)


def writes_to(bus, addr):
    return len([t for t in bus.transactions if t[0] == addr and t[1] == "w"])


def test_model_routes_only_the_enabled_channel():
    bus, mux, chips, i2c = rig()
    assert bus.scan() == [MUX]  # power-on: no channel
    i2c.writeto(MUX, b"\x08")
    assert mux.control == 0x08 and bus.find(0x20) is chips[3]
    assert i2c.readfrom(MUX, 1) == b"\x08"
    i2c.writeto(MUX, b"\x01\x02")  # the last byte of a write stays
    assert bus.find(0x20) is chips[1]


def test_model_refuses_two_answers_to_one_address():
    bus, mux, chips, i2c = rig()
    i2c.writeto(MUX, b"\x03")
    assert "two devices answer 0x20" in message(AssertionError, i2c.readfrom, 0x20, 1)


def test_select_writes_only_when_the_channel_changes():
    bus, mux, chips, i2c = rig()
    drv = TCA9548A(i2c, MUX)
    chip = PCF8574(i2c, 0x20)
    chips[2].drive(0, 0)
    chips[5].drive(1, 0)
    bus.clear()
    for _ in range(10):
        drv.select(2)
        assert chip.read() == 0xFE
    assert writes_to(bus, MUX) == 1
    for channel in (5, 5, 2, 2, 2, 5):
        drv.select(channel)
    assert writes_to(bus, MUX) == 4 and drv.selects == 4
    assert chip.read() == 0xFD
    assert drv.enabled() == 1 << 5
    drv.select(None)
    assert mux.control == 0 and bus.scan() == [MUX]


def test_cache_forgotten_after_the_mux_fails():
    bus, mux, chips, i2c = rig()
    drv = TCA9548A(i2c, MUX)
    drv.select(4)
    mux.unplug()
    raised = False
    try:
        drv.select(6)
    except OSError:
        raised = True
    assert raised and drv.selected is None
    mux.plug()  # back with its power-on register: no channel
    bus.clear()
    drv.select(4)  # the cache must not believe channel 4 is still on
    assert writes_to(bus, MUX) == 1 and mux.control == 0x10


def test_invalidate_makes_the_next_select_write():
    bus, mux, chips, i2c = rig()
    drv = TCA9548A(i2c, MUX)
    drv.select(1)
    drv.invalidate()
    bus.clear()
    drv.select(1)
    assert writes_to(bus, MUX) == 1


def test_bad_channel_and_address_refused():
    bus, mux, chips, i2c = rig()
    drv = TCA9548A(i2c, MUX)
    assert "0..7" in message(ValueError, drv.select, 8)
    assert drv.selected is None
    assert "0x70..0x77" in message(ValueError, TCA9548A, i2c, 0x20)
