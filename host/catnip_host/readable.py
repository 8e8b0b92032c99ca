"""What the laptop reads from the table or a file, it can read back from its
store: one policy for JSON coming in. The store reads its frames with orjson,
which takes UTF-8 only, finite numbers, 64-bit integers and no lone UTF-16
surrogate; the standard library's json (catnip.wire's, shared with the table)
takes more (NaN, Infinity, 1e400 as infinity, UTF-16 and UTF-32 bodies, lone
surrogates, integers of any size). A frame holding any of these would be
stored and then break every command reading the store, so it is refused at
the door. Nesting is bounded by catnip.wire.MAX_DEPTH, a frame's length by
the Reader's max_line.

Every JSON the laptop takes in goes through loads() here, frames through
reader() and decode().
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

import orjson

from catnip import wire

# An integer that may be past 64 bits (19 digits in a row), which orjson
# would read as a float: looked for with every digit made a 0 and the rest a
# space, in C (a fifth of a regular expression's time).
_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG = b"0" * 19
MAX_FILE = 64 << 20  # a record or bundle file read whole, in bytes


def loads(text: bytes | str) -> object:
    """JSON the store can read back, or ValueError saying why not."""
    data = text.encode(errors="surrogatepass") if isinstance(text, str) else bytes(text)
    if _deeper(data):
        raise ValueError(f"JSON nested more than {wire.MAX_DEPTH} deep")
    if _LONG in data.translate(_DIGITS):
        return _strict(data)
    try:  # the common case, read as the store reads it back (a fifth of _strict's time)
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        _strict(data)  # says why in its own words
        raise ValueError(str(e)) from None  # one only orjson refuses: the store could not read it


# A JSON string, escapes and all; and what a bracket does to the depth.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _deeper(data: bytes) -> bool:
    """Whether `data` nests deeper than wire.MAX_DEPTH, as wire.nesting()
    counts (a header's brackets outnumber its quick count), the walk done
    in C: strings cut out, then the brackets left summed up."""
    if data.count(b"[") + data.count(b"{") <= wire.MAX_DEPTH:
        return False
    bare = _STRING.sub(b"", data)
    if b'"' in bare:  # a string left open: walked byte by byte, as the table does
        return wire.nesting(data) > wire.MAX_DEPTH
    brackets = bare.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > wire.MAX_DEPTH


def _strict(data: bytes) -> object:
    """The policy spelled out with the standard library's json, which alone
    would take more: what orjson reads, with no integer past 64 bits."""
    try:
        body = data.decode()
    except UnicodeError:
        raise ValueError("it is not UTF-8") from None
    value = json.loads(body, parse_constant=_not_finite, parse_float=_finite,
                       parse_int=_int64)
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeError:
        raise ValueError("it holds a lone UTF-16 surrogate, which is no character") from None
    return value


def load_file(data: bytes) -> object:
    """A JSON file read whole (a record, a bundle's part), bounded in size."""
    if len(data) > MAX_FILE:
        raise ValueError(f"it is {len(data)} bytes; a record is at most {MAX_FILE}")
    return loads(data)


def decode(line: bytes, mark: bytes = wire.TABLE) -> tuple[int, str, dict]:
    """catnip.wire.decode() under this policy."""
    return wire.decode(line, mark, loads)


def reader(max_line: int = 65536) -> wire.Reader:
    """A catnip.wire.Reader under this policy."""
    return wire.Reader(max_line=max_line, parse=loads)


def _not_finite(word: str) -> object:
    raise ValueError(f"{word} is not a number JSON allows")


def _finite(digits: str) -> float:
    value = float(digits)
    if value - value != 0:  # inf
        raise ValueError(f"{digits[:20]} is past the largest number kept")
    return value


def _int64(digits: str) -> int:
    value = int(digits)
    if not -(1 << 63) <= value < 1 << 64:
        raise ValueError(f"{digits[:20]}... is past the 64-bit integers kept")
    return value
