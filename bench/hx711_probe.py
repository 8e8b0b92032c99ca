# Measures the HX711 driver under the MicroPython unix port; run by
# bench/bench_hx711.py. Prints "name value" lines, then OK.
import gc

import asyncio
from time import ticks_diff, ticks_us

from catnip.drivers.hx711 import A128, HX711Group
from devsim.models.hx711 import HX711Model, Playback, constant
from devsim.timing import RealClock, VirtualClock

SCK = 2
DOUTS = (3, 4, 5, 6)
READS = 40


def report(name, value):
    print(name, value)


def driver_alone(cells):
    """Time and heap per read with played-back chips: the driver's own cost."""
    chips = Playback(0x5A5A5A, cells)
    group = HX711Group(chips.sck, chips.douts, clock=chips)
    for _ in range(4):
        group.read()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    t0 = ticks_us()
    for _ in range(READS):
        group.read()
    elapsed = ticks_diff(ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    gc.enable()
    report("alone_%d_us" % cells, elapsed / READS)
    report("alone_%d_bytes" % cells, allocated / READS)
    report("alone_%d_pulses" % cells, chips.pulses)

    async def reads():
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for _ in range(READS):
            await group.read_async()
        return gc.mem_alloc() - before

    allocated = asyncio.run(reads())
    gc.enable()
    report("async_%d_bytes" % cells, allocated / READS)

    class Enough(Exception):
        pass

    marks = []

    def on_counts(counts):
        marks.append(gc.mem_alloc())  # preallocated below: appending is free
        if len(marks) == READS:
            raise Enough()

    def on_fault(error):
        raise error

    gc.collect()
    marks.extend(range(READS))  # room for every mark
    del marks[:]
    gc.disable()
    try:
        asyncio.run(group.run(on_counts, on_fault))
    except Enough:
        pass
    gc.enable()
    report("run_%d_bytes" % cells, (marks[-1] - marks[0]) / (READS - 1))


def with_model_real_time(cells):
    """The driver clocking the bit-level models on the host's real clock."""
    with RealClock() as clock:
        chips = [HX711Model(clock, SCK, DOUTS[i], constant(1000 * i - 1500), rate=80,
                            phase_us=3000 * i) for i in range(cells)]
        group = HX711Group(SCK, DOUTS[:cells], rate=80, clock=clock)
        group.read()
        worst = total = 0
        gc.collect()
        before = gc.mem_alloc()
        for _ in range(READS):
            while not group.ready():
                clock.sleep_us(200)
            t0 = ticks_us()
            group.read()
            dt = ticks_diff(ticks_us(), t0)
            total += dt
            worst = max(worst, dt)
        allocated = gc.mem_alloc() - before
        report("model_%d_us" % cells, total / READS)
        report("model_%d_worst_us" % cells, worst)
        report("model_%d_bytes" % cells, allocated / READS)
        report("model_%d_pulse_us" % cells, max(c.longest_pulse_us for c in chips))
        report("model_%d_violations" % cells, sum(len(c.violations) for c in chips))


def with_model_virtual_time(cells):
    """The same in virtual time at 5 us per pin operation: the time of one
    clocking pass, then the pulse widths under a heavy interrupt load (a
    150 us interrupt every 333 us) that the 60 us rule is judged on."""
    with VirtualClock(pin_op_us=5) as clock:
        chips = [HX711Model(clock, SCK, DOUTS[i], constant(-77 * i), phase_us=7000 * i)
                 for i in range(cells)]
        group = HX711Group(SCK, DOUTS[:cells], clock=clock)
        group.read()
        while not group.ready():
            clock.sleep_us(200)
        t0 = clock.now_us()
        group.read()
        report("virtual_%d_us" % cells, clock.now_us() - t0)
    with VirtualClock(pin_op_us=5, isr_every_us=333, isr_us=150) as clock:
        chips = [HX711Model(clock, SCK, DOUTS[i], constant(-77 * i), phase_us=7000 * i)
                 for i in range(cells)]
        group = HX711Group(SCK, DOUTS[:cells], clock=clock)
        for _ in range(READS):
            group.read()
        report("virtual_%d_pulse_us" % cells, max(c.longest_pulse_us for c in chips))
        report("virtual_%d_violations" % cells, sum(len(c.violations) for c in chips))
        report("virtual_%d_isrs" % cells, clock.isr_count)


def native_pass(cells):
    """One pass with native callables for the pins (as machine.Pin is on the
    Pico), so the figure times to the Pico by design.md's 60-90x."""
    import machine

    chips = Playback(0x5A5A5A, cells)
    group = HX711Group(chips.sck, chips.douts, clock=chips)
    saved = machine.disable_irq, machine.enable_irq
    machine.disable_irq, machine.enable_irq = bool, abs
    group._sck = abs  # sck(level)
    group._douts = tuple(bool for _ in range(cells))  # dout() -> 0
    t0 = ticks_us()
    for _ in range(READS * 5):
        group._shift(A128, 1)
        group._high_mask()
    report("native_%d_us" % cells, ticks_diff(ticks_us(), t0) / (READS * 5))
    machine.disable_irq, machine.enable_irq = saved


for n in (1, 4):
    native_pass(n)
    driver_alone(n)
    with_model_real_time(n)
    with_model_virtual_time(n)
print("OK")
