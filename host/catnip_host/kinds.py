"""catnip.wire's check of a frame from the table (wire.message: its kind,
how it came, its fields as wire.MESSAGES declares them), compiled once per
kind for the laptop, which checks every frame a store holds: a frame that
fits costs a call per field and no words; one that does not is handed to
catnip.wire, which says why. wire.message stays the rule, shared with the
table (tests/test_kinds.py holds the two equal)."""

from __future__ import annotations

from collections.abc import Callable

from catnip import wire

Fits = Callable[[object], bool]


def message(seq: int, kind: str, fields: dict) -> str | None:
    """wire.message(seq, kind, fields): why the frame does not fit, or None."""
    known = _KINDS.get(kind)
    if known is not None:
        sent, fits = known
        if (seq > 0) == (sent == wire.STREAMED) and fits(fields) and (
                sent != wire.ANSWER or type(fields.get("re")) is int and
                0 <= fields["re"] <= wire.MAX_SEQ):
            return None
    return wire.message(seq, kind, fields)


def fields_problem(kind: str, fields: dict) -> str | None:
    """wire.fields_problem(kind, fields): why these fields do not make a
    `kind` frame, or None."""
    known = _KINDS.get(kind)
    return None if known is not None and known[1](fields) else wire.fields_problem(kind, fields)


def _fits(spec: object) -> Fits:
    """Whether a value meets `spec` (see catnip.wire_kinds), as wire._mismatch
    decides it."""
    if isinstance(spec, dict):
        return _object(spec)
    if isinstance(spec, tuple):
        items = tuple(_fits(s) for s in spec)
        return lambda v: type(v) is list and len(v) == len(items) and all(
            fits(x) for fits, x in zip(items, v))
    if isinstance(spec, list):
        item = _fits(spec[0])
        return lambda v: type(v) is list and all(map(item, v))
    assert isinstance(spec, str)
    return _scalar(spec)


def _object(spec: dict) -> Fits:
    fields = tuple((name, _fits(s), not (type(s) is str and s[-1:] == "?"))
                   for name, s in spec.items())

    def fits(v: object) -> bool:
        if type(v) is not dict:
            return False
        for name, meets, needed in fields:
            if needed and name not in v or not meets(v.get(name)):
                return False
        return True
    return fits


def _scalar(spec: str) -> Fits:
    optional, code = spec[-1:] == "?", spec[0]
    if code == "a":
        return lambda v: True
    kind = wire._TYPES[code]
    top = wire.MAX_TIME if code == "t" else wire.MAX_SEQ
    if code in "nt":
        return lambda v: v is None and optional or type(v) is int and 0 <= v <= top
    return lambda v: v is None and optional or type(v) is kind


_KINDS = {kind: (sent, _fits(spec)) for kind, (sent, spec) in wire.MESSAGES.items()}
