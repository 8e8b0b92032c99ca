"""Power-up on the real build: BACK held on a station while the table powers
up leaves the REPL to whoever is at the laptop, and says so on the line and
on the screens (the recovery path for an app that does not start), on the
mux layout (the bench's mux7 world) and on the direct one."""

from __future__ import annotations

import json

import pytest

from bench import pico_flash, pico_rig, pico_run
from checks import clean


@pytest.mark.xdist_group("stack")
def test_back_held_at_power_up_leaves_the_repl(pico, tmp_path):
    held = [{"t": 0.0, "do": "press", "id": "st2_back", "hold_ms": 2500}]
    run = pico_run.run(pico, tmp_path / "boot", pico_rig.BOOTED_S + 1.0, held)
    clean(run)
    serial = (run.out / "serial.txt").read_text(errors="replace")
    assert "BACK held at power-up" in serial, serial[-1500:]
    screens = run.screens()
    for k in range(pico_rig.STATIONS):
        assert "REPL mode" in screens[f"st{k}_oled"], (k, screens[f"st{k}_oled"])
    assert "catnip setup" not in " ".join(screens["st0_oled"]), "the app did not start"


def direct_world() -> dict:
    """firmware/boards/direct.json as a bench world: four stations, two
    panels on each I2C bus, every button on its own GPIO, one load cell."""
    board = json.loads((pico_rig.ROOT / "firmware" / "boards" / "direct.json").read_text())
    buses: dict[int, list] = {0: [], 1: []}
    buttons = []
    for k, station in enumerate(board["stations"]):
        buses[station["bus"]].append({"type": "ssd1306", "id": f"st{k}_oled",
                                      "addr": station["oled"]["addr"], "height": 64})
        buttons += [{"id": f"st{k}_{name}", "pin": pin, "bounce": {"transitions": 5, "ms": 2}}
                    for name, pin in station["buttons"]["gpio"].items()]
    cell = board["tray"]["cells"][0]
    return {"seed": 7, "buttons": buttons, "watch": [board["buzzer"]["pin"]],
            "i2c": [{"bus": b["id"], "sda": b["sda"], "scl": b["scl"], "devices": buses[b["id"]]}
                    for b in board["i2c"]],
            "hx711": [{"id": "cell0", "dout": cell["dout"], "sck": cell["sck"], "rate": 10,
                       "offset": -41230, "counts_per_gram": 427.5}]}


@pytest.mark.xdist_group("stack")
def test_back_held_at_power_up_leaves_the_repl_on_the_direct_layout_too(tmp_path):
    flash = pico_flash.put(pico_flash.fresh(tmp_path / "flash.img"),
                         {"board.json": (pico_rig.ROOT / "firmware" / "boards" /
                                         "direct.json").read_bytes()})
    held = [{"t": 0.0, "do": "press", "id": "st3_back", "hold_ms": 2500}]
    run = pico_run.run(flash, tmp_path / "boot", pico_rig.BOOTED_S + 1.0, held,
                       world=direct_world())
    clean(run)
    serial = (run.out / "serial.txt").read_text(errors="replace")
    assert "BACK held at power-up" in serial, serial[-1500:]
    screens = pico_flash.read_text({f"st{k}_oled": run.panel(f"st{k}_oled") for k in range(4)})
    for name, lines in screens.items():
        assert "REPL mode" in lines, (name, lines)
