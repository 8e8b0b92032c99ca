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


def test_the_bench_runs_only_the_doors_named(monkeypatch):
    # CATNIP_FUZZ_DOORS: a long run of one door at a time; a name that is no door is refused.
    from bench import bench_laptop_fuzz as bench

    monkeypatch.setattr(bench, "INPUTS", 20)
    monkeypatch.setattr(bench, "_tampers", lambda: (0, 0, []))
    monkeypatch.setattr(bench, "ONLY", ["deploy"])
    rows = list(bench.rows())
    assert [r[1] for r in rows if r[1].endswith(": inputs")] == [
        f"{bench.ABOUT['deploy']}: inputs"]
    monkeypatch.setattr(bench, "ONLY", ["nope"])
    with pytest.raises(SystemExit, match="no door nope"):
        list(bench.rows())
