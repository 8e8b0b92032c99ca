"""Fuzzing the laptop's doors (tests/laptop_doors.py), CATNIP_FUZZ_INPUTS
inputs each (3,000 in `make bench`, so it stays short; 100,000 a door in the
full bench, where the target is 0): the wire reader on mutated bytes, the Keeper and its
mirror on CRC-valid frames with bent fields, odd encodings, NaN and extra
fields, the session store on damaged files through every read command, the
command line (every command), deploy's --board/--calibration files, and
`catnip serve`'s routes and live stream (any answer but a 500). Unhandled
exceptions must be 0. CATNIP_FUZZ_DOORS (names, comma-separated) runs only
those doors, for a long run of one at a time.
Then every named tamper of a session file (tests/tampering.py) for each
title through `catnip replay --verify`: each must exit 1."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared")]

import laptop_doors  # noqa: E402

Row = tuple[str, str, object, str, str]
INPUTS = bench.sized("CATNIP_FUZZ_INPUTS", 3000, 100_000)  # a door
ONLY = [d for d in os.environ.get("CATNIP_FUZZ_DOORS", "").split(",") if d]
ABOUT = {
    "reader": "wire.Reader.feed: mutated frames among noise",
    "keeper": "Keeper and Mirror: CRC-valid frames, fields bent, odd JSON, read back",
    "store": "every read command on a damaged store",
    "cli": "command lines (every command)",
    "deploy": "deploy's --board/--calibration files",
    "serve": "catnip serve: routes and the live stream (a 500 counts)",
}


def rows() -> Iterator[Row]:
    escaped = 0
    unknown = set(ONLY) - set(laptop_doors.DOORS)
    if unknown:
        raise SystemExit(f"CATNIP_FUZZ_DOORS: no door {', '.join(sorted(unknown))} "
                         f"(doors: {', '.join(laptop_doors.DOORS)})")
    for name, door in laptop_doors.DOORS.items():
        if ONLY and name not in ONLY:
            continue
        t0 = time.perf_counter()
        out = door(INPUTS, seed=2026)
        escaped += out["crashes"]
        first = "" if out["first"] is None else f"; first: {out['first'][1].splitlines()[-1]}"
        yield ("laptop fuzz", f"{ABOUT[name]}: inputs", out["inputs"], "inputs",
               f"{out['crashes']} unhandled exceptions in {time.perf_counter() - t0:.0f} s{first}")
    yield ("laptop fuzz", "unhandled exceptions, all doors", escaped, "", "must be 0")
    caught, total, missed = _tampers()
    yield ("laptop fuzz", "named tampers of a session file that exit 1", caught, "tampers",
           f"of {total} (every named tamper of each title)"
           + (f"; missed: {', '.join(missed[:3])}" if missed else ""))


def _tampers() -> tuple[int, int, list[str]]:
    from click.testing import CliRunner

    from catnip_host.cli import main
    from tampering import encoded, numbered, tampered
    from test_verify import _frames

    caught, total, missed = 0, 0, []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.catnip"
        for name, config in (("heist", None), ("stack", None), ("purrfect", {"players": 4})):
            for tamper, frames in tampered(numbered(_frames(name, config))):
                path.write_bytes(encoded(frames))
                out = CliRunner().invoke(main, ["replay", str(path), "--verify"])
                total += 1
                if out.exit_code == 1 and "DOES NOT VERIFY" in out.output:
                    caught += 1
                else:
                    missed.append(f"{name}: {tamper}")
    return caught, total, missed
