"""Property: whatever the cells, their phases and oscillator spread, the CPU
speed and the interrupt load, the driver returns exact counts and never
breaks the HX711's timing (the shared rig's checks, over random rigs)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from catnip.drivers.hx711 import A64, A128, B32, HX711Group
from devsim.timing import VirtualClock
from hx711_rig import DOUTS, SCK, check_reads, models, no_violations

counts = st.integers(min_value=-(1 << 25), max_value=1 << 25)
steps = st.lists(st.tuples(st.sampled_from([A128, B32, A64]), counts, counts),
                 min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
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
        check_reads(group, a, b, steps)
        no_violations(*chips)
        assert max(c.longest_pulse_us for c in chips) == pin_op_us
