"""Power cuts at the virtual table (tests/simpower.py): a whole game of each
title, cut at 50 random moments of its journal's work on flash (part-way
through a write, or before a rename or a removal), resumed by a fresh table
from its setup screen, finished, and ending exactly as the uncut game did."""

from __future__ import annotations

import pytest

import mpunix

TITLES = ("heist-3p", "heist-2p", "stack", "purrfect", "purrfect-paper")
CUTS = 50
# The run keeps every cut's whole flash in RAM (tests/simpower.py's Flash), and
# 50 cuts of a long Purrfect come within a few hundred KB of the unix port's
# default 2 MB heap: the table's own heap is measured on the Pico, not here.
HEAP = 8 * 1024 * 1024

pytestmark = pytest.mark.skipif(
    not (mpunix.FIRMWARE / "catnip" / "flash" / "journal.py").exists(),
    reason="power cuts need the flash journal (catnip.flash.journal)")


@pytest.mark.parametrize("name", TITLES)
def test_a_game_survives_power_cuts_anywhere_in_its_journal(name, tmp_path):
    proc = mpunix.run([str(mpunix.ROOT / "tests" / "simpower.py"), name, str(CUTS),
                       str(tmp_path)], path=[mpunix.SHARED_TESTS, mpunix.ROOT / "tests"],
                      heap=HEAP, timeout=600)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and lines and lines[-1].startswith(f"OK {CUTS} cuts"), \
        proc.stdout[-3000:] + proc.stderr[-3000:]
    cuts = [line for line in lines if line.startswith("cut ")]
    assert len(cuts) == CUTS
    # A record cut off part-way is noticed, and said, when the table starts again.
    assert any("torn" in line and "; said: " in line for line in cuts), "no torn record said"
