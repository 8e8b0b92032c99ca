# The HX711 driver's async reads and its run() loop against the bit-level
# HX711 model, in virtual time: other tasks run meanwhile, a fault is raised once
# per outage, and a reading allocates nothing.
from hx711_rig import DOUTS, SCK, models, no_violations
from catnip.drivers import hx711
from catnip.drivers.hx711 import HX711Group, SensorFault
from devsim.models.hx711 import DEAD, SHORTED, Playback
from devsim.timing import VirtualClock
from test_hx711 import _single


def _run(coro):
    import asyncio

    return asyncio.run(coro)


def test_async_read_lets_other_tasks_run():
    import asyncio

    with VirtualClock() as clock:
        chip, hx = _single(clock, a=321)
        ticks = []

        async def other():
            while True:
                ticks.append(clock.now_us())
                await asyncio.sleep(0)

        async def main():
            task = asyncio.create_task(other())
            value = await hx.read_async()
            task.cancel()
            return value

        assert _run(main()) == 321
        assert len(ticks) > 20  # the reader yielded while it waited
        no_violations(chip)


def test_async_fault_is_raised_once_then_the_reader_waits_for_recovery():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=11)
        faults = []

        async def main():
            assert await hx.read_async() == 11
            chip.set_fault(DEAD)
            revive_at = clock.now_us() + 3000000
            clock.at(revive_at, lambda t, arg: chip.set_fault(None))
            try:
                await hx.read_async()
            except SensorFault as e:
                faults.append((clock.now_us(), e.code))
            chip.counts_at.value = 12
            value = await hx.read_async()  # quiet until the chip is back
            return value, revive_at

        value, revive_at = _run(main())
        assert value == 12
        assert len(faults) == 1 and faults[0][1] == hx711.NO_DATA
        assert faults[0][0] < revive_at
        # Back from power-on reset: four conversions before a settled one.
        assert clock.now_us() >= revive_at + 400000
        assert hx.fault == 0


def test_stuck_low_async_is_quiet_after_the_first_fault():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=3)
        raised = []

        async def main():
            await hx.read_async()
            chip.set_fault(SHORTED)
            clock.at(clock.now_us() + 2000000, lambda t, arg: chip.set_fault(None))
            try:
                await hx.read_async()
            except SensorFault as e:
                raised.append(e.code)
            return await hx.read_async()

        assert _run(main()) == 3
        assert raised == [hx711.STUCK_LOW]


def test_run_delivers_readings_and_one_fault_per_outage():
    import asyncio

    with VirtualClock() as clock:
        chips, a, b = models(clock, 4)
        group = HX711Group(SCK, DOUTS, clock=clock)
        readings, faults = [], []

        def on_counts(counts):
            readings.append((clock.now_us(), list(counts)))

        def on_fault(error):
            faults.append((clock.now_us(), error.cells))

        async def main():
            task = asyncio.create_task(group.run(on_counts, on_fault))
            await clock.pause_ms(1000)  # settles, then ~6 readings
            chips[1].set_fault(DEAD)
            await clock.pause_ms(3000)  # one fault, then quiet
            chips[1].set_fault(None)
            await clock.pause_ms(1000)
            group.power_down()
            await clock.pause_ms(2000)  # asleep: no readings, no faults
            asleep = len(readings)
            group.power_up()
            await clock.pause_ms(1000)
            task.cancel()
            return asleep

        asleep = _run(main())
        assert len(faults) == 1 and faults[0][1] == 0b0010
        assert all(r[1] == [1000, 2000, 3000, 4000] for r in readings)
        during = [t for t, _ in readings if 1000000 < t < 4000000]
        assert not [t for t in during if t > faults[0][0]]
        after = [t for t, _ in readings if t > 4400000]
        assert after and group.fault == 0
        assert asleep == len([t for t, _ in readings if t < 7000000])
        no_violations(*chips)


def test_run_allocates_nothing_per_reading():
    try:
        import micropython

        lock, unlock = micropython.heap_lock, micropython.heap_unlock
    except (ImportError, AttributeError):
        return  # CPython: nothing to measure; the MicroPython run checks it
    import asyncio

    cells = Playback(0x0F0F0F, 4)
    group = HX711Group(cells.sck, cells.douts, clock=cells)
    seen = [0]

    class Done(Exception):
        pass

    def on_counts(counts):
        seen[0] += 1
        if seen[0] == 3:
            lock()
        elif seen[0] == 40:
            unlock()
            raise Done()

    def on_fault(error):
        raise error

    try:
        asyncio.run(group.run(on_counts, on_fault))
    except Done:
        pass
    except MemoryError:
        unlock()
        raise
    assert seen[0] == 40 and group.counts[2] == 0x0F0F0F


def test_read_path_allocates_nothing():
    try:
        import micropython

        lock, unlock = micropython.heap_lock, micropython.heap_unlock
    except (ImportError, AttributeError):
        return  # CPython: nothing to measure; the MicroPython run checks it
    cells = Playback(0x123456, 4)
    group = HX711Group(cells.sck, cells.douts, clock=cells)
    for _ in range(4):  # past the settling readings
        group.read()
    lock()
    try:
        counts = group.read()
    finally:
        unlock()
    assert counts[0] == 0x123456 and counts[3] == 0x123456
