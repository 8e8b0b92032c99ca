# The PCF8574 and MCP23017 drivers against models that decode the real I2C
# transactions, and the models' own datasheet behaviour.
import machine
from check import message

from catnip.drivers import mcp23017 as mcp
from catnip.drivers.mcp23017 import MCP23017
from catnip.drivers.pcf8574 import PCF8574
from devsim import pins
from devsim.bus import bus as i2c_bus
from devsim.models import mcp23017 as mm
from devsim.models.line import Line
from devsim.models.mcp23017 import MCP23017 as McpModel
from devsim.models.pcf8574 import PCF8574 as PcfModel
from inputrig import INT_PIN, fresh

ADDR = 0x20


def rig(model):
    """Attach `model` at ADDR on I2C0 (models are made after fresh())."""
    bus = i2c_bus(0)
    bus.attach(ADDR, model)
    irq = machine.Pin(INT_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return bus, machine.I2C(0), irq


# --- PCF8574 -------------------------------------------------------------

def test_pcf_pins_written_1_read_external_level_with_weak_pullup():
    fresh()
    model = PcfModel()
    bus, i2c, _ = rig(model)
    chip = PCF8574(i2c, ADDR)
    assert chip.read() == 0xFF  # power-on latch: all inputs, pulled up
    model.drive(2, 0)
    assert chip.read() == 0xFB
    model.drive(2, 1)
    model.drive(3, None)
    assert chip.read() == 0xFF


def test_pcf_pins_written_0_read_0_whatever_drives_them():
    fresh()
    model = PcfModel()
    bus, i2c, _ = rig(model)
    chip = PCF8574(i2c, ADDR)
    chip.write(0x0F)
    model.drive(7, 1)
    assert chip.read() == 0x0F
    chip.pin(0, 0)
    assert model.latch == 0x0E and chip.pin(0) == 0
    chip.pin(7, 1)
    assert chip.pin(7) == 1  # now an input, and the part drives it high


def test_pcf_buttons_one_byte_per_read():
    fresh()
    model = PcfModel()
    bus, i2c, _ = rig(model)
    chip = PCF8574(i2c, ADDR)
    chip.write(0x00)
    chip.setup_buttons(0x0F)
    assert model.latch == 0x0F  # buttons released to input, the rest kept
    bus.clear()
    model.drive(1, 0)
    model.drive(3, 0)
    assert chip.pressed() == 0b1010
    assert bus.transactions == [(ADDR, "r", 1)]


def test_pcf_int_goes_low_on_input_change_and_clears_on_read():
    fresh()
    line = Line(INT_PIN)
    model = PcfModel(line)
    bus, i2c, irq = rig(model)
    chip = PCF8574(i2c, ADDR)
    chip.setup_buttons(0xFF)
    assert irq.value() == 1
    model.drive(0, 0)
    assert irq.value() == 0
    chip.read()
    assert irq.value() == 1
    model.drive(0, None)
    assert irq.value() == 0
    model.drive(0, 0)  # back to what the last read saw: released again
    assert irq.value() == 1
    model.drive(5, 0)
    chip.write(0xFF)  # a write clears it too
    assert irq.value() == 1


def test_pcf_output_pin_changes_raise_no_interrupt():
    fresh()
    line = Line(INT_PIN)
    model = PcfModel(line)
    bus, i2c, irq = rig(model)
    chip = PCF8574(i2c, ADDR)
    chip.write(0xFE)
    model.drive(0, 1)  # fights the low output: still reads 0
    assert irq.value() == 1 and chip.read() & 1 == 0


def test_shared_int_line_is_wired_or():
    line = Line(INT_PIN)
    a, b = PcfModel(line), PcfModel(line)
    bus = fresh()
    bus.attach(0x20, a)
    bus.attach(0x21, b)
    irq = machine.Pin(INT_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    i2c = machine.I2C(0)
    a.drive(0, 0)
    b.drive(0, 0)
    assert irq.value() == 0
    PCF8574(i2c, 0x20).read()
    assert irq.value() == 0  # b still pulls it low
    PCF8574(i2c, 0x21).read()
    assert irq.value() == 1


def test_pcf_address_checked():
    assert "0x20..0x27" in message(ValueError, PCF8574, None, 0x40)
    PCF8574(None, 0x38)  # the PCF8574A range


def test_unplugged_pcf_gives_oserror_and_releases_int():
    fresh()
    line = Line(INT_PIN)
    model = PcfModel(line)
    bus, i2c, irq = rig(model)
    chip = PCF8574(i2c, ADDR)
    model.drive(0, 0)
    assert irq.value() == 0
    model.unplug()
    assert irq.value() == 1
    try:
        chip.read()
        raise AssertionError("an unplugged chip answered")
    except OSError:
        pass
    model.plug()
    assert model.latch == 0xFF and chip.pressed() == 0


# --- MCP23017 model: the register file ------------------------------------

def test_mcp_power_on_registers():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    regs = i2c.readfrom_mem(ADDR, 0x00, 0x16)
    assert regs[0] == 0xFF and regs[1] == 0xFF  # IODIRA/B
    assert regs[2:0x12] == bytes(0x10)


def test_mcp_bank0_sequential_write_and_read_wrap():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    i2c.writeto_mem(ADDR, mcp.GPPU, b"\x0f\xf0")
    assert model.regs[mm.GPPU] == [0x0F, 0xF0]
    # reading on from OLATB (0x15) rolls over to IODIRA (0x00)
    assert i2c.readfrom_mem(ADDR, 0x15, 2) == b"\x00\xff"


def test_mcp_byte_mode_toggles_within_a_pair_in_bank0():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    i2c.writeto_mem(ADDR, mcp.IOCON, bytes((mcp.SEQOP,)))
    i2c.writeto_mem(ADDR, mcp.GPPU, b"\x01\x02\x03")
    assert model.regs[mm.GPPU] == [0x03, 0x02]
    assert i2c.readfrom_mem(ADDR, mcp.GPPU, 4) == b"\x03\x02\x03\x02"


def test_mcp_bank1_layout_and_byte_mode_stays():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    i2c.writeto_mem(ADDR, mcp.IOCON, bytes((mcp.BANK,)))
    # BANK = 1: port A at 0x00..0x0A, port B at 0x10..0x1A; IOCON at 0x05/0x15
    i2c.writeto_mem(ADDR, 0x06, b"\xaa")  # GPPUA
    i2c.writeto_mem(ADDR, 0x16, b"\x55")  # GPPUB
    assert model.regs[mm.GPPU] == [0xAA, 0x55]
    assert i2c.readfrom_mem(ADDR, 0x15, 1) == bytes((mcp.BANK,))
    assert i2c.readfrom_mem(ADDR, 0x0A, 2) == b"\x00\xff"  # OLATA, then IODIRB
    i2c.writeto_mem(ADDR, 0x05, bytes((mcp.BANK | mcp.SEQOP,)))
    assert i2c.readfrom_mem(ADDR, 0x16, 3) == b"\x55\x55\x55"


def test_mcp_gpio_pullups_polarity_and_outputs():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    chip = MCP23017(i2c, ADDR)
    assert chip.read_pair(mcp.GPIO) == 0  # floating inputs, no pull-ups
    chip.write_pair(mcp.GPPU, 0xFFFF)
    assert chip.read_pair(mcp.GPIO) == 0xFFFF
    model.drive(9, 0)
    assert chip.read_pair(mcp.GPIO) == 0xFDFF
    chip.write_pair(mcp.IPOL, 0x0200)
    assert chip.read_pair(mcp.GPIO) == 0xFFFF
    chip.write_pair(mcp.IODIR, 0xFF00)  # port A outputs
    chip.write_pair(mcp.GPIO, 0x00A5)  # lands in OLAT
    assert chip.read_pair(mcp.OLAT) == 0x00A5
    assert chip.read_pair(mcp.GPIO) == 0xFFA5
    model.drive(0, 0)  # an output ignores what is outside
    assert chip.read_pair(mcp.GPIO) & 1 == 1


def test_mcp_interrupt_on_change_captures_and_clears_on_gpio_read():
    fresh()
    line = Line(INT_PIN)
    model = McpModel(inta=line)
    bus, i2c, irq = rig(model)
    chip = MCP23017(i2c, ADDR)
    chip.configure(pullups=0xFFFF, irq=0x0003)
    assert irq.value() == 1
    model.drive(1, 0)
    assert irq.value() == 0
    assert chip.read_pair(mcp.INTF) == 0x0002
    assert chip.read_pair(mcp.INTCAP) == 0x00FD  # port B never interrupted; this clears A
    assert irq.value() == 1 and chip.read_pair(mcp.INTF) == 0
    model.drive(1, None)
    model.drive(0, 0)  # second change while pending: not captured
    assert chip.read_reg(mcp.INTCAP) == 0xFF
    assert chip.read_reg(mcp.GPIO) == 0xFE  # clears; the new level is the reference
    assert irq.value() == 1
    model.drive(4, 0)  # a pin without GPINTEN
    assert irq.value() == 1


def test_mcp_interrupt_on_compare_persists_while_pin_differs():
    fresh()
    line = Line(INT_PIN)
    model = McpModel(inta=line)
    bus, i2c, irq = rig(model)
    chip = MCP23017(i2c, ADDR)
    chip.configure(pullups=0xFFFF, irq=0x0001, defval=0x0001, compare=0x0001)
    model.drive(0, 0)
    assert irq.value() == 0
    chip.read_pair(mcp.GPIO)
    assert irq.value() == 0  # still differs from DEFVAL: asserted again at once
    model.drive(0, None)
    chip.read_pair(mcp.GPIO)
    assert irq.value() == 1


def test_mcp_int_outputs_mirror_polarity_and_open_drain():
    fresh()
    a, b = Line(INT_PIN), Line(7)
    model = McpModel(inta=a, intb=b)
    bus, i2c, _ = rig(model)
    chip = MCP23017(i2c, ADDR)
    # power-on: push-pull, active low, not mirrored: both driven high
    assert pins.board.pin(INT_PIN).external == 1 and pins.board.pin(7).external == 1
    chip.configure(pullups=0xFFFF, irq=0xFF00, iocon=mcp.INTPOL)
    model.drive(8, 0)
    assert (a.level(), b.level()) == (0, 1)  # active high on INTB only
    chip.read_pair(mcp.GPIO)
    chip.configure(pullups=0xFFFF, irq=0xFF00, iocon=mcp.MIRROR | mcp.ODR)
    assert pins.board.pin(INT_PIN).external is None  # open drain, idle: let go
    model.drive(8, None)
    assert (a.level(), b.level()) == (0, 0)  # mirrored, pulled low


def test_mcp_driver_configures_in_few_transactions_and_reads_buttons():
    fresh()
    line = Line(INT_PIN)
    model = McpModel(inta=line)
    bus, i2c, irq = rig(model)
    chip = MCP23017(i2c, ADDR)
    bus.clear()
    chip.setup_buttons(0x000F)
    assert len(bus.transactions) == 5  # IOCON twice, the block, GPIO read (w + r)
    r = model.regs
    assert r[mm.IODIR] == [0xFF, 0xFF] and r[mm.GPPU] == [0xFF, 0xFF]
    assert r[mm.IPOL] == [0x0F, 0] and r[mm.GPINTEN] == [0x0F, 0] and r[mm.INTCON] == [0, 0]
    assert model.iocon == mcp.MIRROR | mcp.ODR
    model.drive(2, 0)
    assert irq.value() == 0
    bus.clear()
    assert chip.pressed() == 0b0100
    assert bus.transactions == [(ADDR, "w", 1), (ADDR, "r", 1)]  # port A only
    assert irq.value() == 1
    chip.setup_buttons(0x0300)
    model.drive(9, 0)
    bus.clear()
    assert chip.pressed() == 0x0200
    assert bus.transactions == [(ADDR, "w", 1), (ADDR, "r", 2)]


def test_mcp_setup_recovers_a_chip_left_in_bank1():
    fresh()
    model = McpModel()
    bus, i2c, _ = rig(model)
    i2c.writeto_mem(ADDR, mcp.IOCON, bytes((mcp.BANK | mcp.SEQOP,)))
    chip = MCP23017(i2c, ADDR)
    chip.setup_buttons(0x00FF)
    assert model.iocon == mcp.MIRROR | mcp.ODR
    assert model.regs[mm.GPPU] == [0xFF, 0xFF] and model.regs[mm.IPOL] == [0xFF, 0]


def test_mcp_refuses_what_it_cannot_drive():
    assert "0x20..0x27" in message(ValueError, MCP23017, None, 0x30)
    chip = MCP23017(None)
    assert "BANK = 0" in message(ValueError, chip.configure, iocon=mcp.BANK)
    assert "0..15" in message(ValueError, McpModel().drive, 16, 0)
