"""Button input figures: I2C traffic per poll for seven stations behind the
TCA9548A, with and without the shared interrupt line, and the poll's CPU
cost and RAM on the MicroPython unix port."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "devsim", ROOT / "tests" / "shared", ROOT / "tests"):
    sys.path.insert(0, str(folder))

import mpunix  # noqa: E402
from inputrig import Table  # noqa: E402

Row = tuple[str, str, float | int | str, str, str]
POLL_MS = 10
SECONDS = 10


def _traffic(chip: str, irq: bool, activity: str) -> tuple[float, float]:
    """(bytes on the wire per poll, bus µs per poll at 400 kHz), over SECONDS."""
    table = Table(chip=chip, irq=irq, poll_ms=POLL_MS)
    table.run(0, POLL_MS)
    if activity == "held":
        table.keys[3][0].press(POLL_MS)
    elif activity == "tapping":
        for n in range(SECONDS * 1000 // 400):  # a 120 ms tap every 400 ms, station by station
            table.keys[n % 7][n % 4].tap(POLL_MS + 400 * n, 120)
    table.run(POLL_MS, 100)
    table.bus.clear()
    table.run(100, 100 + SECONDS * 1000, POLL_MS)
    polls = SECONDS * 1000 // POLL_MS
    return table.bus.bytes_sent() / polls, table.bus.wire_us() / polls


_CPU_SCRIPT = r"""
import gc
from time import ticks_us, ticks_diff
import inputrig, stubi2c
from catnip.drivers.buttons import Buttons, ExpanderSource, GpioSource
from catnip.drivers.pcf8574 import PCF8574
from catnip.drivers.tca9548a import TCA9548A

clock = [1000]

def per_poll(buttons, n=3000):
    # warm up past a full read, so held buttons are known, then time n polls
    for i in range(n + 200):
        if i == 200:
            t0 = ticks_us()
        clock[0] += 10
        buttons.poll(clock[0])
        buttons.queue.clear()
    return ticks_diff(ticks_us(), t0) / n

b, keys = inputrig.gpio_buttons((10, 11, 12, 13))
print("gpio_idle", per_poll(b))
keys[0].press(0); keys[0].settle()
print("gpio_held", per_poll(b))
for irq in (False, True):
    t = inputrig.Table(irq=irq)
    t.run(0, 10)
    stub = stubi2c.swap_in(t.input)
    name = "irq" if irq else "poll"
    print("stations_%s_idle" % name, per_poll(t.input))
    stub.port = 0xFE  # button 0 of every station held
    print("stations_%s_held" % name, per_poll(t.input))

stub = stubi2c.StubI2C()
gc.collect()
before = gc.mem_alloc()
buttons = Buttons(irq=None)
mux = TCA9548A(stub)
for k in range(7):
    buttons.add(ExpanderSource(PCF8574(stub, 0x20), 0x0F, mux, k, irq=True), repeat=3)
gc.collect()
print("ram_7_stations", gc.mem_alloc() - before)
print("OK")
"""


def _unix_port() -> dict[str, float]:
    proc = mpunix.run(["-c", _CPU_SCRIPT], path=[ROOT / "tests" / "shared"])
    if not proc.stdout.rstrip().endswith("OK"):
        raise RuntimeError(f"micropython input bench failed:\n{proc.stdout}\n{proc.stderr}")
    figures = {}
    for line in proc.stdout.splitlines()[:-1]:
        name, value = line.split()
        figures[name] = float(value)
    return figures


def rows() -> Iterator[Row]:
    for chip in ("pcf8574", "mcp23017"):
        for irq in (False, True):
            for activity in ("idle", "held", "tapping"):
                per_poll, wire_us = _traffic(chip, irq, activity)
                how = "shared INT" if irq else "no INT"
                note = f"{wire_us:.0f} µs of bus at 400 kHz per {POLL_MS} ms poll"
                if irq and activity == "idle":
                    note += "; a full read every 1 s"
                what = {"idle": "idle", "held": "one button held",
                        "tapping": "a tap every 400 ms"}[activity]
                yield ("input", f"7 × {chip.upper()}, {how}, {what}", per_poll,
                       "B/poll", note)
    cpu = _unix_port()
    pico = "unix port; ×60-90 on the Pico"
    gpio = pico + "; includes devsim's machine.Pin, Python where the Pico's is C"
    yield ("input", "poll CPU, 4 GPIO buttons idle", cpu["gpio_idle"], "µs", gpio)
    yield ("input", "poll CPU, 4 GPIO buttons, one held", cpu["gpio_held"], "µs", gpio)
    for name, label in (("poll", "no INT"), ("irq", "shared INT")):
        for state in ("idle", "held"):
            what = "idle" if state == "idle" else "a button held on each"
            yield ("input", f"poll CPU, 7 stations, {label}, {what}",
                   cpu[f"stations_{name}_{state}"], "µs",
                   pico + "; I2C stubbed: firmware code only, add the bus time above")
    yield ("input", "RAM, poller + drivers for 7 stations", int(cpu["ram_7_stations"]), "B",
           "unix port (64-bit); about half on the Pico")
