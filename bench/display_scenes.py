# Runs under the MicroPython unix port (it needs the built-in framebuf):
#   micropython bench/display_scenes.py
# Prints one JSON object: I2C traffic of typical screen updates with catnip's
# SSD1306 driver, its SH1106 driver and a whole-frame baseline, and show()'s
# CPU cost with each driver.
import gc
import json
import time

import framebuf
from catnip.drivers.sh1106 import SH1106
from catnip.drivers.ssd1306 import SSD1306, Canvas
from devsim import bus as buses
from devsim.models.sh1106 import SH1106 as SH1106Panel
from devsim.models.ssd1306 import SSD1306 as Panel

import machine

ADDR = 0x3C
MUX = 0x70
STATIONS = 7
MENU = ("Play a cat", "Steal a gem", "Pass", "Look at safe", "Scores", "Rules")


class Baseline(framebuf.FrameBuffer):
    """What common drivers do (micropython-lib's ssd1306 among them): set the
    full window with one transaction per command byte, then send all 1024
    bytes on every show()."""

    def __init__(self, i2c, addr):
        self.i2c, self.addr = i2c, addr
        self.buffer = bytearray(1024)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        for cmd in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
                    0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF):
            i2c.writeto(addr, bytes((0x80, cmd)))

    def show(self, canvas=None):  # it is its own canvas
        for cmd in (0x21, 0, 127, 0x22, 0, 7):
            self.i2c.writeto(self.addr, bytes((0x80, cmd)))
        self.i2c.writevto(self.addr, (b"\x40", self.buffer))


class MuxSelect:
    """Stands in for the TCA9548A: takes the one-byte channel select."""

    def write(self, data):
        self.channel = data[0]


def menu(fb, cursor):
    fb.fill(0)
    fb.text("Meow Heist", 24, 0, 1)
    for i, item in enumerate(MENU):
        fb.text(item, 12, 10 + 9 * i, 1)
    fb.text(">", 2, 10 + 9 * cursor, 1)


def hand(fb, player):
    fb.fill(0)
    fb.text("Player %d" % (player + 1), 0, 0, 1)
    fb.hline(0, 9, 128, 1)
    for i in range(5):
        fb.rect(4 + 24 * i, 14, 20, 28, 1)
        fb.text(str(i + 1 + player % 3), 10 + 24 * i, 24, 1)
    fb.text("ok: play  back: undo", 0, 52, 1)


def chosen(fb, player):
    hand(fb, player)
    fb.fill_rect(28, 14, 20, 28, 1)  # the second card, highlighted
    fb.text("2", 34, 24, 0)


def rig(kind, n):
    """n panels behind a mux select, each with a driver of the given kind."""
    buses.reset()
    upstream = buses.bus(0)
    upstream.attach(MUX, MuxSelect())
    i2c = machine.I2C(0, scl=machine.Pin(1), sda=machine.Pin(0))
    screens = []
    for i in range(n):
        # Each panel on its own simulated segment, as behind a mux channel.
        seg = buses.bus("seg%d" % i)
        panel = seg.attach(ADDR, SH1106Panel() if kind == "sh1106" else Panel())
        seg_i2c = _SegmentI2C(seg)
        if kind == "ours":
            disp, fb = SSD1306(seg_i2c, ADDR), Canvas()
        elif kind == "sh1106":
            disp, fb = SH1106(seg_i2c, ADDR), Canvas()
        else:
            disp = fb = Baseline(seg_i2c, ADDR)
        screens.append((fb, disp, panel, seg))
    return i2c, screens


class _SegmentI2C:
    def __init__(self, seg):
        self.seg = seg

    def writeto(self, addr, buf, stop=True):
        self.seg.write(addr, buf)

    def writevto(self, addr, vector, stop=True):
        data = bytearray()
        for b in vector:
            data.extend(b)
        self.seg.write(addr, data)


def traffic(kind, n, before, after):
    """Bytes and bus time (µs at 400 kHz) to go from `before` to `after` on
    n stations, mux channel selects included."""
    i2c, screens = rig(kind, n)
    for i, (fb, disp, _, _) in enumerate(screens):
        before(fb, i)
        disp.show(fb)
    for b in buses.buses.values():
        b.clear()
    for i, (fb, disp, panel, _) in enumerate(screens):
        i2c.writeto(MUX, bytes((1 << i,)))
        after(fb, i)
        disp.show(fb)
        assert panel.screen() == _image(fb), "panel %d does not show the frame" % i
    total = sum(b.bytes_sent() for b in buses.buses.values())
    us = sum(b.wire_us(400000) for b in buses.buses.values())
    return total, us


def _image(fb):
    out = bytearray(1024)
    for y in range(64):
        for x in range(128):
            if fb.pixel(x, y):
                out[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return out


class Counting:
    def writeto(self, addr, buf, stop=True):
        return len(buf)


def show_us(prepare, driver=SSD1306, rounds=2000):
    """Mean µs per show(canvas) (take and send) with an I2C that only counts:
    the driver's own cost."""
    disp, fb = driver(Counting(), ADDR), Canvas()
    menu(fb, 0)
    disp.show(fb)
    total = 0
    for i in range(rounds):
        prepare(fb, i)
        t = time.ticks_us()
        disp.show(fb)
        total += time.ticks_diff(time.ticks_us(), t)
    return total / rounds


def heap_per_panel():
    gc.collect()
    before = gc.mem_alloc()
    fb = SSD1306(Counting(), ADDR)
    gc.collect()
    return gc.mem_alloc() - before, fb


def main():
    # Lists, not dicts: MicroPython's dict does not keep insertion order.
    scenes = (
        ("cursor move, one station", 1, lambda fb, i: menu(fb, 2), lambda fb, i: menu(fb, 3)),
        ("card highlighted, one station", 1, hand, chosen),
        ("screen change, one station", 1, lambda fb, i: menu(fb, 2), lambda fb, i: hand(fb, i)),
        ("screen change, 7 stations", STATIONS, lambda fb, i: menu(fb, 2), lambda fb, i: hand(fb, i)),
        ("nothing changed, 7 stations", STATIONS, lambda fb, i: hand(fb, i), lambda fb, i: hand(fb, i)),
    )
    out = {"traffic": [], "cpu_us": []}
    for name, n, before, after in scenes:
        out["traffic"].append({"scene": name, "stations": n,
                               "ours": traffic("ours", n, before, after),
                               "sh1106": traffic("sh1106", n, before, after),
                               "baseline": traffic("baseline", n, before, after)})
    for name, driver in (("", SSD1306), ("SH1106, ", SH1106)):
        out["cpu_us"].append((name + "no change", show_us(lambda fb, i: None, driver)))
        out["cpu_us"].append((name + "cursor move", show_us(lambda fb, i: menu(fb, i % 6), driver)))
    out["heap_per_panel"] = heap_per_panel()[0]
    print(json.dumps(out))


main()
