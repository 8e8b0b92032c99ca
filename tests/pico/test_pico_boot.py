"""Power-up on the real build: BACK held on a station while the table powers
up leaves the REPL to whoever is at the laptop, and says so on the line and
on the screens (the recovery path for an app that does not start)."""

from __future__ import annotations

import pytest

from bench import pico_rig
from checks import clean


@pytest.mark.xdist_group("stack")
def test_back_held_at_power_up_leaves_the_repl(pico, tmp_path):
    held = [{"t": 0.0, "do": "press", "id": "st2_back", "hold_ms": 2500}]
    run = pico_rig.run(pico, tmp_path / "boot", pico_rig.BOOTED_S + 1.0, held)
    clean(run)
    serial = (run.out / "serial.txt").read_text(errors="replace")
    assert "BACK held at power-up" in serial, serial[-1500:]
    screens = run.screens()
    for k in range(pico_rig.STATIONS):
        assert "REPL mode" in screens[f"st{k}_oled"], (k, screens[f"st{k}_oled"])
    assert "catnip setup" not in " ".join(screens["st0_oled"]), "the app did not start"
