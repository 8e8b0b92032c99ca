# The whole tray chain on the simulated table: a load-cell trace (devsim.traces)
# weighs on the HX711 models, the real driver clocks them bit by bit through
# the fake pins, and the real estimator (catnip.tray) turns its readings into
# events. Runs on CPython and MicroPython, in virtual time.
import asyncio
from array import array

from boardcheck import shipped

from catnip import board as boards
from catnip.drivers.hx711 import HX711Group
from catnip.tray import Tray, TrayFeed
from devsim.table import Table


def board(cells):
    """A shipped board with a one-cell tray ("direct") or a four-cell one ("mux")."""
    return boards.parse(shipped("direct" if cells == 1 else "mux"))


NO_WORD = 1 << 24  # in Tap.values: the trace gave None (no conversion)


class Tap:
    """A trace as the table sees it, keeping every conversion each cell's
    HX711 model took from it: times[i] and values[i] (NO_WORD for None),
    compact enough for the MicroPython heap."""

    def __init__(self, trace):
        self.trace = trace
        self.cells = trace.cells
        self.times = [array("i") for _ in range(trace.cells)]
        self.values = [array("i") for _ in range(trace.cells)]
        self._cells = [_TapCell(self, i) for i in range(trace.cells)]

    def cell(self, i):
        return self._cells[i]

    def samples(self, i=0):
        """Cell i's conversions in order, None where the trace gave none."""
        return [None if v == NO_WORD else v for v in self.values[i]]


class _TapCell:
    def __init__(self, tap, i):
        self.source = tap.trace.cell(i)
        self.times = tap.times[i]
        self.values = tap.values[i]

    def counts_at(self, t_us):
        value = self.source.counts_at(t_us)
        self.times.append(t_us)
        self.values.append(NO_WORD if value is None else value)
        return value


class Chain:
    """What came out of one run: the readings (times, and values[i] per
    cell), events [(t_us, event)], driver faults [(t_us, SensorFault)], the
    conversions the models took (tap), the driver's restarts."""

    def __init__(self, tap):
        self.tap = tap
        self.times = array("i")
        self.values = [array("i") for _ in range(tap.cells)]
        self.events = []
        self.faults = []
        self.restarts = 0
        self.alive = False  # the driver's task was still running at the end

    def kinds(self):
        return [e["ev"] for _, e in self.events]

    def skipped(self):
        """Conversions with data that the driver did not deliver (settling
        after its restarts, or words that were never read)."""
        good = len([1 for v in self.tap.values[0] if v != NO_WORD])
        return good - len(self.times)


def run(trace, until_us, rate, on_counts=None, tray=None, events=None, hardware=False,
        during=None):
    """Weigh `trace` on the simulated table until until_us (virtual time).

    Every reading goes to on_counts(now_us, counts) if given, and to `tray`
    (through TrayFeed) if given. With hardware=True the cells are read the
    way the firmware assembles them (catnip.parts.hardware.Hardware.weigh); else
    by an HX711Group at `rate` (the board config has no rate, so Hardware
    reads at 10 SPS). during(table, chain) is awaited alongside, to act on
    the table mid-run."""
    tap = Tap(trace)
    out = Chain(tap)
    b = board(trace.cells)
    with Table(b, counts=tap, rate=rate) as table:
        clock = table.clock
        feed = None
        if tray is not None:
            feed = TrayFeed(tray, lambda ev: out.events.append((clock.now_us(), ev)))

        def counts(values):
            now = clock.now_us()
            out.times.append(now)
            for i in range(len(values)):
                out.values[i].append(values[i])
            if on_counts is not None:
                on_counts(now, values)
            if feed is not None:
                feed.counts(values)

        def fault(error):
            out.faults.append((clock.now_us(), error))
            if feed is not None:
                feed.fault(error)

        if hardware:
            from catnip.parts.hardware import Hardware

            hw = Hardware(b, 2, clock=clock)
            group = hw.tray
            reader = hw.weigh(counts, fault)
            out.hardware = hw
        else:
            cells = b.tray["cells"]
            group = HX711Group(cells[0]["sck"], [c["dout"] for c in cells], rate=rate,
                               clock=clock)
            reader = group.run(counts, fault)

        async def main():
            task = asyncio.create_task(reader)
            if during is not None:
                await during(table, out)
            await clock.pause_ms((until_us - clock.now_us()) // 1000)
            out.alive = not task.done()
            task.cancel()

        asyncio.run(main())
        out.restarts = group.restarts
        for chip in table.cells:
            assert chip.violations == [], chip.violations
    return out


def check_exact(chain):
    """Every reading is, cell by cell, exactly the last conversion its model
    took from the trace before the reading came out: nothing lost or bent
    between the trace and the estimator. Returns, per reading, the index of
    cell 0's conversion in tap.times[0]."""
    index = []
    for i in range(chain.tap.cells):
        times, values = chain.tap.times[i], chain.tap.values[i]
        got = chain.values[i]
        j = 0
        for r in range(len(chain.times)):
            now = chain.times[r]
            while j + 1 < len(times) and times[j + 1] <= now:
                j += 1
            assert times[j] <= now and got[r] == values[j], (
                "cell %d at %d us: driver read %d, the trace gave %d at %d us"
                % (i, now, got[r], values[j], times[j]))
            if i == 0:
                index.append(j)
    return index


def direct(samples, cal, wedged=0, tare=True):
    """The same readings fed straight into a Tray (None is a missed reading):
    [(index, event)]."""
    tray = Tray(cal, wedged=wedged)
    if tare:
        tray.tare()
    events = []
    for k, raw in enumerate(samples):
        if raw is None:
            ev = tray.missed()
        elif isinstance(raw, tuple):
            ev = tray.feed4(*raw)
        else:
            ev = tray.feed(raw)
        if ev is not None:
            events.append((k, ev))
    return tray, events


def summary(events):
    """What an event stream says, without its timing: (ev, n, cats, sensor)."""
    return [(e["ev"], e.get("n"), e.get("cats"), e.get("sensor")) for _, e in events]
