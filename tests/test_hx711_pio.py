"""The PIO variant of the HX711 driver, its program run cycle by cycle in
rp2040-pio-emulator against the same HX711 models and virtual time as the
bit-banged driver (CPython only: the emulator needs it)."""

from __future__ import annotations

import pytest

from catnip.drivers import hx711
from catnip.drivers.hx711 import A64, A128, B32, SensorFault
from catnip.drivers.hx711_pio import HX711PIO
from devsim.models.hx711 import DEAD
from devsim.timing import VirtualClock
from hx711_rig import DOUTS, SCK, check_reads, models, no_violations

STEPS = [(A128, 0, 0), (A128, 1, -1), (A128, -1, 1), (A64, -123457, 9), (B32, 0, -0x7FFFFF),
         (B32, 5, 0x7FFFFE), (A128, 0x7FFFFE, 0), (A128, -0x7FFFFF, 0),
         (A128, 0x7FFFFF, 0), (A128, -0x800000, 0), (A64, 0x2000000, 0), (A128, -0x2000000, 0)]


@pytest.mark.parametrize("cells", [1, 4])
def test_exact_counts_for_every_input_sign_and_rail(cells):
    with VirtualClock() as clock:
        chips, a, b = models(clock, cells)
        group = HX711PIO(SCK, DOUTS[:cells], clock=clock)
        check_reads(group, a, b, STEPS)
        no_violations(*chips)
        assert all(c.longest_pulse_us == 2 for c in chips)


def test_pulses_stay_2us_whatever_the_cpu_does():
    # Interrupts that ignore masking stretch bit-banged pulses past 60 us
    # (see test_hx711); the state machine does not care.
    with VirtualClock(isr_every_us=333, isr_us=150, masking=False) as clock:
        chips, a, b = models(clock, 4)
        group = HX711PIO(SCK, DOUTS, clock=clock)
        check_reads(group, a, b, STEPS[:6])
        assert clock.isr_count > 1000
        no_violations(*chips)
        assert max(c.longest_pulse_us for c in chips) == 2


def test_power_down_hands_the_clock_pin_back_to_the_cpu():
    with VirtualClock() as clock:
        chips, a, b = models(clock, 2)
        group = HX711PIO(SCK, DOUTS[:2], clock=clock)
        group.select(B32)
        check_reads(group, a, b, [(B32, 0, 44)])
        group.power_down()
        clock.sleep_ms(5)
        assert not any(c.powered for c in chips)
        group.power_up()
        assert all(c.powered and c.input == A128 for c in chips)
        check_reads(group, a, b, [(B32, 0, -44), (A128, 3, 0)])
        no_violations(*chips)


def test_dead_cell_is_reported_as_with_the_bit_banged_driver():
    with VirtualClock() as clock:
        chips, a, b = models(clock, 4)
        group = HX711PIO(SCK, DOUTS, clock=clock)
        group.read()
        chips[3].set_fault(DEAD)
        with pytest.raises(SensorFault) as fault:
            group.read()
        assert fault.value.code == hx711.NO_DATA and fault.value.cells == 0b1000


def test_douts_must_be_consecutive():
    with VirtualClock():
        with pytest.raises(ValueError, match="consecutive GPIOs"):
            HX711PIO(SCK, (3, 5))


def test_drifting_cells_are_read_between_their_conversions():
    # 80 SPS oscillators 3 % apart drift a whole period apart in about 17
    # conversions; the short PIO pass fits between them far longer than a
    # bit-banged one, and the driver restarts them in step when it does not.
    with VirtualClock() as clock:
        chips, a, b = models(clock, 4, rate=80, periods=(12500, 12875, 12125, 12500))
        group = HX711PIO(SCK, DOUTS, rate=80, clock=clock)
        for k in range(40):
            for i in range(4):
                a[i].value = 1000 * k + i
            assert list(group.read()) == [1000 * k + i for i in range(4)]
        no_violations(*chips)
        assert group.pass_us < 300
