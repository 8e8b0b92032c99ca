"""Fuzzing every input door: generated inputs per door and what escaped.

Each door (rules.new, act, view, legal, Purrfect check, replay, board.parse)
takes 100,000 generated inputs in the full bench, 2,000 in the default one
(CATNIP_FUZZ_INPUTS sets it) (tests/fuzzing.py, judged by
tests/shared/doors.py). An exception of any class but the door's own, or an
answer that breaks an invariant (a refused act that changed the game, a
journal that no longer replays), is counted; both must be 0. A JSON sample is
then run under the MicroPython unix port and its verdicts compared.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "shared"))
sys.path.insert(0, str(ROOT / "tests"))

import doors  # noqa: E402
import mpunix  # noqa: E402
from fuzzing import as_json, fuzz  # noqa: E402

Row = tuple[str, str, object, str, str]
INPUTS = bench.sized("CATNIP_FUZZ_INPUTS", 2000, 100_000)  # a door
ON_MICROPYTHON = max(1, INPUTS // 100)  # JSON cases a door, run on both interpreters

DOORS = {
    "new": "rules.new(name, config, seed)",
    "act": "act(player, action)",
    "view": "view(player)",
    "legal": "legal(player)",
    "check": "Purrfect check(player, action)",
    "replay": "rules.replay(record)",
    "board": "board.parse(data)",
}

SCRIPT = """
import json, sys
import doors
with open(sys.argv[1]) as f:
    for line in f:
        print(doors.run(json.loads(line)).split(" ", 1)[0])
print("DONE")
"""


def rows() -> Iterator[Row]:
    escaped = 0
    for door in doors.DOORS:
        counts = fuzz(door, INPUTS, batch=50)
        total = sum(counts.values())
        escaped += counts["crash"] + counts["broken"]
        yield ("fuzz", f"{DOORS.get(door, door)}: generated inputs", total, "inputs",
               f"{counts['crash']} non-project exceptions, {counts['broken']} broken answers; "
               f"{counts['refused']:,} refused, {counts['ok']:,} accepted")
    yield ("fuzz", "non-project exceptions and broken answers, all doors", escaped, "",
           "must be 0")
    agree, cases = _both_interpreters()
    yield ("fuzz", "JSON cases judged alike on MicroPython and CPython", agree, "cases",
           f"of {cases}; every door, valid and invalid alike")


def _both_interpreters() -> tuple[int, int]:
    cases: list[dict] = []
    for door in doors.DOORS:
        fuzz(door, ON_MICROPYTHON, batch=10, json_only=True,
             seen=lambda case, verdict: cases.append(as_json(case)))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps(c) + "\n" for c in cases))
    try:
        proc = mpunix.run(["-c", SCRIPT, f.name], path=[mpunix.SHARED_TESTS],
                          heap=8 * 1024 * 1024)
    finally:
        os.unlink(f.name)
    theirs = proc.stdout.splitlines()
    if not theirs or theirs[-1] != "DONE":
        raise RuntimeError(f"micropython failed:\n{proc.stdout[-2000:]}\n{proc.stderr}")
    mine = [doors.run(c).split(" ", 1)[0] for c in cases]
    agree = sum(1 for a, b in zip(mine, theirs[:-1]) if a == b and a in ("ok", "refused"))
    return agree, len(cases)
