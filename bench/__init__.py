"""`make bench`: speed and memory figures, each module's rows printed as they
are measured.

Each bench/bench_*.py module defines `rows()`, yielding tuples
(area, measure, value, unit, note). Modules are run in name order.

Two sizes. The default (`make bench`, `python -m bench`) takes about ten
minutes on two cores; the full bench (`make bench-full`, `python -m bench
--full`, for a release) adds the long runs: 100,000 inputs a fuzz door, the
whole games on the emulated RP2040 and the press bench, the long tray runs.
A module reads its size with `sized()`, so its own variable (for example
CATNIP_FUZZ_INPUTS) still sets it in either mode.
"""

from __future__ import annotations

import os

FULL = "CATNIP_BENCH_FULL"  # "1": the full bench (set by `python -m bench --full`)


def full() -> bool:
    """Whether this is the full bench."""
    return os.environ.get(FULL) == "1"


def sized(variable: str, quick: int, whole: int) -> int:
    """A module's count: `variable` when set, else the full bench's `whole`
    or the default bench's `quick`."""
    given = os.environ.get(variable)
    if given:
        return int(given)
    return whole if full() else quick


def full_only(area: str, what: str) -> tuple[str, str, str, str, str]:
    """The row a module gives in the default bench for a part only the full one runs."""
    return (area, what, "not run", "", "the full bench measures it: make bench-full")
