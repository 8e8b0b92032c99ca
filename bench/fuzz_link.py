"""The long fuzz run of both ends of the wire (tests/test_link_fuzz.py).

    .venv/bin/python -m bench.fuzz_link [EXAMPLES_PER_PROPERTY]

Runs every property on EXAMPLES_PER_PROPERTY generated inputs (default
20,000, five properties: 100,000 inputs) and prints how many each was given.
The inputs come in rounds of ROUND, each a fresh hypothesis run (new random
inputs, memory handed back between rounds).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "firmware")]



ROUND = 1000


def main(examples: int) -> None:
    import importlib

    os.environ["CATNIP_FUZZ_EXAMPLES"] = str(min(ROUND, examples))
    import test_link_fuzz as fuzz

    runs: dict[str, int] = {}
    t0 = time.perf_counter()
    for _ in range(max(1, examples // ROUND)):
        fuzz = importlib.reload(fuzz)
        for prop in fuzz.PROPERTIES:
            prop()
        for name, n in fuzz.RUNS.items():
            runs[name] = runs.get(name, 0) + n
        print(f"{sum(runs.values()):,} inputs so far", flush=True)
    for name, n in runs.items():
        print(f"{name}: {n:,} inputs")
    total = sum(runs.values())
    print(f"{total:,} inputs in {time.perf_counter() - t0:.0f} s: no crash, no hang, "
          "no valid frame lost")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
