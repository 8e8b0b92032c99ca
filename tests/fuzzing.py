"""Hypothesis strategies for the fuzz suites: cases for tests/shared/doors.py.

Every door gets values of every type a caller could pass (None, bools, huge
ints, whole and odd floats, unicode digits, bytes, deep nesting, missing and
extra keys), mixed with inputs close to valid ones so the deeper checks run.
`json_only` keeps to what JSON carries, for the MicroPython runs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import doors

# Text a careless or hostile sender might use where a number or word belongs.
ODD_TEXT = ["", "0", "1", "٦٠", "6_0", " 60", "0x3C", "0x3_C", "３", "1e3", "-0", "NaN",
            "players", "red", "offer", "play", "\x00", "é", "x" * 40]


def deep(depth: int, kind: str) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


def scalars(json_only: bool) -> st.SearchStrategy:
    base = (st.none() | st.booleans()
            | st.integers(-3, 10) | st.integers(-(2**70), 2**70)
            | st.sampled_from([2**28, 2**30, 2**31, 2**63, -(2**28)])
            | st.integers(-3, 100).map(float)  # whole-number floats: 64.0, 80.0, 0.0
            | st.floats(allow_nan=not json_only, allow_infinity=not json_only)
            | st.sampled_from(ODD_TEXT) | st.text(max_size=6))
    if not json_only:
        base = base | st.binary(max_size=4)
    return base


def values(json_only: bool = False) -> st.SearchStrategy:
    leaves = scalars(json_only)
    containers = st.recursive(
        leaves,
        lambda inner: (st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=4) | st.sampled_from(ODD_TEXT), inner,
                                         max_size=3)
                       | (st.just(()) if json_only else st.tuples(inner, inner))),
        max_leaves=5)
    depth = st.integers(20, 60) if json_only else st.integers(200, 3000)
    nested = st.builds(deep, depth, st.sampled_from(["list", "dict"]))
    return st.one_of(leaves, containers, nested)


def game_specs(only: tuple[int, ...] | None = None, finished: bool = False) -> st.SearchStrategy:
    indexes = list(only) if only else list(range(len(doors.GAMES)))
    moves = list(doors.MOVES) + ([doors.FINISHED] if finished else [])
    return st.tuples(st.sampled_from(indexes), st.integers(0, len(doors.SEEDS) - 1),
                     st.sampled_from(moves)).map(list)


def players(json_only: bool) -> st.SearchStrategy:
    return st.integers(-1, 8) | values(json_only)


def actions(json_only: bool) -> st.SearchStrategy:
    """Whole junk, or an action shaped like a real one with one part bent."""
    names = st.sampled_from(["play", "reveal", "gems", "draw", "drew", "place", "collapse",
                             "take", "base", "out", "offer", "withdraw", "accept", "declare",
                             "score"])
    items = st.integers(-2, 70) | st.sampled_from(["red", "blue", "black", "1"]) | values(json_only)
    shaped = st.tuples(names, st.lists(items, max_size=6)).map(lambda t: [t[0], *t[1]])
    return st.one_of(shaped, shaped.map(tuple) if not json_only else shaped, values(json_only))


def configs(json_only: bool) -> st.SearchStrategy:
    keys = st.sampled_from(["players", "mode", "variant", "gems", "start", "colours",
                            "per_colour", "black_cats", "black_cat", "cat_grams", "draw",
                            "table_colour", "black_touch", "colour"])
    good = st.sampled_from([g[1] for g in doors.GAMES] + [{}])
    plausible = st.one_of(
        st.integers(0, 9), st.integers(0, 120), st.booleans(),
        st.sampled_from(["composure", "patient", "clowder", "stations", "scorekeeper",
                         "standard", "original", "digital", "physical", "each", "once",
                         "red", "teal"]),
        st.lists(st.sampled_from(["red", "teal", "blue", "gold", "black", "", "caf\u00e9",
                                  "x" * 13]), max_size=18),
        st.floats(0, 2000), st.sampled_from([float("inf"), float("nan")]) if not json_only
        else st.just(6.0))
    edits = st.dictionaries(keys, plausible | values(json_only), max_size=3)
    bent = st.tuples(good, edits).map(lambda t: {**t[0], **t[1]})
    return st.one_of(bent, bent, values(json_only))


def seeds(json_only: bool) -> st.SearchStrategy:
    return st.one_of(st.none(), st.text(max_size=70), st.sampled_from(["4711", "x" * 64, "x" * 65]),
                     values(json_only))


def cases(door: str, json_only: bool = False) -> st.SearchStrategy:
    """Cases for one door (see doors.run)."""
    v = values(json_only)
    if door == "new":
        names = st.sampled_from(["heist", "stack", "purrfect", "chess", "Heist"]) | v
        return st.fixed_dictionaries({"door": st.just("new"), "name": names,
                                      "config": configs(json_only), "seed": seeds(json_only)})
    if door in ("act", "check"):
        only = (4,) if door == "check" else None
        given = st.fixed_dictionaries({"door": st.just(door), "game": game_specs(only),
                                       "player": players(json_only),
                                       "action": actions(json_only)})
        bend = st.none() | st.tuples(st.integers(0, 5), st.integers(-2, 70) | v).map(list)
        pick = st.tuples(st.integers(0, 10**4), bend).map(list)
        picked = st.fixed_dictionaries({"door": st.just(door), "game": game_specs(only),
                                        "player": players(json_only), "pick": pick})
        turn = st.fixed_dictionaries({"door": st.just(door), "game": game_specs(only),
                                      "turn": st.integers(0, 6), "pick": pick})
        return st.one_of(given, picked, turn, turn)
    if door in ("view", "legal"):
        return st.fixed_dictionaries({"door": st.just(door), "game": game_specs(),
                                      "player": players(json_only)}) | st.fixed_dictionaries(
            {"door": st.just(door), "game": game_specs(), "turn": st.integers(0, 6)})
    if door == "replay":
        return st.fixed_dictionaries({"door": st.just("replay"),
                                      "game": game_specs((0, 2, 3, 5), finished=True),
                                      "damage": st.lists(damages(json_only), max_size=3),
                                      "json": st.just(json_only)})
    if door == "board":
        plausible_board = st.one_of(st.integers(0, 30), st.sampled_from(
            [0x3C, 0x3D, 0x20, 0x70, "0x3C", "0x3d", "60", 10, 80, 64, 32, 100000, True, False]))
        edited = st.fixed_dictionaries({
            "door": st.just("board"), "base": st.sampled_from(["direct", "mux"]),
            "edits": st.lists(st.tuples(st.integers(0, 10_000), plausible_board | v).map(list),
                              min_size=1, max_size=4)})
        gentle = st.fixed_dictionaries({
            "door": st.just("board"), "base": st.sampled_from(["direct", "mux"]),
            "edits": st.tuples(st.integers(0, 10_000), plausible_board).map(lambda e: [list(e)])})
        whole = st.fixed_dictionaries({"door": st.just("board"), "data": v})
        return st.one_of(edited, gentle, whole)
    raise ValueError(door)


FIELDS = ["game", "config", "seed", "salt", "seed_commit", "log", "finished"]


def damages(json_only: bool) -> st.SearchStrategy:
    v = values(json_only)
    field = st.sampled_from(FIELDS)
    hexes = st.sampled_from(["0" * 32, "0" * 64, "A" * 32, "g" * 32])
    return st.one_of(
        st.tuples(st.just("drop"), field, st.none()),
        st.tuples(st.just("set"), field, v | hexes | st.booleans()),
        st.tuples(st.just("extra"), st.sampled_from(["extra", "Seed", "salts"]), v),
        st.tuples(st.just("packed"), st.sampled_from(["words", "data", "count", "x"]), v),
        st.tuples(st.just("entry"), st.integers(0, 99), v),
        st.tuples(st.just("item"), st.integers(0, 99),
                  st.tuples(st.integers(0, 5), st.integers(-1, 70) | v).map(list)),
        st.tuples(st.just("cut"), st.integers(1, 5), st.none()),
    ).map(list)


def fuzz(door: str, inputs: int, batch: int = 20, json_only: bool = False,
         seen: Callable[[dict, str], None] | None = None) -> Counter:
    """Run `inputs` generated cases through `door`; the verdicts, counted.
    Cases come from hypothesis in batches (its cost per example is the
    overhead); `seen(case, verdict)` sees every one."""
    counts: Counter = Counter()

    @settings(max_examples=max(1, inputs // batch), deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.lists(cases(door, json_only), min_size=batch, max_size=batch))
    def run(batch_cases: list[dict]) -> None:
        for case in batch_cases:
            verdict = doors.run(case)
            counts[verdict.split(" ", 1)[0]] += 1
            if seen is not None:
                seen(case, verdict)

    run()
    return counts


def as_json(case: dict) -> dict:
    """The case as MicroPython will read it."""
    return json.loads(json.dumps(case))
