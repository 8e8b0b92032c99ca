"""The laptop's compiled check of a table's frames (catnip_host.kinds) says
what catnip.wire.message says, frame for frame: fields of every kind, made
to fit, then bent one value, one missing field or one number at a time."""

from __future__ import annotations

import copy
import random

from catnip import wire
from catnip_host import kinds

ODD = [None, True, False, -1, 0, 1, wire.MAX_SEQ, wire.MAX_SEQ + 1, wire.MAX_TIME,
       wire.MAX_TIME + 1, 1.5, "", "x", [], [1], [[1, "a"]], [{}], {}, {"a": 1}, ["s"]]


def _fitting(spec: object, rng: random.Random) -> object:
    """A value that meets `spec` (catnip.wire_kinds), chosen at random."""
    if isinstance(spec, dict):
        return {name: _fitting(s, rng) for name, s in spec.items()
                if not (type(s) is str and s[-1:] == "?" and rng.random() < 0.3)}
    if isinstance(spec, tuple):
        return [_fitting(s, rng) for s in spec]
    if isinstance(spec, list):
        return [_fitting(spec[0], rng) for _ in range(rng.randint(0, 3))]
    assert isinstance(spec, str)
    if spec[-1:] == "?" and rng.random() < 0.2:
        return None
    return {"n": rng.randint(0, wire.MAX_SEQ), "t": rng.randint(0, wire.MAX_TIME), "s": "w",
            "d": {"k": 1}, "l": [1], "b": True, "a": [None]}[spec[0]]


def _bend(value: object, rng: random.Random) -> object:
    """`value` with one thing inside it changed, dropped or added."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        name = rng.choice(sorted(value))
        choice = rng.random()
        if choice < 0.3:
            del value[name]
        elif choice < 0.5:
            value["extra"] = rng.choice(ODD)
        else:
            value[name] = _bend(value[name], rng) if rng.random() < 0.5 else rng.choice(ODD)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        k = rng.randrange(len(value))
        value[k] = _bend(value[k], rng) if rng.random() < 0.5 else rng.choice(ODD)
        return value
    return copy.deepcopy(rng.choice(ODD))


def test_the_compiled_check_says_what_the_wire_says():
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _ in range(20000):
        kind = rng.choice(sorted(wire.MESSAGES) + ["nosuch"])
        sent, spec = wire.MESSAGES.get(kind, (wire.ANSWER, {}))
        fields = _fitting(spec, rng)
        assert isinstance(fields, dict)
        if sent == wire.ANSWER:
            fields["re"] = rng.randint(0, wire.MAX_SEQ)
        for _ in range(rng.choice([0, 0, 1, 2])):
            fields = _bend(fields, rng)
        seq = rng.choice([0, 1, 7]) if rng.random() < 0.2 else (5 if sent == wire.STREAMED else 0)
        said = wire.message(seq, kind, fields) if isinstance(fields, dict) else None
        if isinstance(fields, dict):
            assert kinds.message(seq, kind, fields) == said, (seq, kind, fields)
            assert kinds.fields_problem(kind, fields) == wire.fields_problem(kind, fields)
            if kind in wire.MESSAGES:  # and decided it itself, without the wire's walk
                fits = kinds._KINDS[kind][1](fields)
                assert fits == (wire.fields_problem(kind, fields) is None), (kind, fields)
            seen[said is None] += 1
    assert min(seen.values()) > 2000  # both fitting and bent frames were compared
