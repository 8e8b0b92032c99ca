"""Property test for station health: hypothesis draws what the parts of three
stations report and what their buttons do; the checks are the shared ones
the MicroPython run uses on seeded streams."""

from __future__ import annotations

from healthplay import ACTIONS, STATIONS, play
from hypothesis import given, settings
from hypothesis import strategies as st

steps = st.lists(st.tuples(st.integers(0, STATIONS - 1), st.integers(0, ACTIONS - 1),
                           st.integers(0, 7)), max_size=120)


@settings(max_examples=200, deadline=None)
@given(steps)
def test_any_reports_give_one_event_per_change_and_a_well_formed_stream(s):
    play(s)
