# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# catnip's panel drivers (each of DRIVERS) when a show fails or a picture is begun over: an
# unplugged panel is repainted when back, a failed show resends everything,
# a restart sends what the canvas holds.
import machine
from catnip.drivers.ssd1306 import Canvas
from check import raises
from devsim import bus as buses
from oled import assert_shows, frame_of
from test_ssd1306_driver import DRIVERS, rig, shows_frame


def test_an_unplugged_panel_raises_and_is_repainted_when_back():
    for driver, _ in DRIVERS:
        display, panel, _ = rig(driver=driver)
        display.text("hello", 0, 0, 1)
        display.show()
        panel.unplug()
        display.text("lost?", 0, 20, 1)
        raises(OSError, display.show)
        panel.plug()  # powered up again: dark, reset state, noise in GDDRAM
        display.init_display()
        shows_frame(display, panel, "the whole frame after the panel came back")


def test_a_failed_show_resends_everything_next_time():
    for driver, _ in DRIVERS:
        display, panel, bus = rig(driver=driver)
        display.text("one", 0, 0, 1)
        panel.present = False
        raises(OSError, display.show)
        panel.present = True
        bus.clear()
        display.show()
        assert sum(n for _, _, n in bus.transactions) >= 1024
        shows_frame(display, panel)


def test_a_picture_begun_over_is_not_sent_and_is_wanted_again():
    # The panel keeps digests, not pixels: once the canvas begins another
    # picture, what it took and did not send must be drawn and taken again.
    for driver, model in DRIVERS:
        _begun_over(driver, model)


def _begun_over(driver, model):
    buses.reset()
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    panel = buses.bus(0).attach(0x3C, model(64))
    display = driver(i2c, 0x3C)
    canvas = Canvas()
    canvas.text("mine", 0, 0, 1)
    display.take(canvas)
    assert display.holds(canvas)
    canvas.begin()
    assert not display.holds(canvas)
    canvas.fill(0)
    canvas.text("someone else's", 0, 30, 1)
    buses.bus(0).clear()
    display.show()
    assert buses.bus(0).transactions == [], "nothing of another picture goes out"
    assert display.wants_picture()
    canvas.begin()
    canvas.fill(0)
    canvas.text("mine", 0, 0, 1)
    display.take(canvas)
    display.show()
    assert not display.wants_picture()
    assert_shows(panel, frame_of(canvas, 128, 64), "the picture taken again")


def test_a_restart_sends_the_picture_the_canvas_still_holds_or_clears_the_panel():
    for driver, _ in DRIVERS:
        _restarts(driver)


def _restarts(driver):
    display, panel, _ = rig(driver=driver)
    display.text("kept", 0, 0, 1)
    display.show()
    panel.unplug()
    panel.plug()  # noise in GDDRAM
    display.display.init_display()
    shows_frame(display, panel, "the picture, whole, after the restart")
    assert not display.display.wants_picture()
    display.begin()  # another picture is drawn on the canvas meanwhile
    panel.unplug()
    panel.plug()
    display.display.init_display()
    assert_shows(panel, bytearray(1024), "a cleared panel, not GDDRAM noise")
    assert display.display.wants_picture()
    display.show()  # taken again: only what is lit goes out
    shows_frame(display, panel, "the picture after the redraw")
    assert not display.display.wants_picture()


def test_a_partial_take_after_a_failed_show_leaves_the_picture_wanted():
    for driver, _ in DRIVERS:
        _partial_take(driver)


def _partial_take(driver):
    display, panel, _ = rig(driver=driver)
    display.text("top", 0, 0, 1)
    display.text("bottom", 0, 56, 1)
    display.show()
    display.text("!", 60, 20, 1)
    panel.present = False
    raises(OSError, display.show)  # every band is due from here
    panel.present = True
    display.begin()
    display.display.take(display, 6)  # an announcement's rows only
    display.display.show()
    assert display.display.wants_picture(), "pages 0-5 are due with nothing to send them from"
    display.display.take(display)
    display.display.show()
    assert not display.display.wants_picture()
    shows_frame(display, panel)
