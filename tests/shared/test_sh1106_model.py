# The SH1106 model decodes the I2C stream as its datasheet describes:
# 132-column RAM behind a 128-column glass at columns 2..129, page
# addressing only, the DC-DC converter as the panel's supply.
from check import message, raises
from devsim.models.sh1106 import COLUMNS, SH1106, WIDTH
from oled import commands, send


def lit():
    """A model set up as a working module: remap, COM scan, display on
    (the DC-DC converter is on from reset)."""
    m = SH1106()
    commands(m, 0xA1, 0xC8, 0xAF)
    return m


def glass_column(m, x, page=0):
    """The 8 pixels of glass column x on `page`, as a byte (LSB on top)."""
    image = m.screen()
    return image[page * WIDTH + x]


def test_power_on_state_is_the_datasheet_reset():
    m = SH1106()
    assert not m.display_on and m.dc_dc and not m.lit()
    assert m.contrast == 0x80 and m.mux == 64 and (m.col, m.page) == (0, 0)
    assert len(m.ram) == COLUMNS * 8
    assert m.screen() == bytearray(1024), "a dark panel shows nothing"
    assert m.ram != bytearray(len(m.ram)), "RAM starts with noise, so a driver must clear it"
    raises(ValueError, SH1106, 32)


def test_the_glass_shows_ram_columns_2_to_129():
    m = lit()
    m.ram[:] = bytes(len(m.ram))
    for col, b in ((0, 0x01), (1, 0x02), (2, 0x04), (129, 0x08), (130, 0x10), (131, 0x20)):
        m.ram[col] = b
    assert glass_column(m, 0) == 0x04 and glass_column(m, 127) == 0x08
    assert sum(1 for x in range(WIDTH) if glass_column(m, x)) == 2, "columns 0, 1, 130, 131 unseen"
    commands(m, 0xA0)  # no remap: the picture runs the other way, still columns 2..129
    assert glass_column(m, 0) == 0x08 and glass_column(m, 127) == 0x04


def test_page_addressing_steps_the_column_and_keeps_the_page():
    m = lit()
    m.ram[:] = bytes(len(m.ram))
    commands(m, 0xB5, 0x02, 0x10)  # page 5, column 2: glass column 0
    send(m, b"\x40\x11\x22\x33")
    assert bytes(m.ram[5 * COLUMNS + 2:5 * COLUMNS + 5]) == b"\x11\x22\x33"
    assert (m.page, m.col) == (5, 5)
    commands(m, 0x0F, 0x18)  # low nibble, then high: column 0x8F is past the RAM
    assert m.col == 0x8F
    commands(m, 0x01, 0x18)
    send(m, b"\x40\xAA\xBB\xCC")  # columns 129, 130, 131
    assert m.ram[5 * COLUMNS + 131] == 0xCC and m.overrun == 0
    send(m, b"\x40\xDD")
    assert m.overrun == 1, "a byte past column 131 lands nowhere"
    assert m.page == 5, "page addressing never moves to the next page"


def test_ssd1306_only_commands_are_refused():
    m = lit()
    for cmd in (b"\x00\x20\x00", b"\x00\x21\x00\x7f", b"\x00\x22\x00\x07", b"\x00\x8d\x14",
                b"\x00\x2e"):
        assert "SH1106 has no command" in message(ValueError, send, m, cmd), cmd
    assert "0x8A (off) or 0x8B (on)" in message(ValueError, commands, m, 0xAD, 0x14)


def test_the_dc_dc_converter_powers_the_glass():
    m = lit()
    m.ram[:] = bytes([0xFF]) * len(m.ram)
    assert m.lit() and glass_column(m, 10) == 0xFF
    commands(m, 0xAD, 0x8A)
    assert not m.lit() and m.screen() == bytearray(1024)
    commands(m, 0xAD, 0x8B)
    assert m.lit()


def test_status_read_and_replug():
    m = lit()
    assert m.read(1) == b"\x00", "display on: D6 clear"
    commands(m, 0xAE)
    assert m.read(1) == b"\x40"
    m.unplug()
    assert not m.present
    m.plug()
    assert m.present and not m.display_on and m.read(1) == b"\x40"


def test_read_modify_write_returns_to_its_column():
    m = lit()
    commands(m, 0xB0, 0x04, 0x10, 0xE0)
    send(m, b"\x40\x01\x02")
    commands(m, 0xEE)
    assert m.col == 4
