"""A sample of the laptop's fuzz doors (tests/laptop_doors.py): the wire
reader, the Keeper and its mirror on CRC-valid bent frames, the store on
damaged files, the command line, deploy's files. None lets an exception out;
`make bench` runs 100,000 inputs a door (bench/bench_laptop_fuzz.py)."""

from __future__ import annotations

import os

import pytest

import laptop_doors

INPUTS = int(os.environ.get("FUZZ_INPUTS", "1500"))


@pytest.mark.parametrize("door", list(laptop_doors.DOORS))
def test_no_input_gets_a_traceback_out_of_the_door(door):
    out = laptop_doors.DOORS[door](INPUTS, seed=23)
    assert out["inputs"] == INPUTS
    assert out["crashes"] == 0, out["first"]
