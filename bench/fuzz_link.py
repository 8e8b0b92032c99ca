"""The long fuzz run of both ends of the wire (tests/test_link_fuzz.py).

    .venv/bin/python -m bench.fuzz_link [EXAMPLES_PER_PROPERTY]

Runs every property on EXAMPLES_PER_PROPERTY generated inputs (default
20,000, five properties: 100,000 inputs) and prints how many each was given.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "firmware")]



def main(examples: int) -> None:
    os.environ["CATNIP_FUZZ_EXAMPLES"] = str(examples)
    import test_link_fuzz as fuzz

    t0 = time.perf_counter()
    for prop in fuzz.PROPERTIES:
        prop()
        print(f"{prop.__name__}: {fuzz.RUNS.get(prop.__name__, 0):,} inputs", flush=True)
    total = sum(fuzz.RUNS.values())
    print(f"{total:,} inputs in {time.perf_counter() - t0:.0f} s: no crash, no hang, "
          "no valid frame lost")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
