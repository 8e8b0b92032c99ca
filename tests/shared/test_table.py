# The simulated table built from the shipped boards, exercised through the
# fake machine module and the plain drivers: every model sits where the
# config says, buttons move the right pins, cables and resets behave.
import machine
from boardcheck import shipped
from check import message

from catnip import board as boards
from catnip.drivers.hx711 import HX711Group
from catnip.drivers.pcf8574 import PCF8574
from catnip.drivers.tca9548a import TCA9548A
from devsim import glyphs, pins
from devsim.table import Table

MUX = 0x70


def load(name):
    return boards.parse(shipped(name))


def test_every_part_sits_on_the_bus_and_channel_the_board_names():
    for name in ("direct", "mux"):
        board = load(name)
        with Table(board) as table:
            for k, config in enumerate(board.stations):
                station = table.stations[k]
                where = table.segment(config)
                assert where.devices[config["oled"]["addr"]] is station.oled
                if station.expander is not None:
                    assert where.devices[config["buttons"]["expander"]["addr"]] is station.expander
            if board.table is not None:
                assert table.segment(board.table).devices[board.table["oled"]["addr"]] \
                    is table.display
            assert len(table.cells) == len(board.tray["cells"])


def test_what_the_pico_sees_on_each_bus():
    with Table(load("direct")) as table:
        for bus_id in (0, 1):
            assert machine.I2C(bus_id).scan() == [0x3C, 0x3D]
        table.stations[3].unplug()
        assert machine.I2C(1).scan() == [0x3C]
    with Table(load("mux")) as table:
        i2c = machine.I2C(0)
        assert i2c.scan() == [0x3D, MUX]  # the table display and the mux, no channel on
        for k in range(8):
            i2c.writeto(MUX, bytes((1 << k,)))
            assert i2c.scan() == [0x20, 0x3C, 0x3D, MUX]
            assert table.bus(0).find(0x3C) is table.stations[k].oled


def test_a_press_reaches_only_its_own_expander_and_pulls_int_low():
    with Table(load("mux")) as table:
        i2c = machine.I2C(0)
        mux = TCA9548A(i2c, MUX)
        chip = PCF8574(i2c, 0x20)
        line = machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP)
        for k in range(8):
            mux.select(k)
            chip.setup_buttons(0x0F)
        assert line.value() == 1
        table.stations[5].press("down")
        table.advance(10)
        assert line.value() == 0
        for k in range(8):
            mux.select(k)
            assert chip.pressed() == (0b0010 if k == 5 else 0), k
        assert line.value() == 1  # the read released INT
        table.stations[5].release("down")
        table.advance(10)
        mux.select(5)
        assert chip.pressed() == 0


def test_direct_buttons_pull_their_pico_pins_and_the_cable_cuts_them():
    with Table(load("direct")) as table:
        pin = machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP)  # station 3 ok
        station = table.stations[2]
        station.press("ok")
        table.advance(10)
        assert pin.value() == 0
        station.unplug()
        assert pin.value() == 1
        station.plug()  # still held: the contact is closed again
        assert pin.value() == 0
        station.release("ok")
        table.advance(10)
        assert pin.value() == 1
        assert "up, down, ok, back" in message(ValueError, station.press, "left")


def test_the_mux_reset_pin():
    with Table(load("mux")) as table:
        i2c = machine.I2C(0)
        i2c.writeto(MUX, b"\x04")
        reset = machine.Pin(2)  # floating input: the breakout's pull-up holds it high
        assert reset.value() == 1 and MUX in i2c.scan()
        reset.init(machine.Pin.OUT, value=0)
        assert MUX not in i2c.scan() and table.mux.model.control == 0
        reset.value(1)
        assert i2c.scan() == [0x3D, MUX]  # back with no channel on
        table.mux.unplug()
        reset.value(0)
        reset.value(1)
        assert MUX not in i2c.scan()  # released from reset, but still unplugged
        table.mux.plug()
        assert MUX in i2c.scan()


def test_load_cells_weigh_what_the_table_says():
    with Table(load("mux"), counts=(10, -20, 30, -40)) as table:
        group = HX711Group(20, (16, 17, 18, 19), clock=table.clock)
        assert list(group.read()) == [10, -20, 30, -40]
        table.counts = lambda t_us: t_us // 1000  # each cell: when it converted, in ms
        start = table.now_ms()
        counts = list(group.read())
        # The word is clocked out once every cell has one: each is from its
        # own conversion, up to a period before the read ends.
        assert all(start <= c <= table.now_ms() for c in counts), (start, counts)
        assert len(set(counts)) == 4  # four oscillators, four moments
        table.counts = 77
        assert list(group.read()) == [77] * 4
        for cell in table.cells:
            assert not cell.violations


def test_unplugged_parts_stop_answering_and_come_back_reset():
    with Table(load("mux")) as table:
        i2c = machine.I2C(0)
        station = table.stations[1]
        i2c.writeto(MUX, b"\x02")
        i2c.writeto(0x3C, b"\x00\xaf\x8d\x14")
        assert station.oled.display_on and station.plugged
        station.unplug()
        assert 0x3C not in i2c.scan() and 0x20 not in i2c.scan()
        station.plug()
        assert not station.oled.display_on and station.expander.latch == 0xFF


def test_buzzer_and_closing_the_table():
    before = pins.board
    with Table(load("direct")) as table:
        assert pins.board is not before  # the table's own, timed pins
        machine.PWM(machine.Pin(22), freq=880, duty_u16=1000)
        assert table.buzzer() == (880, 1000)
    assert pins.board is before


def test_reading_text_back_from_a_screen():
    try:
        import framebuf
    except ImportError:  # CPython draws no text, and says so when asked to read it
        text = message(RuntimeError, glyphs.lines, bytes(1024), 64)
        assert "MicroPython" in text
        return
    image = bytearray(1024)
    fb = framebuf.FrameBuffer(image, 128, 64, framebuf.MONO_VLSB)
    fb.text("Meow Heist", 3, 0, 1)
    fb.hline(0, 9, 128, 1)
    fb.text(">", 0, 12, 1)
    fb.text("Play a cat", 12, 12, 1)
    fb.fill_rect(0, 21, 128, 10, 1)
    fb.text("Steal gems", 12, 22, 0)  # the highlighted row: dark on lit
    fb.fill_rect(0, 33, 128, 8, 1)
    fb.text("Pass", 12, 33, 0)  # a bar no taller than the text
    fb.text("a,b.c-d_g|y", 5, 43, 1)
    fb.text("42", 100, 54, 1)
    assert glyphs.lines(image, 64) == ["Meow Heist", "> Play a cat", "Steal gems", "Pass",
                                       "a,b.c-d_g|y", "42"]
    found = glyphs.find(image, 64)
    assert (22, 12, "S", True) in found and (0, 3, "M", False) in found
    assert glyphs.lines(bytes(1024), 64) == []
