"""The heap bench's search for the smallest heap a game plays in, over a
made-up game whose fit is not monotonic in the heap, as on the Pico: the
search must not stop on a size that played below one that failed."""

from __future__ import annotations

from bench.bench_pico import HEAP_GRID, HEAP_STEP, smallest_heap

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
    run, asked = _game({71}, 70 * KB)  # 71 KB fails where 70 plays
    ok, tries = smallest_heap(run, 200 * KB, 40 * KB)
    assert ok == 72 * KB - KB  # asked for 72: the lowest with every KB above it played
    assert tries == len(asked)
    assert asked[-1] == 71 * KB  # the first failure ends the search: 70 is never asked


def test_a_monotonic_game_is_found_to_the_kb():
    run, asked = _game(set(), 70 * KB)
    ok, _ = smallest_heap(run, 200 * KB, 40 * KB)
    assert ok == 70 * KB - KB  # a bisection alone ends 4 KB wide, at 72.7
    assert asked[-1] == 69 * KB


def test_the_sizes_below_the_bracket_are_whole_kb_whatever_the_bisection_tried():
    run, asked = _game(set(), 70 * KB)
    smallest_heap(run, 200 * KB, 40 * KB, first_try=72 * KB)
    last_bisected = max(k for k, size in enumerate(asked) if size % HEAP_GRID) \
        if any(size % HEAP_GRID for size in asked) else -1
    assert all(size % HEAP_GRID == 0 for size in asked[last_bisected + 1:])
    assert HEAP_STEP > HEAP_GRID
