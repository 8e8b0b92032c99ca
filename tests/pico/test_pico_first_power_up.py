"""Drop it and play: the catnip image on a Pico with nothing on its flash
works out which shipped layout is wired, says so on the stations and on the
line, and writes board.json only once a person presses OK."""

from __future__ import annotations

import json

import pytest

from bench import pico_flash, pico_rig, pico_run
from checks import clean

SHOWN_S = 4.5  # the survey and its screens are up well before this


def _board(flash, tmp_path):
    copy = pico_flash.read_flash(flash, tmp_path / "fs", ("board.json",))
    path = copy / "board.json"
    return json.loads(path.read_text()) if path.exists() else None


def _serial(run):
    return (run.out / "serial.txt").read_text(errors="replace")


@pytest.mark.xdist_group("others")
def test_the_wiring_found_is_shown_and_written_once_ok_is_pressed(tmp_path):
    flash = pico_flash.fresh(tmp_path / "flash.img")
    back = [{"t": SHOWN_S, "do": "press", "id": "st4_back", "hold_ms": 150}]
    run = pico_run.run(flash, tmp_path / "back", SHOWN_S + 1.5, back)
    clean(run)
    said = _serial(run)
    assert "Found: a TCA9548A mux at 0x70 on I2C0 (GP0/GP1); 7 stations on mux channels " \
        "0-6, each a screen and buttons; the table display at 0x3D." in said, said[-1500:]
    assert "board.json not written: the REPL is yours" in said
    assert "REPL mode" in run.screens()["st0_oled"]
    assert _board(flash, tmp_path) is None
    ok = [{"t": SHOWN_S, "do": "press", "id": "st2_ok", "hold_ms": 150}]
    run = pico_run.run(flash, tmp_path / "ok", SHOWN_S + 4.0, ok)
    clean(run)
    assert "board.json written: the mux layout with 7 stations" in _serial(run)
    assert _board(flash, tmp_path) == pico_flash.board7()
    screens = run.screens()
    assert all("catnip setup" in " ".join(screens[f"st{k}_oled"]) for k in range(7)), screens


@pytest.mark.xdist_group("heist")
def test_a_wiring_that_matches_no_shipped_layout_names_what_answered_and_what_is_missing(
        tmp_path):
    world = json.loads(pico_rig.WORLD.read_text())
    mux = world["i2c"][0]["devices"][0]
    mux["channels"]["0"][1]["present"] = False  # station 1's buttons are not wired
    flash = pico_flash.fresh(tmp_path / "flash.img")
    run = pico_run.run(flash, tmp_path / "none", SHOWN_S, world=world)
    clean(run)
    said = _serial(run)
    assert "the wiring matches no shipped layout. Answering: a TCA9548A mux at 0x70 on I2C0 " \
        "(GP0/GP1); the table display at 0x3D. Missing: station 1 (mux channel 0): its screen " \
        "(0x3C) answers, its buttons' PCF8574 (0x20) does not; the mux layout needs at least 2 " \
        "stations" \
        in said.replace("\r\n", " "), said[-1500:]
    assert _board(flash, tmp_path) is None
    assert "board.json" in run.screens()["st0_oled"][0]
