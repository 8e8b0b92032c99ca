# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# The SH1106 driver's own traffic, against the SH1106 model: every page's
# columns go out with a page and column command of their own, shifted to
# RAM column 2, and nothing an SH1106 lacks is sent. What every driver must
# do (pixels, flip, restarts, no allocation) is in test_ssd1306_driver.
from catnip.drivers.sh1106 import SH1106
from check import message, raises
from oled import assert_shows, frame_of
from test_ssd1306_driver import rig

PAGE_CMD = 4  # control byte, page, column low and high nibbles


def sh1106_rig():
    return rig(driver=SH1106)


def windows(panel, n):
    """The last n (page, column) set by page and column commands."""
    out = []
    page = col = None
    for cmd in panel.commands:
        op = cmd[0]
        if 0xB0 <= op < 0xB8:
            page = op & 7
        elif op < 0x10:
            col = (col or 0) & 0xF0 | op
        elif op < 0x20:
            col = (col or 0) & 0x0F | (op & 0x0F) << 4
            out.append((page, col))
    return out[-n:]


def test_init_sets_up_the_module_and_clears_its_ram():
    display, panel, _ = sh1106_rig()
    ops = [c[0] for c in panel.commands]
    assert ops[0] == 0xAE, "the panel stays dark while it is configured"
    assert (0xAD, 0x8B) in panel.commands and ops.index(0xAD) < ops.index(0xAF), \
        "DC-DC on before display on"
    assert not {0x20, 0x21, 0x22, 0x8D} & set(ops), "no SSD1306-only command"
    assert panel.lit() and panel.seg_remap and panel.com_remap and panel.mux == 64
    assert_shows(panel, bytearray(1024), "a blank frame (RAM noise cleared)")
    assert panel.overrun == 0
    assert "64 rows" in message(ValueError, SH1106, display.i2c, 0x3C, 32)


def test_a_full_frame_is_eight_page_writes():
    display, panel, bus = sh1106_rig()
    bus.clear()
    display.fill(1)
    display.show()
    assert bus.transactions == [(0x3C, "w", PAGE_CMD), (0x3C, "w", 129)] * 8
    assert windows(panel, 8) == [(page, 2) for page in range(8)]
    assert_shows(panel, frame_of(display, 128, 64), "a full frame")
    assert panel.overrun == 0


def test_a_small_change_sends_its_page_from_ram_column_plus_two():
    display, panel, bus = sh1106_rig()
    bus.clear()
    display.text(">", 0, 16, 1)  # a cursor: page 2, its ink in columns 1-4
    display.show()
    assert bus.transactions == [(0x3C, "w", PAGE_CMD), (0x3C, "w", 9)]
    assert windows(panel, 1) == [(2, 1 + 2)]
    assert_shows(panel, frame_of(display, 128, 64), "the cursor")


def test_the_right_edge_stays_inside_the_ram():
    display, panel, bus = sh1106_rig()
    bus.clear()
    display.pixel(127, 9, 1)
    display.pixel(127, 60, 1)
    display.show()
    assert windows(panel, 2) == [(1, 120 + 2), (7, 120 + 2)]
    assert panel.overrun == 0
    assert_shows(panel, frame_of(display, 128, 64), "both edge pixels")


def test_neighbouring_pages_join_only_when_that_costs_nothing():
    display, panel, bus = sh1106_rig()
    bus.clear()
    display.pixel(10, 3, 1)  # page 0, columns 10-17
    display.pixel(60, 11, 1)  # page 1, columns 60-67: its own columns
    display.show()
    assert bus.transactions == [(0x3C, "w", PAGE_CMD), (0x3C, "w", 9)] * 2
    assert windows(panel, 2) == [(0, 10 + 2), (1, 60 + 2)]
    assert_shows(panel, frame_of(display, 128, 64))


def test_sleep_turns_the_dc_dc_converter_off_and_back_on():
    display, panel, _ = sh1106_rig()
    display.text("zzz", 0, 0, 1)
    display.show()
    display.sleep(True)
    assert not panel.lit() and not panel.dc_dc and panel.commands[-1] == (0xAD, 0x8A)
    display.sleep(False)
    assert panel.lit()
    assert_shows(panel, frame_of(display, 128, 64), "the frame kept through sleep")
    display.contrast(0x10)
    display.invert(True)
    assert panel.contrast == 0x10 and panel.inverted
    raises(ValueError, display.contrast, 256)


def test_a_screen_builds_the_driver_its_oled_names_without_a_word_on_the_bus():
    from catnip.drivers.ssd1306 import SSD1306
    from catnip.parts.screen import Screen, panel

    _, _, bus = sh1106_rig()
    bus.clear()
    oled = {"addr": 0x3C, "height": 64, "flip": False}
    assert type(Screen(bus, oled).panel) is SSD1306, "an oled that names no panel is an SSD1306"
    for kind, driver in (("ssd1306", SSD1306), ("sh1106", SH1106)):
        oled["panel"] = kind
        assert type(Screen(bus, oled).panel) is driver
    assert bus.transactions == []
    oled["panel"] = "ssd1315"
    assert "ssd1306 or sh1106" in message(ValueError, panel, bus, oled)
