# The HX711 driver keeps every clocking pass between two conversions of every
# chip, in virtual time against the bit-level models: chips whose oscillators
# drift apart, pauses, and boards too slow for the rate, which must be
# reported, never misread.
from check import message, raises
from hx711_rig import DOUTS, SCK, models, no_violations

from catnip.drivers import hx711
from catnip.drivers.hx711 import A128, HX711, HX711Group, SensorFault
from devsim.timing import VirtualClock

# 80 SPS oscillators 3 % apart: the chips drift a whole period apart in
# about 17 conversions.
DRIFTING = (12500, 12875, 12125, 12500)


def _read_steadily(group, sources, reads):
    """`reads` readings, each cell's source changed before each: every
    reading must be exactly what the cells were given."""
    for k in range(reads):
        for i in range(len(sources)):
            sources[i].value = 1000 * k + i
        counts = group.read()
        for i in range(len(sources)):
            assert counts[i] == 1000 * k + i, (k, i, list(counts))


def test_reading_as_soon_as_every_dout_is_low_breaks_drifting_chips():
    # What the driver guards against: clock every chip once all are ready, and
    # sooner or later one converts again in the middle of the pass.
    with VirtualClock(pin_op_us=15) as clock:
        chips, a, b = models(clock, 4, rate=80, periods=DRIFTING)
        group = HX711Group(SCK, DOUTS, rate=80, clock=clock)
        for _ in range(100):
            while not group.ready():
                clock.sleep_us(400)
            group._shift(A128, 1)
        whats = [what for chip in chips for t, what in chip.violations]
        assert any("word is lost" in what for what in whats), whats


def test_drifting_chips_are_never_read_across_a_conversion():
    with VirtualClock(pin_op_us=15) as clock:
        chips, a, b = models(clock, 4, rate=80, periods=DRIFTING)
        group = HX711Group(SCK, DOUTS, rate=80, clock=clock)
        _read_steadily(group, a, 60)
        no_violations(*chips)
        # Until their periods are learned they drift apart and the driver
        # brings them back in step; from then on it reads between reloads.
        learned = group.restarts
        assert 1 <= learned <= 3, learned
        for i in range(4):
            assert abs(group.periods[i] - DRIFTING[i]) * 1000 <= DRIFTING[i] * 3, (
                list(group.periods))
        _read_steadily(group, a, 300)
        no_violations(*chips)
        assert group.restarts == learned
        assert max(c.longest_pulse_us for c in chips) == 15


def test_after_a_pause_the_chips_restart_in_step():
    with VirtualClock() as clock:
        chips, a, b = models(clock, 1)
        cell = HX711(SCK, DOUTS[0], clock=clock)
        assert cell.read() == 1000 and cell.read() == 1000
        assert cell.restarts == 0  # read back to back: it follows the chip
        clock.sleep_ms(1000)  # the chip converted ten times unread: when next?
        start = clock.now_us()
        assert cell.read() == 1000
        assert cell.restarts == 1
        assert 400000 <= clock.now_us() - start < 401000  # four conversions to settle
        no_violations(*chips)


def test_a_pass_too_long_for_the_rate_is_refused_at_construction():
    with VirtualClock(pin_op_us=40, isr_every_us=333, isr_us=150) as clock:
        models(clock, 4, rate=80)
        text = message(ValueError, HX711Group, SCK, DOUTS, rate=80, clock=clock)
        assert "4 HX711s" in text and "80 samples/s" in text
        assert "rate=10" in text and "HX711PIO" in text
        assert HX711Group(SCK, DOUTS, rate=10, clock=clock).pass_us > 10000


def test_a_board_too_slow_for_drifting_chips_says_so_instead_of_misreading():
    # 25 us per pin call and 45 % of the CPU in interrupts: a pass takes 7 ms
    # of the 12.5 ms period, and the chips drift apart before they settle.
    with VirtualClock(pin_op_us=25, isr_every_us=333, isr_us=150) as clock:
        chips, a, b = models(clock, 4, rate=80, periods=DRIFTING)
        group = HX711Group(SCK, DOUTS, rate=80, clock=clock)
        fault = raises(SensorFault, group.read)
        assert fault.code == hx711.TOO_SLOW and fault.cells == 0b1111
        text = str(fault)
        assert "load cell 0" in text and "load cell 3" not in text  # named once each
        assert "3 (DOUT GPIO6)" in text and "rate=10" in text
        assert group.fault == hx711.TOO_SLOW
        no_violations(*chips)


def test_too_slow_is_one_fault_for_the_tray_loop():
    import asyncio

    with VirtualClock(pin_op_us=25, isr_every_us=333, isr_us=150) as clock:
        chips, a, b = models(clock, 4, rate=80, periods=DRIFTING)
        group = HX711Group(SCK, DOUTS, rate=80, clock=clock)
        readings, faults = [], []

        async def main():
            task = asyncio.create_task(group.run(readings.append, faults.append))
            await clock.pause_ms(2000)
            task.cancel()

        asyncio.run(main())
        assert readings == [] and [f.code for f in faults] == [hx711.TOO_SLOW]
        no_violations(*chips)


def test_chips_faster_than_the_rate_are_reported():
    # RATE wired high (80 SPS) but the driver told 10: its timing would be
    # wrong by a factor of eight.
    with VirtualClock() as clock:
        chips, a, b = models(clock, 4, rate=80)
        group = HX711Group(SCK, DOUTS, rate=10, clock=clock)
        fault = raises(SensorFault, group.read)
        assert fault.code == hx711.WRONG_RATE and fault.cells == 0b1111
        assert "faster than rate=10" in str(fault) and "RATE pin" in str(fault)
        no_violations(*chips)
