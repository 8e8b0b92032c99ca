# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# The SSD1306 driver against the SSD1306 model on the fake machine's I2C bus:
# whatever the driver draws is what the panel shows, with little traffic.
# What every panel driver must do runs on the SH1106 too (for each of
# DRIVERS); its own traffic is in test_sh1106_driver.
import gc

import machine
from catnip.drivers.bands import BAND
from catnip.drivers.sh1106 import SH1106
from catnip.drivers.ssd1306 import SSD1306, Canvas
from catnip.rules.rng import Rng
from check import raises
from devsim import bus as buses
from devsim.models.sh1106 import SH1106 as SH1106Panel
from devsim.models.ssd1306 import SSD1306 as Panel
from oled import assert_shows, frame_of, rotated

# The datasheet's software initialisation flow chart, in its order.
DATASHEET_ORDER = (0xA8, 0xD3, 0x40, (0xA0, 0xA1), (0xC0, 0xC8), 0xDA, 0x81, 0xA4, 0xA6, 0xD5,
                   0x8D, 0xAF)


class Drawn(Canvas):
    """A canvas bound to one panel, so a test can draw and show() as on a
    one-panel device."""

    def __init__(self, display):
        super().__init__()
        self.display = display
        self.height = display.height

    def show(self):
        self.display.show(self)

    def __getattr__(self, name):  # the panel's settings and state
        return getattr(self.display, name)


DRIVERS = ((SSD1306, Panel), (SH1106, SH1106Panel))  # each driver, and the model of its chip


def rig(height=64, addr=0x3C, flip=False, driver=SSD1306):
    buses.reset()
    model = dict(DRIVERS)[driver]
    panel = buses.bus(0).attach(addr, model(height))
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    return Drawn(driver(i2c, addr, height, flip=flip)), panel, buses.bus(0)


def each_driver(heights=(64, 32)):
    """(driver, height) for every driver at every height its modules come in."""
    return [(d, h) for d, _ in DRIVERS for h in heights if d is SSD1306 or h == 64]


def shows_frame(display, panel, what="the frame"):
    assert_shows(panel, frame_of(display, 128, display.height), what)


def _matches(op, want):
    return op in want if isinstance(want, tuple) else op == want


def test_init_follows_the_datasheet_flow_chart():
    for height in (64, 32):
        display, panel, _ = rig(height)
        ops = [c[0] for c in panel.commands]
        assert ops[0] == 0xAE, "the panel stays dark while it is configured"
        at = 0
        for want in DATASHEET_ORDER:
            while at < len(ops) and not _matches(ops[at], want):
                at += 1
            assert at < len(ops), "init lacks %r in the datasheet's order: %r" % (want, ops)
        assert panel.mux == height and panel.charge_pump and panel.display_on
        assert panel.com_pins == (0x12 if height == 64 else 0x02)
        assert panel.mode == 0, "horizontal addressing lets one window span pages"
        assert (0x8D, 0x14) in panel.commands
        assert ops.index(0x8D) < ops.index(0xAF), "charge pump before display on"
        shows_frame(display, panel, "a blank frame (GDDRAM noise cleared)")


def _draw_randomly(fb, rng, height):
    kind = rng.below(9)
    x, y = rng.below(140) - 6, rng.below(height + 12) - 6
    w, h = rng.below(60) + 1, rng.below(30) + 1
    c = rng.below(2)
    if kind == 0:
        fb.pixel(x, y, c)
    elif kind == 1:
        fb.line(x, y, rng.below(128), rng.below(height), c)
    elif kind == 2:
        fb.rect(x, y, w, h, c)
    elif kind == 3:
        fb.fill_rect(x, y, w, h, c)
    elif kind == 4:
        fb.text("cat %d" % rng.below(100), x, y, c)
    elif kind == 5:
        fb.hline(x, y, w, c)
    elif kind == 6:
        fb.vline(x, y, h, c)
    elif kind == 7:
        fb.scroll(rng.below(5) - 2, rng.below(5) - 2)
    elif rng.below(6) == 0:
        fb.fill(c)
    else:
        fb.ellipse(x, y, w // 2, h // 2, c, bool(c))


def test_random_drawings_reach_the_panel_pixel_for_pixel():
    for driver, height in each_driver():
        display, panel, _ = rig(height, driver=driver)
        rng = Rng("random drawings %d" % height)
        for step in range(60):
            for _ in range(rng.below(4) + 1):
                _draw_randomly(display, rng, height)
            display.show()
            shows_frame(display, panel, "step %d of the random drawing" % step)


def test_flip_turns_the_picture_and_later_updates_stay_turned():
    for driver, _ in DRIVERS:
        _flip_turns_the_picture(driver)


def _flip_turns_the_picture(driver):
    display, panel, _ = rig(driver=driver)
    display.text("upside", 3, 5, 1)
    display.fill_rect(100, 40, 20, 10, 1)
    display.show()
    display.flip(True)
    assert_shows(panel, rotated(frame_of(display, 128, 64), 64), "the frame turned over")
    display.text("more", 40, 30, 1)
    display.show()
    assert_shows(panel, rotated(frame_of(display, 128, 64), 64), "a partial update turned over")
    display.flip(False)
    shows_frame(display, panel, "the frame upright again")
    _, panel, _ = rig(flip=True, driver=driver)
    assert panel.seg_remap is False and panel.com_remap is False


def test_no_change_sends_nothing():
    for driver, _ in DRIVERS:
        display, _, bus = rig(driver=driver)
        display.text("steady", 0, 0, 1)
        display.show()
        bus.clear()
        display.show()
        display.pixel(3, 3, 1)
        display.pixel(3, 3, 0)
        display.show()
        assert bus.transactions == [], driver


def test_a_small_change_sends_one_window_of_its_columns():
    display, panel, bus = rig()
    bus.clear()
    display.text(">", 0, 16, 1)  # a cursor: page 2, its ink in columns 1-4
    display.show()
    assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 9)]
    assert panel.commands[-2:] == [(0x21, 1, 8), (0x22, 2, 2)]
    shows_frame(display, panel, "the cursor")


def test_changes_on_one_page_go_out_as_one_span():
    display, panel, bus = rig()
    bus.clear()
    display.pixel(20, 9, 1)
    display.pixel(70, 9, 1)
    display.show()
    # columns 20-70, widened to a whole number of 8-column steps: 20-75
    assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 1 + 56)]
    assert panel.commands[-2:] == [(0x21, 20, 75), (0x22, 1, 1)]
    shows_frame(display, panel)


def test_pages_changed_far_apart_get_their_own_windows():
    display, panel, bus = rig()
    bus.clear()
    display.pixel(0, 9, 1)  # page 1, column 0
    display.pixel(127, 17, 1)  # page 2, column 127: the window ends at the edge
    display.show()
    assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 9)] * 2
    assert panel.commands[-4:] == [(0x21, 0, 7), (0x22, 1, 1), (0x21, 120, 127), (0x22, 2, 2)]
    shows_frame(display, panel)


def test_neighbouring_pages_changed_near_each_other_share_a_window():
    display, panel, bus = rig()
    bus.clear()
    display.pixel(10, 3, 1)  # page 0
    display.pixel(13, 11, 1)  # page 1: one window of columns 10-17 for both
    display.show()
    assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 9), (0x3C, "w", 9)]
    assert panel.commands[-2:] == [(0x21, 10, 17), (0x22, 0, 1)]
    shows_frame(display, panel)


def test_a_change_inside_a_word_is_sent_from_its_own_column():
    # A page's lit columns are found four at a time: on a page dark but for
    # the change, the window must start at the byte that changed, not at its
    # word, and end where the change does.
    for x in range(0, 128):
        display, panel, bus = rig()
        display.text("cat", 40, 40, 1)
        display.show()
        bus.clear()
        display.pixel(x, 20, 1)
        display.pixel(x, 21, 1)
        display.show()
        first = min(x, 120)
        assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 9)], (x, bus.transactions)
        assert panel.commands[-2:] == [(0x21, first, first + 7), (0x22, 2, 2)], \
            (x, panel.commands[-2:])
        shows_frame(display, panel, "a dot at column %d" % x)


def test_a_change_anywhere_is_sent_in_its_own_band():
    # Every column, and every bit of a byte: a change confined to one word
    # of a band always changes its digest. On a page lit from edge to edge
    # the window is the band.
    for x in range(0, 128):
        display, panel, bus = rig()
        display.text("cat", 40, 40, 1)
        display.hline(0, 23, 128, 1)
        display.show()
        for y in range(16, 23):
            bus.clear()
            display.pixel(x, y, 1)
            display.show()
            first = x // BAND * BAND
            assert bus.transactions == [(0x3C, "w", 7), (0x3C, "w", 1 + BAND)], \
                (x, y, bus.transactions)
            assert panel.commands[-2:] == [(0x21, first, first + BAND - 1), (0x22, 2, 2)], \
                (x, panel.commands[-2:])
        shows_frame(display, panel, "a bar at column %d" % x)


def test_small_random_changes_reach_the_panel_in_their_bands():
    # Each step changes a few characters here and there, as a move does on a
    # station: the panel must show the picture exactly, and no window may
    # carry more than its page's changed bands, less the columns dark before
    # and after, widened to the next 8-column step.
    rng = Rng("small changes")
    display, panel, bus = rig()
    display.text("Heist 2/8  table", 0, 0, 1)
    display.show()
    for step in range(80):
        before = frame_of(display, 128, 64)
        for _ in range(rng.below(3) + 1):
            x, y = rng.below(128), rng.below(8) * 8
            display.fill_rect(x, y, 8, 8, 0)
            display.text(chr(33 + rng.below(90)), x, y, rng.below(4) != 0)
        bus.clear()
        display.show()
        shows_frame(display, panel, "step %d of the small changes" % step)
        after = frame_of(display, 128, 64)
        changed = [[c for c in range(128) if before[p * 128 + c] != after[p * 128 + c]]
                   for p in range(8)]
        sent = sum(n - 1 for _, _, n in bus.transactions if n != 7)
        most = 0
        for p in range(8):
            if changed[p]:
                lit = [c for c in range(128) if before[p * 128 + c] or after[p * 128 + c]]
                lo = max(changed[p][0] // BAND * BAND, lit[0])
                hi = min(changed[p][-1] // BAND * BAND + BAND - 1, lit[-1])
                most += (hi - lo) // 8 * 8 + 8
        # joined pages may carry more columns than their own, but only where
        # a window of their own would have cost as many bytes
        assert sent <= most + 9 * sum(1 for c in changed if c), (step, sent, most)


def test_pages_changed_in_the_same_bands_share_a_window():
    display, panel, bus = rig()
    bus.clear()
    display.fill_rect(20, 0, 10, 64, 1)  # band 1 of every page
    display.show()
    assert bus.transactions[0] == (0x3C, "w", 7)
    assert bus.transactions[1:] == [(0x3C, "w", 17)] * 8
    assert panel.commands[-1] == (0x22, 0, 7)
    bus.clear()
    display.fill(1)
    display.show()
    assert bus.transactions == [(0x3C, "w", 7)] + [(0x3C, "w", 129)] * 8
    shows_frame(display, panel, "a full frame")


def test_settings_reach_the_panel():
    display, panel, _ = rig()
    display.contrast(0x10)
    assert panel.contrast == 0x10
    raises(ValueError, display.contrast, 256)
    display.invert(True)
    assert panel.inverted
    display.invert(False)
    assert not panel.inverted
    display.sleep(True)
    assert not panel.lit() and panel.commands[-1] == (0x8D, 0x10)
    display.sleep(False)
    assert panel.lit()
    shows_frame(display, panel, "the frame kept through sleep")
    raises(ValueError, SSD1306, display.i2c, 0x3C, 48)


class CountingI2C:
    """Takes every write without allocating, to measure the driver alone."""

    def __init__(self):
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)
        return len(buf)


def test_take_and_show_allocate_nothing():
    for driver, _ in DRIVERS:
        _allocates_nothing(Drawn(driver(CountingI2C())))


def _allocates_nothing(display):
    display.show()
    for change in (None, "one band", "two pages", "everything"):
        if change == "one band":
            display.text("x", 5, 5, 1)
        elif change == "two pages":
            display.text("x", 0, 60, 1)
            display.pixel(127, 0, 1)
        elif change == "everything":
            display.fill(1)
        gc.collect()
        before = gc.mem_alloc()
        display.display.take(display)
        display.display.show()
        assert gc.mem_alloc() == before, "%s show() allocated %d bytes" % (
            type(display.display).__name__, gc.mem_alloc() - before)


def test_one_canvas_serves_several_panels():
    # one of each driver, on the same bus
    buses.reset()
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    panels = [buses.bus(0).attach(0x3C, Panel(64)), buses.bus(0).attach(0x3D, SH1106Panel())]
    displays = [SSD1306(i2c, 0x3C), SH1106(i2c, 0x3D)]
    canvas = Canvas()
    for k in range(2):
        canvas.fill(0)
        canvas.text("panel %d" % k, 0, 8 * k, 1)
        displays[k].show(canvas)
        assert_shows(panels[k], frame_of(canvas, 128, 64), "panel %d" % k)
    canvas.fill(0)
    canvas.text("panel 0", 0, 0, 1)
    assert not displays[0].take(canvas), "taking what it shows changes nothing"
    assert_shows(panels[1], frame_of(_drawn("panel 1", 8), 128, 64), "panel 1 kept its own")


def _drawn(text, y):
    c = Canvas()
    c.text(text, 0, y, 1)
    return c
