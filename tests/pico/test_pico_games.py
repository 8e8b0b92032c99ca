"""A game of each title on the emulated RP2040, deployed with `catnip deploy` and
booted from board.json, played by pressing buttons in the bench's scenario;
the standings read off the panels. Kept short (the bench runs at about a fifth
of real time): Meow Heist with two players, Stack O' Cats with two, Purrfect
as the scorekeeper for four."""

from __future__ import annotations

import json

import pytest

from bench import pico_rig
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
def test_deploy_puts_the_compiled_firmware_on_flash(deployment, tmp_path):
    flash, outcome = deployment
    items = bundle.firmware("armv6m")  # what the rp2 build reported it runs
    names = tuple({i.path.split("/")[0] for i in items} | {"board.json", MANIFEST})
    copy = pico_rig.read_flash(flash, tmp_path / "fs", names)
    got = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert got == sorted([i.path for i in items] + ["board.json", MANIFEST])
    for item in items:
        assert (copy / item.path).read_bytes() == item.data, item.path
    assert json.loads((copy / "board.json").read_text()) == pico_rig.board7()
    assert outcome.how == "found it at the REPL"
    assert {c.action for c in outcome.plan.changes} == {"add"}


@pytest.mark.parametrize(("game", "options", "seats"), GAMES)
def test_a_game_by_buttons_ends_in_its_standings_on_every_screen(pico, tmp_path, game,
                                                                 options, seats):
    clean(pico_rig.start(pico, tmp_path, game, options, seats))
    played = pico_rig.finish(pico, tmp_path, game, options, seats)
    for run in played.runs:
        clean(run)
    resumed_as_planned(played, [0])
    standings_shown(played, seats)
    status, result = journaled_result(played.journal)
    assert status == "finished"
    assert result == played.expected["result"]
