# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# A station's screen through the hardware layer, on every panel the boards may
# name (tablerig.PANELS): settings and a flip kept until the next flush and
# through a replug, and a flush that allocates nothing.
from check import message
from tablerig import PANELS, Rig, canvas, draw, load, shown

from catnip.parts.hardware import Channel


def test_settings_are_kept_until_flush_and_survive_a_replug():
    for panel in PANELS:
        _settings_kept(panel)


def _settings_kept(panel):
    with Rig(load("mux", panel=panel), 2) as rig:
        screen, station = rig.station(0)
        draw(screen, 0)
        rig.run(20)
        bus = rig.table.bus(0)
        bus.clear()
        screen.invert(True)
        screen.contrast(0x10)
        assert bus.transactions == []
        rig.run(10)
        assert station.oled.inverted and station.oled.contrast == 0x10
        station.unplug()
        rig.run(1200)
        station.plug()
        rig.run(600)
        assert station.oled.inverted and station.oled.contrast == 0x10
        screen.invert(False)
        rig.run(10)
        assert not station.oled.inverted and not shown(screen, station.oled)
        screen.sleep(True)
        rig.run(1500)
        assert not station.oled.lit() and screen.restarts == 0  # asleep is not reset
        screen.sleep(False)
        rig.run(10)
        assert station.oled.lit() and not shown(screen, station.oled)
        assert "0..255" in message(ValueError, screen.contrast, 300)


def test_flush_allocates_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return
    from stubi2c import StubI2C

    from catnip.drivers.tca9548a import TCA9548A

    with Rig(load("mux", panel="mixed"), 7) as rig:  # both drivers
        hw = rig.hw
        rig.run(20)
        stub = StubI2C()
        stub.port = 0x00  # status byte: display on
        mux = TCA9548A(stub)
        for k in range(7):
            hw.screens[k].panel.i2c = Channel(stub, mux, k)
            draw(hw.screens[k], k, "%d" % k)
        hw.table.panel.i2c = stub
        now = rig.table.ticks_ms() + 5000  # every probe is due
        heap_lock()
        try:
            hw.flush(now)  # changed frames, probes
            canvas(hw.screens[3]).fill_rect(0, 30, 40, 4, 1)
            hw.screens[3].take(canvas(hw.screens[3]))
            hw.flush(now + 10)
            hw.flush(now + 20)  # nothing changed
        finally:
            heap_unlock()
        assert mux.selects >= 7


def test_a_flip_is_sent_at_the_next_flush_and_survives_a_replug():
    from devsim.models.ssd1306 import mismatch
    from oled import rotated

    for panel in PANELS:
        with Rig(load("mux", panel=panel), 2) as rig:
            screen, station = rig.station(1)
            draw(screen, 1)
            rig.run(20)
            bus = rig.table.bus(0)
            bus.clear()
            screen.flip(True)
            assert bus.transactions == []
            rig.run(10)
            turned = rotated(bytes(canvas(screen).buf), 64)
            assert not mismatch(turned, station.oled.screen(), 64), panel
            station.unplug()
            rig.run(1200)
            station.plug()
            rig.run(600)
            assert not mismatch(turned, station.oled.screen(), 64), panel + " after a replug"
            screen.flip(False)
            rig.run(10)
            assert not shown(screen, station.oled), panel
