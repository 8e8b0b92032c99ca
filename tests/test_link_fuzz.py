"""Fuzzing both ends of the wire with hypothesis: malformed, truncated,
oversized and interleaved input never crashes either end, and never costs a
valid frame that arrived whole.

`make test` runs a small sample; `python -m bench.fuzz_link` runs every
property on FUZZ_EXAMPLES (100,000 or more in all) and prints the count.
"""

from __future__ import annotations

import functools
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catnip import wire
from catnip.link.line import MAX_IN, Line
from catnip.wire import LAPTOP, Reader, encode

RUNS: dict[str, int] = {}  # inputs each property has been given, for the fuzz run's report


def counted(test):
    @functools.wraps(test)
    def run(*args, **kwargs):
        RUNS[test.__name__] = RUNS.get(test.__name__, 0) + 1
        return test(*args, **kwargs)

    return run


# CATNIP_FUZZ_EXAMPLES: inputs per property (bench/fuzz_link.py sets it).
SAMPLE = settings(max_examples=int(os.environ.get("CATNIP_FUZZ_EXAMPLES", "60")), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
kinds = st.sampled_from(["act", "snap", "say", "begin", "end", "hello", "err", "page"])
frames = st.builds(lambda k, s, f: (k, s, f), kinds, st.integers(0, wire.MAX_SEQ),
                   st.dictionaries(st.text(max_size=8), json_values, max_size=5))
# What else shares the port: banners, tracebacks, binary junk, stray markers.
noise = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=120).map(str.encode),
    st.sampled_from([b"MicroPython v1.29.0 on 2026-01-01; Raspberry Pi Pico\r\n>>> ",
                     b"Traceback (most recent call last):\r\n", b"\x1e#", b"\x1e>1 2",
                     b"\x1e#1 5 act {} 0000", b"\x04\x03\x01", b"\r\n" * 3]),
)


def _feed_in_chunks(reader: Reader, data: bytes, cuts: list[int]) -> list:
    out, last = [], 0
    for c in sorted(set(min(c, len(data)) for c in cuts)) + [len(data)]:
        out += reader.feed(data[last:c])
        last = c
    return out


@SAMPLE
@given(st.lists(st.tuples(noise, frames), max_size=8), st.lists(st.integers(0, 4000), max_size=12))
@counted
def test_the_laptop_keeps_every_whole_frame_among_any_noise(parts, cuts):
    stream = b"".join(n + encode(k, s, f) for n, (k, s, f) in parts)
    got = _feed_in_chunks(Reader(max_line=2048), stream, cuts)
    want = [(s, k, wire.decode(encode(k, s, f)[:-1])[2]) for _, (k, s, f) in parts
            if len(encode(k, s, f)) <= 2048]
    assert [(i[1], i[2], i[3]) for i in got if i[0] == "frame"] == want


@SAMPLE
@given(st.binary(max_size=6000), st.lists(st.integers(0, 6000), max_size=10))
@counted
def test_the_laptop_survives_any_bytes_in_bounded_memory(data, cuts):
    r = Reader(max_line=512)
    for item in _feed_in_chunks(r, data, cuts):
        assert item[0] in ("frame", "bad", "noise")
        assert len(r._buf) <= 512 + 6000
    assert len(r._buf) <= 512 + 1


@SAMPLE
@given(frames, st.integers(0, 200), st.integers(0, 255))
@counted
def test_a_damaged_frame_is_never_taken_for_another(frame, at, byte):
    raw = bytearray(encode(*frame))
    at %= len(raw) - 1
    if raw[at] == byte:
        return
    raw[at] = byte
    for item in Reader().feed(bytes(raw)):
        if item[0] == "frame":  # only a change the CRC cannot see: none in the body
            assert (item[1], item[2], item[3]) == (frame[1], frame[0],
                                                   wire.decode(encode(*frame)[:-1])[2])


def _table():
    out = bytearray()
    got = []

    class Out:
        def write(self, b):
            out.extend(b)

    return Line(None, Out(), lambda word, fields: got.append((word, fields))), out, got


commands = st.one_of(
    st.just(("hello", {})), st.just(("games", {})), st.just(("snapshot", {})),
    st.builds(lambda g, f: ("pull", {"gid": g, "from": f}), st.integers(0, 99), st.integers(0, 9)),
    st.builds(lambda g: ("ack", {"gid": g}), st.integers(0, 99)),
)


@SAMPLE
@given(st.lists(st.tuples(noise, commands), max_size=6), noise)
@counted
def test_the_table_carries_out_every_whole_command_among_any_noise(parts, tail):
    line, out, got = _table()
    for i, (n, (kind, fields)) in enumerate(parts):
        line.feed(n)
        line.feed(encode(kind, i + 1, fields, LAPTOP))
    line.feed(tail)
    assert got == [c for _, c in parts]
    for item in Reader().feed(bytes(out)):
        assert item[0] == "frame" and item[2] == "err", item  # it answers nothing else


@SAMPLE
@given(st.binary(max_size=4000))
@counted
def test_the_table_answers_any_bytes_with_errors_only(data):
    line, out, got = _table()
    line.feed(data)
    line.feed(b"\n")
    assert got == [] or all(w in wire.COMMANDS for w, _ in got)
    items = Reader().feed(bytes(out))
    assert all(i[0] == "frame" and i[2] == "err" for i in items)
    assert len(items) <= data.count(b"\n") + data.count(b"\x1e") + 2
    assert line._n <= MAX_IN


PROPERTIES = (
    test_the_laptop_keeps_every_whole_frame_among_any_noise,
    test_the_laptop_survives_any_bytes_in_bounded_memory,
    test_a_damaged_frame_is_never_taken_for_another,
    test_the_table_carries_out_every_whole_command_among_any_noise,
    test_the_table_answers_any_bytes_with_errors_only,
)

