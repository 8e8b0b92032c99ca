"""Stack O' Cats properties over generated settings and play (CPython only).

The checkers live in tests/shared/stack_checks.py so the MicroPython run
covers a seeded subset of the same properties (tests/shared/test_stack_invariants.py).
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from stack_checks import check_all, play_checked

from catnip.rules import new, replay
from catnip.rules.colonnade import Colonnade
from catnip.rules.engine import RuleError

PROPERTY_SETTINGS = settings(max_examples=40, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])


# Seeds shaped like the device's: 128 bits as hex.
SEEDS = st.binary(min_size=16, max_size=16).map(bytes.hex)


@st.composite
def configs(draw: st.DrawFn) -> dict:
    mode = draw(st.sampled_from(["composure", "patient", "clowder"]))
    clowder = mode == "clowder"
    players = draw(st.integers(1, 8) if clowder else st.integers(2, 6))
    colours = ["c%d" % k for k in range(draw(st.integers(1, 8)))]
    black_cat = not clowder and draw(st.booleans())
    config = {
        "mode": mode,
        "players": players,
        "start": draw(st.integers(0, players - 1)),
        "draw": draw(st.sampled_from(["digital", "physical"])),
        "colours": colours,
        "per_colour": draw(st.integers(1, 6)),
        "black_cats": draw(st.integers(1 if black_cat else 0, 8)),
        "black_cat": black_cat,
        "black_touch": draw(st.sampled_from(["each", "once"])),
    }
    if clowder:
        config["table_colour"] = draw(st.sampled_from(colours))
    try:
        new("stack", config, "probe")
    except RuleError:
        assume(False)
    return config


def _chooser(data: st.DataObject):
    def choose(options: list[tuple]) -> tuple:
        places = [a for a in options if a[0] == "place"]
        if places and data.draw(st.integers(0, 3), label="stands") > 0:
            return data.draw(st.sampled_from(places), label="placement")
        return data.draw(st.sampled_from(options), label="action")
    return choose


@PROPERTY_SETTINGS
@given(config=configs(), seed=SEEDS, data=st.data())
def test_every_invariant_holds_through_a_whole_game(config, seed, data):
    # Scores from the log, cats conserved, turn order, replay, and a physical
    # twin fed only public events showing the same public state.
    play_checked(new("stack", config, seed), _chooser(data))


ACTION_NAMES = ["place", "collapse", "draw", "drew", "take", "base", "out", "jump"]
VALUES = st.one_of(st.integers(-2, 12), st.sampled_from(["c0", "c1", "black", "red", ""]),
                   st.booleans(), st.none())


@PROPERTY_SETTINGS
@given(config=configs(), seed=SEEDS, data=st.data())
def test_an_action_is_accepted_exactly_when_legal_lists_it(config, seed, data):
    game = new("stack", config, seed)
    choose = _chooser(data)
    while game.result() is None:
        player = game.to_act()[0]
        legal = game.legal(player)
        for _ in range(3):
            candidate = (data.draw(st.sampled_from(ACTION_NAMES)),
                         *data.draw(st.lists(VALUES, max_size=3)))
            if candidate in legal:
                continue
            before = replay(game.journal())
            try:
                game.act(player, candidate)
            except RuleError as e:
                assert str(e)
            else:
                raise AssertionError(f"{candidate} was accepted but legal() omits it")
            assert game == before
        for other in range(game.players()):
            if other != player:
                assert game.legal(other) == []
        game.act(player, choose(legal))
        check_all(game)


@settings(max_examples=100, deadline=None)
@given(size=st.integers(1, 8),
       adds=st.lists(st.tuples(st.text(min_size=1, max_size=5).filter(str.strip),
                               st.integers(0, 12)), max_size=30))
def test_colonnade_keeps_the_first_best_scores(size, adds):
    table = Colonnade(size)
    for name, score in adds:
        table.add([name], score)
        assert Colonnade.from_json(table.to_json()) == table
    # The model: every clowder ever, best first, earlier first among equals.
    model = sorted(range(len(adds)), key=lambda k: (-adds[k][1], k))[:size]
    assert [(r[1], r[2]) for r in table.ranked()] == [([adds[k][0]], adds[k][1]) for k in model]
    ranks = [r[0] for r in table.ranked()]
    scores = [r[2] for r in table.ranked()]
    assert ranks == [1 + sum(1 for s in scores if s > t) for t in scores]
