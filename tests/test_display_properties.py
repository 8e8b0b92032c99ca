"""Property tests (CPython, Hypothesis) for the board config and the SSD1306
model, reusing the checkers the MicroPython run uses on seeded examples."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardcheck import ODD_VALUES, paths, problems, shipped
from oled import check_window_stream

# Whole-number floats (64.0 where 64 belongs) and bools pass a careless
# "in (32, 64)" check: they must be generated, or the property holds only here.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.integers(-5, 300).map(float)
    | st.floats() | st.text(max_size=6) | st.sampled_from(ODD_VALUES),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["direct", "mux"]), st.lists(st.tuples(st.integers(0, 10_000), json_values),
                                                      min_size=1, max_size=4))
def test_any_damage_to_a_board_file_is_refused_with_board_error(name, edits):
    data = shipped(name)
    for where, value in edits:
        spots = paths(data)
        container, key = spots[where % len(spots)]
        container[key] = value
    problems(data)  # anything but BoardError, or a float kept as a pin, fails the test


windows = st.tuples(st.integers(0, 127), st.integers(0, 127)).map(sorted)
page_windows = st.tuples(st.integers(0, 7), st.integers(0, 7)).map(sorted)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([0, 1]), windows, page_windows, st.binary(min_size=1, max_size=300))
def test_window_streams_land_where_the_datasheet_says(mode, cols, pages, data):
    check_window_stream(mode, tuple(cols), tuple(pages), list(data))
