# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# The hardware layer's other parts on the simulated table: the tray's load
# cells (a dead cell, drifting corners, a cell missing from the start) and
# the buzzer, with boards that leave the optional parts out.
from check import message
from tablerig import Rig, load
from catnip.parts.hardware import TRAY
from devsim.models.hx711 import DEAD, DISCONNECTED


def test_a_dead_load_cell_is_one_event_and_readings_resume():
    import asyncio

    with Rig(load("mux"), 2, counts=(100, 200, 300, 400)) as rig:
        hw, table = rig.hw, rig.table
        clock = table.clock
        readings = []
        seen = []

        def on_counts(counts):
            readings.append((clock.now_us(), list(counts)))

        async def main():
            task = asyncio.create_task(hw.weigh(on_counts))
            await clock.pause_ms(1000)
            table.cells[2].set_fault(DEAD)
            await clock.pause_ms(3000)
            seen.append(hw.tray_fault)
            table.counts = lambda t_us: (-5, 6, 7, 8)
            table.cells[2].set_fault(None)
            await clock.pause_ms(1500)
            task.cancel()

        asyncio.run(main())
        rig.take()
        assert rig.events == [(TRAY, "offline", 0), (TRAY, "online", 0)], rig.events
        assert seen[0].cells == 0b0100 and "load cell 2" in str(seen[0])
        assert hw.tray_fault is None
        quiet = [t for t, _ in readings if 1100000 < t < 4000000]
        assert not quiet  # no readings while a cell is dead, and no exception
        assert readings[0][1] == [100, 200, 300, 400] and readings[-1][1] == [-5, 6, 7, 8]


def test_the_drifting_corner_cells_weigh_steadily_for_a_long_session():
    import asyncio

    with Rig(load("mux"), 2, counts=(-7000, 150000, 90000, 3)) as rig:
        table = rig.table
        readings = []

        async def main():
            task = asyncio.create_task(rig.hw.weigh(lambda c: readings.append(list(c))))
            await table.clock.pause_ms(30000)
            task.cancel()

        asyncio.run(main())
        rig.take()
        # The four oscillators drift a whole period apart and back meanwhile.
        assert rig.events == [] and len(readings) > 250
        assert all(r == [-7000, 150000, 90000, 3] for r in readings)
        for cell in table.cells:
            assert not cell.violations, cell.violations


def test_a_load_cell_missing_from_the_start_is_one_event():
    import asyncio

    with Rig(load("direct"), 2, counts=42) as rig:
        hw, table = rig.hw, rig.table
        table.cells[0].set_fault(DISCONNECTED)
        readings = []

        async def main():
            task = asyncio.create_task(hw.weigh(readings.append))
            await table.clock.pause_ms(5000)
            task.cancel()

        asyncio.run(main())
        rig.take()
        assert rig.events == [(TRAY, "offline", 0)] and not readings
        assert hw.tray_fault.cells == 1


def test_buzzer_and_boards_without_optional_parts():
    with Rig(load("direct"), 2) as rig:
        rig.hw.buzzer.duty_u16(32768)
        assert rig.table.buzzer() == (2000, 32768)
        assert rig.hw.table is None and rig.hw.mux is None

    def bare(data):
        data.update(tray=None, buzzer=None)

    with Rig(load("direct", bare), 2) as rig:
        assert rig.hw.buzzer is None and rig.hw.tray is None and rig.table.buzzer() is None
        import asyncio

        assert "no tray" in message(ValueError, asyncio.run, rig.hw.weigh(print))
