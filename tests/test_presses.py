"""No press is lost at the table: over the scripted evenings, with waiting
players who fidget, every press is acted on or refused with a reason on its
station (tests/pressplay.py, the real firmware on the virtual table)."""

from __future__ import annotations

import json

import pytest

import mpunix

SCENARIOS = mpunix.ROOT / "tests" / "scenarios"


def evenings(tmp_path, names):
    flash = tmp_path / "flash"
    flash.mkdir()
    proc = mpunix.run([str(mpunix.ROOT / "tests" / "pressplay.py"), str(flash),
                       *(str(SCENARIOS / f"{n}.json") for n in names)],
                      path=[mpunix.SHARED_TESTS], timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("name", ["heist-2p", "heist-3p", "stack", "purrfect"])
def test_every_press_is_acted_on_or_refused_with_a_reason(tmp_path, name):
    (count,) = evenings(tmp_path, [name])
    assert count["under"] >= 5, "presses came while announcements showed"
    assert count["lost"] == 0, count["lost_at"]
    assert count["presses"] == count["acted"] + count["refused"]
    if name != "purrfect":  # in Purrfect nobody waits: every player may offer at any time
        assert count["fidgets"] > 0, "the evening had a waiting player pressing"
        assert count["refused"] >= count["fidgets"]  # a waiting player is told why
