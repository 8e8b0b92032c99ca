"""Property: whatever the cells, their phases and oscillator spread, the CPU
speed and the interrupt load, the driver never breaks the HX711's timing and
never returns a wrong count (the shared rig's checks, over random rigs).

Where a pass takes at most a quarter of the conversion period it delivers
every reading. Beyond that, on boards far slower than a Pico, it may report
TOO_SLOW instead. The ranges below reach there on purpose: a Pico pass of
four cells takes 0.6-0.9 ms (10 us on the unix port with native pin calls,
times the 60-90 of design.md), about 5 us per pin call in the virtual clock;
25 us per call with 45 % of the CPU in interrupts is eight times slower."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from catnip.drivers.hx711 import A64, A128, B32, TOO_SLOW, HX711Group, SensorFault
from devsim.timing import VirtualClock
from hx711_rig import DOUTS, SCK, check_reads, models, no_violations

counts = st.integers(min_value=-(1 << 25), max_value=1 << 25)
steps = st.lists(st.tuples(st.sampled_from([A128, B32, A64]), counts, counts),
                 min_size=1, max_size=6)


@example(cells=3, steps=[(B32, -3, -1), (A128, 1, 1), (B32, 0, 0), (B32, 0, 0)], rate=80,
         phases=[0, 0, 0, 0], spread=[0, -393, 2088, 0], pin_op_us=25, isr=(333, 150))
@example(cells=3, steps=[(B32, -3, -1), (A128, 1, 0), (B32, 1, 1), (A64, 0, 0)], rate=80,
         phases=[0, 0, 0, 0], spread=[0, 2048, -353, 0], pin_op_us=25, isr=(1000, 400))
@example(cells=3, steps=[(B32, -2, -1), (A128, 0, 0), (B32, 1, 0), (A128, 0, 0)], rate=80,
         phases=[0, 0, 0, 0], spread=[0, -425, 1840, 0], pin_op_us=24, isr=(333, 150))
@settings(max_examples=40, deadline=None, derandomize=True)
@given(cells=st.integers(1, 4), steps=steps, rate=st.sampled_from([10, 80]),
       phases=st.lists(st.integers(0, 99999), min_size=4, max_size=4),
       spread=st.lists(st.integers(-3000, 3000), min_size=4, max_size=4),
       pin_op_us=st.integers(1, 25), isr=st.sampled_from([(0, 0), (333, 150), (1000, 400)]))
def test_exact_counts_and_no_timing_violations(cells, steps, rate, phases, spread, pin_op_us,
                                               isr):
    period = 100000 if rate == 10 else 12500
    periods = [period + period * s // 100000 for s in spread]  # +-3 % oscillator spread
    phases = [p * period // 100000 for p in phases]
    with VirtualClock(pin_op_us=pin_op_us, isr_every_us=isr[0], isr_us=isr[1]) as clock:
        chips, a, b = models(clock, cells, rate=rate, phases=phases, periods=periods)
        group = HX711Group(SCK, DOUTS[:cells], rate=rate, clock=clock)
        try:
            check_reads(group, a, b, steps)
        except SensorFault as fault:
            assert fault.code == TOO_SLOW, fault
            assert group.pass_us * 4 > period, (group.pass_us, period)
        no_violations(*chips)
        assert max(c.longest_pulse_us for c in chips) in (0, pin_op_us)
