"""Power-ups on damaged journals (tests/shared/journal_damage.py): 14 kinds of
damage (a flipped bit anywhere, in the header or a CRC, cuts at any byte and at
record boundaries, the tail or the log gone, a record dropped, repeated or
swapped, zeroed bytes, junk after the end) to games in play and ended games
no laptop pulled. Resumes into a game never played and records lost unsaid
must both be 0."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "shared"), str(ROOT / "firmware")]

import journal_damage  # noqa: E402

Row = tuple[str, str, object, str, str]
CASES = bench.sized("CATNIP_JOURNAL_DAMAGE", 300, 1260)


def rows() -> Iterator[Row]:
    folder = tempfile.mkdtemp(prefix="catnip-damage-")
    try:
        counts, by_kind = journal_damage.run(folder, CASES)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(counts.values())
    yield ("journal damage", "damaged journals powered up on", total, "journals",
           f"{len(journal_damage.DAMAGES)} kinds of damage, games in play and ended")
    yield ("journal damage", "resumed into a game never played", counts.get("never played", 0),
           "journals", "must be 0")
    yield ("journal damage", "records lost unsaid", counts.get("unsaid", 0), "journals",
           "must be 0")
    yield ("journal damage", "loss or damage said at power-up", counts.get("said", 0),
           "journals", "a problem naming the game, on every station and the line")
    yield ("journal damage", "cut at a record boundary", counts.get("boundary", 0), "journals",
           "what a power cut between records leaves too: the resume says 'N moves in', "
           "and a laptop that heard later moves names them")
    yield ("journal damage", "nothing lost", counts.get("whole", 0), "journals", "")
