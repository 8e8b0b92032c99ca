"""The heap bench's search for the smallest heap a game plays in, over a
made-up game whose fit is not monotonic in the heap, as on the Pico: the
search must not stop on a size that played below one that failed."""

from __future__ import annotations

from bench.heap_search import HEAP_GRID, HEAP_STEP, smallest_heap

KB = 1024


def _game(fails: set[int], needs: int):
    """A run that fails below `needs` bytes and at each size (in KB) in
    `fails`; the app gets 1 KB less than asked for, as under ballast."""
    asked: list[int] = []

    def run(size: int) -> dict:
        asked.append(size)
        ok = size >= needs and size // KB not in fails
        return {"ok": ok, "free_for_app": size - KB}
    return run, asked


def test_a_failure_below_the_bisections_bracket_sets_the_row():
    run, asked = _game({69}, 68 * KB)  # 69 KB fails where 68 plays
    ok, tries = smallest_heap(run, 200 * KB, 40 * KB)
    assert ok == 70 * KB - KB  # asked for 70: the lowest with every KB above it played
    assert tries == len(asked)
    assert asked[-1] == 69 * KB  # the first failure ends the search: 68 is never asked


def test_a_monotonic_game_is_found_to_the_kb():
    run, asked = _game(set(), 68 * KB)
    ok, _ = smallest_heap(run, 200 * KB, 40 * KB)
    assert ok == 68 * KB - KB  # the bisection alone ends at 70
    assert asked[-2:] == [69 * KB, 68 * KB]


def test_the_sizes_below_the_bracket_are_whole_kb_whatever_the_bisection_tried():
    for first_try in (0, 71 * KB + 300):
        run, asked = _game(set(), 68 * KB + 500)
        smallest_heap(run, 200 * KB + 700, 40 * KB, first_try)
        bisected = [k for k, size in enumerate(asked) if size % HEAP_GRID]
        assert bisected, "the made-up bisection should land off the grid"
        assert all(size % HEAP_GRID == 0 for size in asked[bisected[-1] + 1:])
        assert len(asked) > bisected[-1] + 1
    assert HEAP_STEP > HEAP_GRID
