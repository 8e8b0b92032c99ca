"""Power cuts on the real build: the bench stops at random points of a Meow
Heist game (some a few milliseconds after the press that completes a move,
while it is being journaled), keeping its flash image; the next boot resumes
from the journal, and the game ends exactly as the same game played without
a cut would."""

from __future__ import annotations

import random

import pytest

from bench import pico_rig, pico_run
from checks import clean, journaled_result, resumed_as_planned, standings_shown

GAME = ("heist", {"variant": "standard", "gems": "digital"}, [0, 1])
CUTS = 3


@pytest.mark.xdist_group("heist")
def test_power_cuts_in_a_game_resume_and_end_as_the_uninterrupted_game(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_run.start(pico, tmp_path, name, options, seats))
    rng = random.Random(13)
    left = [CUTS]

    def cut_at(plan, scenario):
        if not left[0]:
            return None
        left[0] -= 1
        moves = plan["moves_after"]
        # presses that complete a move, leaving a few for the game to end on
        acting = [i for i in range(1, len(moves)) if moves[i] > moves[i - 1]][:-3]
        i = rng.choice(acting)
        after = rng.choice((0.005, 0.02, 0.05, 0.1, rng.uniform(0, pico_rig.PRESS_EVERY_S)))
        return scenario[i]["t"] + after

    played = pico_run.finish(pico, tmp_path, name, options, seats, cut_at)
    print("cuts:", played.cuts)
    print("resumed in ms:", [r.resumed_ms for r in played.runs])
    assert len(played.cuts) == CUTS
    for run in played.runs:
        clean(run)
    for cut in played.cuts:
        # a move the Pico acknowledged is never lost; none appears unpressed
        assert cut["moves_at_boot"] <= cut["moves_kept"] <= cut["moves_pressed"], cut
    resumed_as_planned(played, [0] + [c["moves_kept"] for c in played.cuts])
    standings_shown(played, seats)
    status, result = journaled_result(played.journal)
    assert status == "finished"
    assert result == played.expected["result"]
