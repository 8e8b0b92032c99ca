"""Fuzz every door that takes outside input, and hold both interpreters to one answer.

Each door (rules.new, act, view, legal, Purrfect check, replay, board.parse)
gets generated inputs of every type; the only exception allowed out is the
door's own (RuleError, BoardError) with a message that names what was wrong,
and after every refused act() the journal still replays to the game
(tests/shared/doors.py judges each case). `make test` runs FUZZ_INPUTS cases a
door (default 1,500); `make bench` runs 100,000 a door (bench/bench_fuzz.py).

A JSON-only sample runs again under the MicroPython unix port: the Pico and
the laptop must agree on what they accept.
"""

from __future__ import annotations

import json
import os

import pytest

import doors
import mpunix
from fuzzing import as_json, fuzz

INPUTS = int(os.environ.get("FUZZ_INPUTS", "1500"))
ON_MICROPYTHON = 120  # cases a door, compared between the interpreters


@pytest.mark.parametrize("door", doors.DOORS)
def test_a_door_refuses_bad_input_with_its_own_error(door):
    failures: list[tuple[dict, str]] = []

    def seen(case: dict, verdict: str) -> None:
        if verdict.split(" ", 1)[0] not in ("ok", "refused"):
            failures.append((case, verdict))

    counts = fuzz(door, INPUTS, seen=seen)
    assert not failures, f"{len(failures)} bad answers; the first: {failures[0][1]}\n" \
                         f"case: {failures[0][0]!r:.2000}"
    assert sum(counts.values()) >= INPUTS - 20
    # Both answers occur: a suite that only ever refuses tests nothing deep.
    assert counts["ok"] and counts["refused"], counts


SCRIPT = """
import json, sys
import doors
with open(sys.argv[1]) as f:
    for line in f:
        print(doors.run(json.loads(line)).split(" ", 1)[0])
print("DONE")
"""


@pytest.fixture(scope="module")
def json_cases() -> list[dict]:
    cases: list[dict] = []
    for door in doors.DOORS:
        fuzz(door, ON_MICROPYTHON, batch=10, json_only=True,
             seen=lambda case, verdict: cases.append(as_json(case)))
    return cases


def test_both_interpreters_agree_on_what_every_door_accepts(json_cases, tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in json_cases))
    proc = mpunix.run(["-c", SCRIPT, str(path)], path=[mpunix.SHARED_TESTS],
                      heap=8 * 1024 * 1024)
    lines = proc.stdout.splitlines()
    assert lines and lines[-1] == "DONE", proc.stdout[-2000:] + proc.stderr
    on_micropython = lines[:-1]
    on_cpython = [doors.run(c).split(" ", 1)[0] for c in json_cases]
    assert len(on_micropython) == len(on_cpython)
    differ = [(c, a, b) for c, a, b in zip(json_cases, on_cpython, on_micropython) if a != b]
    assert not differ, f"{len(differ)} cases differ; the first (CPython, MicroPython): " \
                       f"{differ[0][1]}, {differ[0][2]} for {differ[0][0]!r:.1500}"
    assert set(on_cpython) == {"ok", "refused"}, set(on_cpython)
