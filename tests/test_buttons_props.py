"""Property tests for button input: hypothesis draws what people do to the
buttons; the invariant checkers are the shared ones the MicroPython run uses."""

from __future__ import annotations

from buttonplay import MIN_GAP_MS, MIN_HOLD_MS, PINS, play_samples, play_taps
from hypothesis import given, settings
from hypothesis import strategies as st

taps = st.lists(
    st.tuples(st.integers(0, len(PINS) - 1), st.integers(MIN_GAP_MS, 400),
              st.integers(MIN_HOLD_MS, 2500), st.integers(0, 25)),
    min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(taps, st.integers(0, 9))
def test_every_tap_is_one_press_and_one_release(tap_list, phase):
    play_taps(tap_list, phase)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 15), st.integers(1, 400)), max_size=300))
def test_any_samples_give_a_well_formed_stream(samples):
    masks = [m for m, _ in samples]
    steps = [s for _, s in samples]
    play_samples(masks, steps)
