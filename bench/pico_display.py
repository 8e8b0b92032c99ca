# Runs on the emulated Pico (bench/bench_pico.py): the frame push time of
# each panel driver, from show() called to its last byte on the wire, at
# 400 kHz on I2C0 to the world's table panel (0x3D, upstream of the mux).
# The bench models SSD1306 panels only: the SH1106 driver's traffic goes to
# the same SSD1306 model, which takes every byte with the same bus timing
# (its picture is checked by devsim's SH1106 model, not here). Prints one
# line "PUSH [json]": per driver and update, the mean µs of ROUNDS shows.
import json
import time

from machine import I2C, Pin

from catnip.drivers.sh1106 import SH1106
from catnip.drivers.ssd1306 import SSD1306, Canvas

ROUNDS = 4
MENU = ("Play a cat", "Steal a gem", "Pass", "Look at safe", "Scores", "Rules")


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


def lit(fb, i):
    fb.fill(1)
    fb.text("%d" % i, 60, 28, 0)  # every band differs from a dark screen's


# (update, what the panel showed before, what it shows after)
UPDATES = (
    ("whole frame", lambda fb, i: fb.fill(0), lit),
    ("screen change", lambda fb, i: menu(fb, 2), lambda fb, i: hand(fb, i)),
    ("cursor move", lambda fb, i: menu(fb, 2), lambda fb, i: menu(fb, 3)),
    ("nothing changed", lambda fb, i: hand(fb, 0), lambda fb, i: hand(fb, 0)),
)


def push_us(driver, canvas, before, after):
    total = 0
    for i in range(ROUNDS):
        canvas.begin()
        before(canvas, i)
        driver.show(canvas)
        canvas.begin()
        after(canvas, i)
        t = time.ticks_us()
        driver.show(canvas)
        total += time.ticks_diff(time.ticks_us(), t)
    return total // ROUNDS


i2c = I2C(0, sda=Pin(0), scl=Pin(1), freq=400000)
canvas = Canvas()
out = []  # a list: MicroPython's dict keeps no order
for name, Driver in (("ssd1306", SSD1306), ("sh1106", SH1106)):
    driver = Driver(i2c, 0x3D)
    out.append([name, [[update, push_us(driver, canvas, before, after)]
                       for update, before, after in UPDATES]])
print("PUSH " + json.dumps(out))
