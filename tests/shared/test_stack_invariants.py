# A seeded sample of the Stack O' Cats properties (the hypothesis run in
# tests/test_stack_properties.py explores more): scores recomputed from the
# log, cats conserved, replay identical, public() following only from what
# is public.
from stack_checks import play_checked, steady_chooser

from catnip.rules import new

CONFIGS = [
    {"players": 2},
    {"players": 3, "mode": "patient"},
    {"players": 4, "black_cat": True},
    {"players": 5},
    {"players": 5, "black_cat": True, "black_touch": "once", "mode": "patient"},
    {"players": 6, "black_cat": True},
    {"players": 6, "draw": "physical", "mode": "patient"},
    {"players": 3, "draw": "physical", "black_cat": True, "start": 2},
    {"mode": "clowder"},
    {"mode": "clowder", "players": 4, "table_colour": "pink"},
    {"mode": "clowder", "players": 2, "draw": "physical"},
]


def _run(steadiness, seeds):
    for n, config in enumerate(CONFIGS):
        for seed in seeds:
            game = new("stack", config, "%s-%d" % (seed, n))
            play_checked(game, steady_chooser(seed + "-choices", steadiness))


def test_steady_hands_build_tall_towers():
    _run(6, ["steady"])


def test_shaky_hands_collapse_often():
    _run(0, ["shaky"])


def test_clowder_can_empty_the_bag():
    # With perfect hands the Clowder ends by emptying the bag.
    game = new("stack", {"mode": "clowder", "players": 3}, "perfect")

    def places(options):
        return [a for a in options if a[0] != "collapse"][0]

    play_checked(game, places)
    result = game.result()
    assert result["reasons"] == [{"why": "bag empty", "seats": []}] and result["team"] == 24
