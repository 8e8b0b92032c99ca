"""The records: export and stats over a store of 1,000 games (200 outside the
full bench) (every title and
Stack O' Cats mode in turn, played by the rules engine with random legal
moves and written as the link stores them), each timed from opening the
store, so the rules' replay of every game is part of the figure."""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware")]

Row = tuple[str, str, float | int | str, str, str]
GAMES = bench.sized("CATNIP_BENCH_GAMES", 200, 1000)  # the full bench: 1,000


T = TypeVar("T")


def _timed(store_path: Path, work: Callable[[list], T]) -> tuple[float, float, T]:
    """(CPU seconds, wall seconds, what `work` gave): the CPU figure is the
    one to read on a machine shared with other work, where the wall clock
    also counts the time others had the cores."""
    from catnip_host import records
    from catnip_host.store import Store

    t0, c0 = time.perf_counter(), time.process_time()
    store = Store(store_path)
    plays = records.load(store).plays
    out = work(plays)
    cpu, elapsed = time.process_time() - c0, time.perf_counter() - t0
    store.close()
    assert len(plays) == GAMES
    return cpu, elapsed, out


def _export(fmt: str) -> Callable[[list], int]:
    from catnip_host import export

    def run(plays) -> int:
        out = io.BytesIO()  # exports are UTF-8 bytes, whatever the console
        export.write(fmt, plays, out, "bench", {"heist": 1, "stack": 2, "purrfect": 3})
        return len(out.getvalue())

    return run


def _stats(plays) -> int:
    from catnip_host import stats

    found = stats.lines(plays)
    stats.clowder_high_scores(plays)
    return len(found)


def rows() -> Iterator[Row]:
    from recordrig import engine_store, mixed_games

    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-"))
    try:
        t0 = time.perf_counter()
        path = engine_store(folder / "s.sqlite3", mixed_games(GAMES, "bench"), 1.7e9,
                            every_s=3 * 3600)
        built = time.perf_counter() - t0
        yield ("records", f"a store of {GAMES:,} games built", round(built, 2), "s",
               "rules engine, random legal play, one transaction (bench setup)")
        for fmt, what in (("jsonl", "JSON Lines: every action and public event"),
                          ("bgstats", "BG Stats import file"), ("csv", "BGG-style CSV")):
            cpu, elapsed, size = _timed(path, _export(fmt))
            yield ("records", f"export of {GAMES:,} games, {fmt}", round(cpu, 2), "s CPU",
                   f"{what}; {size / 1e6:.1f} MB; load + replay + write; target under 2 s; "
                   f"{elapsed:.2f} s wall clock")
        cpu, elapsed, lines = _timed(path, _stats)
        yield ("records", f"stats over {GAMES:,} games", round(cpu, 2), "s CPU",
               f"{lines} player x game lines and the Colonnade; load + replay + tally; "
               f"{elapsed:.2f} s wall clock")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
