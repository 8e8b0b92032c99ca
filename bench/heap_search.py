"""The smallest heap a game plays in on the emulated RP2040, searched for
over runs with ballast held (bench_pico's heap rows)."""

from __future__ import annotations

from collections.abc import Callable

HEAP_STEP = 4096  # bisection resolution
HEAP_GRID = 1024  # then each size a KB apart below the bisection's answer


def smallest_heap(run: Callable[[int], dict], free: int, fail: int,
                  first_try: int = 0) -> tuple[int, int]:
    """(the heap the app had in the lowest of the runs that played, runs):
    `run(size)` plays the game with `size` bytes asked for the app (it gets
    a little less: the ballast is in 1 KB blocks), `free` (asked) played
    and `fail` (asked) is known to fail. Whether a game fits is not monotonic
    in the heap: where each piece lands decides which holes a collection
    leaves, so a size below one that played can fail and one below that
    play again, and a bisection alone lands on whichever it happens to try.
    So the bisection (to HEAP_STEP) only brackets the answer; from the size
    that played it goes down a KB at a time, on whole KB, to the first that
    fails. The sizes tried below the bracket are the same on every run."""
    top, ok, tries = free, free, 0  # the smallest size asked that played, and the heap it gave
    while top - fail > HEAP_STEP:
        mid = first_try if fail < first_try < top and tries == 0 else (top + fail) // 2
        result = run(mid)
        tries += 1
        if result["ok"]:
            top, ok = mid, result["free_for_app"]
        else:
            fail = mid
    size = (top - 1) // HEAP_GRID * HEAP_GRID
    while size > fail:
        result = run(size)
        tries += 1
        if not result["ok"]:
            break
        ok = min(ok, result["free_for_app"])
        size -= HEAP_GRID
    return ok, tries
