# The SSD1306 model decodes the I2C stream as the datasheet describes.
from check import message, raises
from devsim.models.ssd1306 import SSD1306, WIDTH, command_length, render
from oled import check_window_stream, commands, lit_model, send


def test_power_on_state_is_the_datasheet_reset():
    m = SSD1306()
    assert not m.display_on and not m.charge_pump and not m.lit()
    assert m.contrast == 0x7F and m.mux == 64 and m.mode == 2
    assert m.screen() == bytearray(1024), "a dark panel shows nothing"
    assert m.ram != bytearray(1024), "GDDRAM starts with noise, so a driver must clear it"


def test_co_bit_switches_between_commands_and_data_in_one_transaction():
    m = lit_model()
    commands(m, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7)
    # Co=1 command, Co=1 data, then Co=0 data to the end.
    send(m, bytes((0x80, 0xA0, 0xC0, 0x11, 0x40, 0x22, 0x33)))
    assert m.commands[-1] == (0xA0,)
    assert bytes(m.ram[0:3]) == b"\x11\x22\x33"


def test_parameters_may_arrive_in_later_transactions():
    m = SSD1306()
    send(m, b"\x80\x81", b"\x80\x42")  # contrast command, then its value
    assert m.contrast == 0x42 and m.commands[-1] == (0x81, 0x42)
    send(m, b"\x00\x21\x05", b"\x00\x09")
    assert (m.col_start, m.col_end) == (5, 9)


def test_horizontal_and_vertical_windows_wrap_around():
    data = [(i * 37 + 11) & 0xFF for i in range(40)]
    check_window_stream(0, (10, 14), (2, 4), data)  # 15 cells, wraps twice
    check_window_stream(1, (100, 102), (6, 7), data)
    check_window_stream(0, (0, 127), (0, 7), data)


def test_page_mode_wraps_within_the_page():
    m = lit_model()
    commands(m, 0xA0, 0x20, 0x02, 0xB3, 0x0E, 0x17)  # page 3, column 0x7E
    next_page = m.ram[4 * WIDTH]
    send(m, b"\x40\x01\x02\x03")
    # the third byte wrapped back to the start column, on the same page
    assert m.ram[3 * WIDTH + 0x7E] == 3 and m.ram[3 * WIDTH + 0x7F] == 2
    assert m.page == 3 and m.ram[4 * WIDTH] == next_page


def test_segment_remap_applies_to_data_written_after_it():
    m = lit_model()  # A1: column address 0 is the left edge
    commands(m, 0x20, 0x00, 0x21, 0, 0, 0x22, 0, 0)
    send(m, b"\x40\x01")
    assert m.pixel(0, 0) == 1
    commands(m, 0xA0)  # remap off: old data stays where it is
    assert m.pixel(0, 0) == 1
    commands(m, 0x21, 0, 0, 0x22, 0, 0)
    send(m, b"\x40\x01")
    assert m.pixel(127, 0) == 1, "new data lands mirrored"


def test_com_scan_direction_flips_the_picture_at_once():
    m = lit_model()
    m.ram[:] = bytes(1024)
    commands(m, 0x20, 0x00, 0x21, 0, 0, 0x22, 0, 0)
    send(m, b"\x40\x01")
    assert m.pixel(0, 0) == 1
    commands(m, 0xC0)
    assert m.pixel(0, 0) == 0 and m.pixel(0, 63) == 1


def test_display_on_needs_the_charge_pump():
    m = SSD1306()
    commands(m, 0xA1, 0xC8, 0xA5, 0xAF)  # entire display on, pump still off
    assert not m.lit() and m.screen() == bytearray(1024)
    commands(m, 0x8D, 0x14)
    assert m.screen() == bytearray(b"\xff" * 1024)
    commands(m, 0xAE)
    assert m.screen() == bytearray(1024)


def test_inverse_and_entire_display_on():
    m = lit_model()
    m.ram[:] = bytes(1024)
    commands(m, 0xA7)
    assert m.screen() == bytearray(b"\xff" * 1024)
    commands(m, 0xA6, 0xA5)
    assert m.screen() == bytearray(b"\xff" * 1024)
    commands(m, 0xA4)
    assert m.screen() == bytearray(1024)


def test_128x32_glass_needs_sequential_com_pins():
    m = lit_model(32)
    assert len(m.screen()) == 512
    m.ram[:] = bytes(1024)
    commands(m, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 3)
    send(m, bytes([0x40]) + bytes(range(256)) * 2)
    good = m.screen()
    assert good == bytearray(bytes(range(256)) * 2)
    commands(m, 0xDA, 0x12)  # the 128x64 setting on a 32-row glass
    assert m.screen() != good, "rows must come out interleaved"


def test_64_row_glass_with_sequential_com_pins_is_interleaved():
    m = lit_model()
    m.ram[:] = bytes(1024)
    m.ram[WIDTH - 1] = 0x01  # SEG127 is the left edge: pixel (0, 0)
    m.ram[2 * WIDTH - 1] = 0x01  # pixel (0, 8)
    assert m.pixel(0, 0) and m.pixel(0, 8)
    commands(m, 0xDA, 0x02)
    assert not (m.pixel(0, 0) and m.pixel(0, 8))


def test_multiplex_ratio_limits_the_rows_scanned():
    m = lit_model()
    m.ram[:] = b"\xff" * 1024
    commands(m, 0xA8, 31)
    lit_rows = sum(1 for y in range(64) if m.pixel(5, y))
    assert lit_rows == 32
    assert "16..64" in message(ValueError, commands, m, 0xA8, 3)


def test_invalid_bytes_are_refused():
    m = SSD1306()
    assert "low six bits" in message(ValueError, send, m, b"\x01\xAF")
    assert "0xfe" in message(ValueError, commands, m, 0xFE)
    assert "mode 3" in message(ValueError, commands, m, 0x20, 0x03)
    assert command_length(0x26) == 7 and command_length(0xB7) == 1
    raises(ValueError, SSD1306, 48)


def test_status_read_and_replug():
    m = lit_model()
    assert m.read(1) == b"\x00"
    commands(m, 0xAE)
    assert m.read(2) == b"\x40\x40"
    m.unplug()
    assert not m.present
    m.plug()
    assert m.present and not m.display_on and m.mode == 2


def test_render_draws_pixels_as_text():
    image = bytearray(1024)
    image[0] = 0x03  # (0, 0) and (0, 1)
    image[2] = 0x02  # (2, 1)
    lines = render(image, 64).split("\n")
    assert len(lines) == 32 and len(lines[0]) == 128
    assert lines[0][:3] == "\u2588 \u2584"
    ascii = render(image, 64, ascii=True).split("\n")
    assert len(ascii) == 64 and ascii[1][:3] == "#.#"
