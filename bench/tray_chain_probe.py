# Measures the tray chain's own CPU per reading under the MicroPython unix
# port: the HX711 driver's run() loop, TrayFeed and the Tray estimator, with
# the chips played back (devsim.models.hx711.Playback) instead of the
# bit-level models. Run by bench/bench_tray_chain.py. Prints "name value"
# lines, then OK.
import asyncio
import gc
from time import ticks_diff, ticks_us

from catnip.drivers.hx711 import HX711Group
from catnip.tray import Calibration, Tray, TrayFeed
from devsim.models.hx711 import Playback
from devsim.sessions import Session

READINGS = 1600  # 20 s at 80 readings/s
PER_CAT = 4300
NOISE = 86
OFFSET = 152000


def samples():
    """A game's readings at 80/s: placements, a collapse, fallen cats removed."""
    s = Session("chain-bench", rate_hz=80, noise=NOISE, per_cat=PER_CAT, offset=OFFSET)
    s.t = 2000000
    for turn in "ppppppppcpp":
        if turn == "p":
            s.place()
        else:
            s.collapse()
    return [s.trace.counts_at(k * 12500) for k in range(READINGS + 8)]


class Enough(Exception):
    pass


def chain(words, cells, with_tray):
    """Real microseconds per reading of run() with played-back chips, every
    reading handed to a Tray through TrayFeed (or dropped)."""
    chips = Playback(words[0] & 0xFFFFFF, cells, period_us=12500)
    group = HX711Group(chips.sck, chips.douts, rate=80, clock=chips)
    cal = Calibration(80, [OFFSET] * cells, [1] * cells, PER_CAT, PER_CAT // 50,
                      NOISE * (2 if cells == 4 else 1), 5)
    tray = Tray(cal, wedged=4)
    tray.tare()
    events = []
    feed = TrayFeed(tray, events.append)
    seen = [0]

    def on_counts(counts):
        if with_tray:
            feed.counts(counts)
        n = seen[0] = seen[0] + 1
        chips.word = words[n] & 0xFFFFFF
        if n == 8:
            seen.append(ticks_us())  # past the driver's settling readings
        elif n == READINGS + 8 - 1:
            raise Enough()

    def on_fault(error):
        raise error

    gc.collect()
    try:
        asyncio.run(group.run(on_counts, on_fault))
    except Enough:
        pass
    elapsed = ticks_diff(ticks_us(), seen[1])
    return elapsed / (READINGS - 1), len(events)


def tray_alone(words, cells):
    cal = Calibration(80, [OFFSET] * cells, [1] * cells, PER_CAT, PER_CAT // 50,
                      NOISE * (2 if cells == 4 else 1), 5)
    tray = Tray(cal, wedged=4)
    tray.tare()
    gc.collect()
    t0 = ticks_us()
    if cells == 1:
        for w in words:
            tray.feed(w)
    else:
        for w in words:
            tray.feed4(w, w, w, w)
    return ticks_diff(ticks_us(), t0) / len(words)


def main():
    words = samples()
    for cells in (1, 4):
        whole, events = chain(words, cells, True)
        driver, _ = chain(words, cells, False)
        print("chain_%d_us" % cells, whole)
        print("driver_%d_us" % cells, driver)
        print("tray_%d_us" % cells, tray_alone(words, cells))
        print("events_%d" % cells, events)
    print("OK")


main()
