"""HX711 driver figures, measured under the MicroPython unix port."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(1, str(ROOT / "devsim"))  # the fake `machine` and `rp2`, as on MicroPython
sys.path.insert(2, str(ROOT))

import mpunix  # noqa: E402

PROBE = Path(__file__).with_name("hx711_probe.py")
AREA = "hx711"


def _measure() -> dict[str, float]:
    proc = mpunix.run([str(PROBE)], timeout=300)
    if proc.returncode != 0 or not proc.stdout.rstrip().endswith("OK"):
        raise RuntimeError(f"hx711 probe failed:\n{proc.stdout}\n{proc.stderr}")
    figures = {}
    for line in proc.stdout.splitlines()[:-1]:
        name, value = line.split()
        figures[name] = float(value)
    return figures


def _pio_pass(cells: int) -> tuple[int, int, int]:
    """Virtual-time length of one PIO clocking pass, the longest PD_SCK high
    and the violations seen over 20 reads (CPython: the PIO emulator)."""
    from catnip.drivers.hx711_pio import HX711PIO
    from devsim.models.hx711 import HX711Model, constant
    from devsim.timing import VirtualClock

    douts = (3, 4, 5, 6)[:cells]
    with VirtualClock(isr_every_us=333, isr_us=150, masking=False) as clock:
        chips = [HX711Model(clock, 2, d, constant(d * 1000), phase_us=d * 7000) for d in douts]
        group = HX711PIO(2, douts, clock=clock)
        group.read()
        while not group.ready():
            clock.sleep_us(200)
        t0 = clock.now_us()
        group.read()
        elapsed = clock.now_us() - t0
        for _ in range(20):
            group.read()
        return (elapsed, max(c.longest_pulse_us for c in chips),
                sum(len(c.violations) for c in chips))


def _tray_session(rate: int, seconds: int = 30) -> tuple[int, int, int, int, int]:
    """The tray's four cells on the simulated table's oscillators (up to
    1.8 % apart) read by run() for `seconds` of virtual time: readings,
    conversions, restarts, the longest gap between readings (ms) and the
    violations the models saw."""
    import asyncio

    from catnip.drivers.hx711 import HX711Group
    from devsim.models.hx711 import HX711Model, constant
    from devsim.table import CELL_PHASES_US, CELL_SPREAD
    from devsim.timing import VirtualClock

    period = 100000 if rate == 10 else 12500
    douts = (3, 4, 5, 6)
    with VirtualClock() as clock:
        chips = [HX711Model(clock, 2, d, constant(d), rate=rate,
                            phase_us=CELL_PHASES_US[i] * period // 100000,
                            period_us=period + period * CELL_SPREAD[i] // 1000)
                 for i, d in enumerate(douts)]
        group = HX711Group(2, douts, rate=rate, clock=clock)
        times: list[int] = []

        async def session() -> None:
            task = asyncio.create_task(group.run(lambda counts: times.append(clock.now_us()),
                                                 print))
            await clock.pause_ms(seconds * 1000)
            task.cancel()

        asyncio.run(session())
        gap = max(b - a for a, b in zip(times, times[1:]))
        return (len(times), seconds * 1000000 // period, group.restarts, gap // 1000,
                sum(len(c.violations) for c in chips))


def rows() -> Iterator[tuple[str, str, object, str, str]]:
    for rate in (10, 80):
        readings, conversions, restarts, gap, violations = _tray_session(rate)
        yield (AREA, f"tray readings in 30 s at {rate} SPS", readings, "",
               f"of {conversions} conversions; {restarts} restarts to bring the drifting cells "
               f"back in step, longest gap {gap} ms; {violations} violations")
    for n in (1, 4):
        cells = "1 cell" if n == 1 else "4 cells, one pass"
        elapsed, pulse, violations = _pio_pass(n)
        yield (AREA, f"PIO clocking pass, modelled Pico ({cells})", elapsed, "us",
               "state machine at 1 MHz, run in rp2040-pio-emulator")
        yield (AREA, f"longest PD_SCK high, PIO ({cells})", pulse, "us",
               f"interrupts not masked at all; {violations} violations in 22 reads")
    f = _measure()
    for n in (1, 4):
        cells = "1 cell" if n == 1 else "4 cells, one pass"
        native = f[f"native_{n}_us"]
        yield (AREA, f"clocking pass, native pin calls ({cells})", round(native, 1), "us",
               f"unix port; a Pico at 60-90x: {native * 60 / 1000:.2f}-{native * 90 / 1000:.2f} ms")
        yield (AREA, f"read, driver alone ({cells})", round(f[f"alone_{n}_us"], 1), "us",
               "unix port, played-back chips: the driver's own cost")
        yield (AREA, f"read with bit-level model ({cells})", round(f[f"model_{n}_us"], 1), "us",
               f"unix port, real clock, 80 SPS; worst {f[f'model_{n}_worst_us']:.0f} us")
        yield (AREA, f"longest PD_SCK high, real ({cells})", int(f[f"model_{n}_pulse_us"]), "us",
               f"unix port incl. the model's work per edge; "
               f"{f[f'model_{n}_violations']:.0f} violations in 41 reads")
        yield (AREA, f"clocking pass, modelled Pico ({cells})", int(f[f"virtual_{n}_us"]), "us",
               "virtual time at 5 us per MicroPython pin call")
        yield (AREA, f"longest PD_SCK high, virtual ({cells})", int(f[f"virtual_{n}_pulse_us"]),
               "us", f"under a 150 us interrupt every 333 us "
               f"({f[f'virtual_{n}_isrs']:.0f} taken); "
               f"{f[f'virtual_{n}_violations']:.0f} violations; limit 60")
        yield (AREA, f"heap per read() ({cells})", f[f"alone_{n}_bytes"], "B",
               "gc.mem_alloc() delta over 40 reads")
        yield (AREA, f"heap per reading in run() ({cells})", f[f"run_{n}_bytes"], "B",
               "the tray's asyncio loop: one coroutine for the session")
        yield (AREA, f"heap per read_async() ({cells})", f[f"async_{n}_bytes"], "B",
               "a coroutine per call; unix port, about half on the Pico")
        yield (AREA, f"heap per read, with model ({cells})", f[f"model_{n}_bytes"], "B",
               "the simulation's own allocations, not the driver's")
