"""A game of each title on the emulated RP2040, on the catnip image with
board.json put there by `catnip deploy`, played by pressing buttons in the bench's scenario;
the standings read off the panels. Kept short (the bench runs at about a fifth
of real time): Meow Heist with two players, Stack O' Cats with two, Purrfect
as the scorekeeper for four."""

from __future__ import annotations

import json

import pytest

from bench import pico_flash, pico_rig, pico_run
from catnip_host import bundle
from catnip_host.deploy import MANIFEST
from checks import clean, journaled_result, resumed_as_planned, standings_shown

# Two workers (.ci/run): the Meow Heist games (here and the power cuts) on one,
# Stack O' Cats and Purrfect on the other, about the same wall time each.
GAMES = [
    pytest.param("heist", {"variant": "standard", "gems": "digital"}, [0, 1],
                 id="heist", marks=pytest.mark.xdist_group("heist")),
    pytest.param("stack", {"mode": "composure", "black_cat": False, "draw": "digital"}, [0, 1],
                 id="stack", marks=pytest.mark.xdist_group("others")),
    pytest.param("purrfect", {"mode": "scorekeeper"}, [0, 1, 2, 3],
                 id="purrfect", marks=pytest.mark.xdist_group("others")),
]


@pytest.mark.xdist_group("heist")
def test_deploy_onto_the_image_writes_only_board_json(deployment, tmp_path):
    flash, outcome = deployment
    copy = pico_flash.read_flash(flash, tmp_path / "fs", ("catnip", "main.py", "board.json",
                                                        MANIFEST))
    got = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert got == ["board.json"]
    assert json.loads((copy / "board.json").read_text()) == pico_flash.board7()
    assert [(c.action, c.path) for c in outcome.plan.changes] == [("add", "board.json")]
    assert outcome.notes[0].startswith(f"the Pico runs the catnip image {bundle.VERSION} "
                                       f"(sources {bundle.digest()})")


@pytest.mark.xdist_group("others")
def test_deploy_onto_the_image_removes_what_an_mpy_deploy_left(pico, tmp_path):
    stale = {"catnip/__init__.mpy": b"M", "catnip/rules/heist.mpy": b"M",
             "main.py": pico_rig.MAIN.read_bytes(),
             MANIFEST: json.dumps({"files": {"main.py": "0"}}).encode()}
    pico_flash.put(pico, stale)
    outcome = pico_flash.deploy(pico, tmp_path)
    assert sorted(c.path for c in outcome.plan.changes if c.action == "remove") == sorted(stale)
    assert any("catnip/ folder" in note for note in outcome.notes), outcome.notes
    copy = pico_flash.read_flash(pico, tmp_path / "fs", tuple(stale) + ("catnip",))
    assert not any(p.is_file() for p in copy.rglob("*"))
    clean(pico_run.run(pico, tmp_path / "boot", pico_rig.BOOTED_S))  # the frozen app starts


@pytest.mark.xdist_group("others")
def test_stock_micropython_takes_the_mpy_files_boots_and_plays(tmp_path):
    """For a maker who already runs MicroPython: the firmware deployed as .mpy
    files onto the stock image, then a short game to its standings."""
    flash = tmp_path / "stock.img"
    outcome = pico_flash.deploy(flash, tmp_path, uf2=pico_rig.STOCK)
    items = bundle.firmware("armv6m")  # what the rp2 build reported it runs
    names = tuple({i.path.split("/")[0] for i in items} | {"board.json", MANIFEST})
    copy = pico_flash.read_flash(flash, tmp_path / "fs", names)
    got = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert got == sorted([i.path for i in items] + ["board.json", MANIFEST])
    for item in items:
        assert (copy / item.path).read_bytes() == item.data, item.path
    assert "catnip image (`catnip flash`)" in outcome.notes[0]
    game, options, seats = "stack", {"mode": "composure", "black_cat": False,
                                     "draw": "digital"}, [0, 1]
    clean(pico_run.start(flash, tmp_path, game, options, seats, uf2=pico_rig.STOCK))
    played = pico_run.finish(flash, tmp_path, game, options, seats, uf2=pico_rig.STOCK)
    for run in played.runs:
        clean(run)
    standings_shown(played, seats)
    assert journaled_result(played.journal)[0] == "finished"


@pytest.mark.parametrize(("game", "options", "seats"), GAMES)
def test_a_game_by_buttons_ends_in_its_standings_on_every_screen(pico, tmp_path, game,
                                                                 options, seats):
    clean(pico_run.start(pico, tmp_path, game, options, seats))
    played = pico_run.finish(pico, tmp_path, game, options, seats)
    for run in played.runs:
        clean(run)
    resumed_as_planned(played, [0])
    standings_shown(played, seats)
    status, result = journaled_result(played.journal)
    assert status == "finished"
    assert result == played.expected["result"]
