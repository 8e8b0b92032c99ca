"""Meow Heist properties over many random legal games (CPython, hypothesis).

The invariant checkers live in tests/shared/heist_check.py, so the seeded
MicroPython run (tests/shared/test_heist_invariants.py) checks the same
properties on fewer games.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heist_check import Watch, check_ranks, check_refusals, refused
from catnip.rules.engine import RuleError, replay
from catnip.rules.heist import Heist, standings

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 6))
    variant = "standard" if players == 2 else draw(st.sampled_from(["standard", "original"]))
    return {
        "players": players,
        "variant": variant,
        "gems": draw(st.sampled_from(["digital", "physical"])),
        "start": draw(st.integers(0, players - 1)),
    }


# The device's seeds: 128 bits as 32 hex digits.
seeds = st.text("0123456789abcdef", min_size=32, max_size=32)


def play(game: Heist, data: st.DataObject, each=None) -> None:
    """Let hypothesis pick every action among the legal ones, so a failing
    game shrinks to a short, readable one."""
    while game.result() is None:
        player = data.draw(st.sampled_from(game.to_act()), label="player")
        legal = game.legal(player)
        assert legal, f"player {player} must act but has no legal action"
        action = data.draw(st.sampled_from(legal), label="action")
        events = game.act(player, action)
        if each is not None:
            each(game, player, action, events)


@FAST
@given(configs(), seeds, st.data())
def test_every_invariant_holds_after_every_action(config, seed, data):
    game = Heist(config, seed)
    watch = Watch(game)

    def each(game, player, action, events):
        watch(game, player, action, events)
        check_refusals(game)

    play(game, data, each)
    assert watch.secrecy_checks == len(game.log)


actions = st.tuples(st.sampled_from(["play", "reveal", "gems", "steal"])).flatmap(
    lambda name: st.lists(st.integers(-2, 17), max_size=5).map(lambda xs: name + tuple(xs)))


@settings(max_examples=200, deadline=None)
@given(configs(), seeds, st.data())
def test_an_action_is_accepted_exactly_when_legal_lists_it(config, seed, data):
    game = Heist(config, seed)
    steps = data.draw(st.integers(0, 60), label="steps")
    for _ in range(steps):
        if game.result() is not None:
            break
        player = data.draw(st.sampled_from(game.to_act()))
        game.act(player, data.draw(st.sampled_from(game.legal(player))))
    player = data.draw(st.integers(0, config["players"] - 1), label="player")
    for _ in range(10):
        action = data.draw(actions, label="action")
        if action in game.legal(player):
            copy = replay(Heist, game.journal())
            copy.act(player, action)
            assert copy.log[-1] == (player, action)
        else:
            refused(game, player, action)


@settings(max_examples=60, deadline=None)
@given(configs(), seeds, st.data())
def test_a_journal_replays_to_the_same_game_at_any_point(config, seed, data):
    game = Heist(config, seed)
    cut = data.draw(st.integers(0, 80), label="cut")
    while game.result() is None and len(game.log) < cut:
        player = data.draw(st.sampled_from(game.to_act()))
        game.act(player, data.draw(st.sampled_from(game.legal(player))))
    journal = json.loads(json.dumps(game.journal()))
    again = replay(Heist, journal)
    assert again == game
    assert again.public() == game.public()
    assert [again.view(p) for p in range(game.players())] == [
        game.view(p) for p in range(game.players())]


def test_a_tampered_seed_is_caught_on_replay():
    game = Heist({"players": 3}, "honest seed")
    journal = game.journal()
    journal["seed"] = "another seed"
    try:
        replay(Heist, journal)
    except RuleError as e:
        assert "tampered" in str(e)
    else:
        raise AssertionError("a journal with the wrong seed replayed")


loot = st.lists(st.integers(0, 12), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.lists(loot, min_size=2, max_size=6))
def test_standings_rank_by_score_then_rocks_and_explain_every_tie(shields):
    result = standings(shields)
    check_ranks(result)
    scores, rocks = result["scores"], result["rocks"]
    noted = {(note["by"], tuple(note["seats"])) for note in result["reasons"]}
    for s in set(scores):
        tied = [p for p in range(len(scores)) if scores[p] == s]
        by_rocks = len(tied) > 1 and len({rocks[p] for p in tied}) > 1
        assert (("rocks", tuple(tied)) in noted) == by_rocks
        for r in {rocks[p] for p in tied}:
            shared = [p for p in tied if rocks[p] == r]
            assert (("none", tuple(shared)) in noted) == (len(shared) > 1)
    assert len(noted) == len(result["reasons"])
