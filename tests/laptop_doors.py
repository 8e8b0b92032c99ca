"""The laptop's doors, fuzzed: every input either gets through or is refused
by the door's own error, never a traceback.

    reader   bytes off the serial line          -> wire.Reader.feed items
    keeper   CRC-valid frames with bent fields  -> a Keeper and its Mirror
    store    a session store with damaged bytes -> the read commands' StoreError
    cli      command lines                      -> click's exit status and message
    deploy   --board/--calibration files        -> BundleError

Each door(n, seed) feeds n inputs and returns {"inputs", "crashes", "first"}:
`first` is the first unhandled exception, with its input. store, cli and deploy
are in tests/cli_doors.py, serve in tests/serve_door.py. tests/test_laptop_fuzz.py
runs a sample; bench/bench_laptop_fuzz.py runs 100,000 a door.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

from catnip import rules, wire

Outcome = dict


def _run(inputs: Iterator, feed: Callable[[object], None], n: int) -> Outcome:
    out: Outcome = {"inputs": 0, "crashes": 0, "first": None}
    for item in inputs:
        if out["inputs"] >= n:
            break
        out["inputs"] += 1
        try:
            feed(item)
        except Exception:  # noqa: BLE001 (what the door let escape)
            out["crashes"] += 1
            if out["first"] is None:
                out["first"] = (repr(item)[:300], traceback.format_exc()[-1500:])
    return out


def real_frames() -> list[tuple[str, dict]]:
    """What a table sends in whole games of each title, a snapshot of each."""
    from test_verify import _frames

    out = []
    for name, players in (("heist", 3), ("stack", 3), ("purrfect", 4)):
        game = rules.new(name, {"players": players}, "f")
        out.append(("snap", {"gid": 1, "game": name, "public": game.public()}))
        out += _frames(name, {"players": players})
    out += [("games", {"games": [[1, "finished"], [2, "playing"], [3, "lost"]]}),
            ("page", {"gid": 1, "next": 24, "done": False}), ("synced", {"last": 5}),
            ("gap", {"first": 1, "last": 3}), ("lost", {"gid": 1, "game": "heist",
                                                        "status": "finished", "why": "room"})]
    return out


ODD = [None, True, -1, 0, 2**63, 2**31, 1.5, "", "x", "٣", [], {}, [[1]], {"a": [None]},
       "\u2028", [0] * 40, "Al [/b]x", "Sam [guest]", float("nan"), float("inf"), 2**70]
# JSON that json.dumps does not write but a table (or a forger) could send: each
# replaces a value's text in a frame's fields before its CRC is made.
ODD_TEXT = [b"NaN", b"-Infinity", b"1e400", b'"\\ud800"', b'"\\udfff x"', b"1" * 30,
            b'"\\ud83d\\ude00"', b"-0.0", b"1E-400"]


def bent(rng: random.Random, frames: list[tuple[str, dict]]) -> Iterator[tuple[str, dict]]:
    """Frames with one to three fields replaced by a value of another type,
    dropped, or nested deep, and sometimes sent as another kind."""
    kinds = list(wire.MESSAGES)
    while True:
        kind, fields = rng.choice(frames)
        fields = json.loads(json.dumps(fields))
        for _ in range(rng.randint(1, 3)):
            path = []
            target: object = fields
            while isinstance(target, (dict, list)) and target and rng.random() < 0.6:
                key = rng.choice(list(target)) if isinstance(target, dict) else \
                    rng.randrange(len(target))
                path.append((target, key))
                target = target[key]
            if not path:
                continue
            parent, key = path[-1]
            if rng.random() < 0.2 and isinstance(parent, dict):
                del parent[key]
            elif rng.random() < 0.05:
                parent[key] = json.loads("[" * 60 + "]" * 60)
            else:
                parent[key] = json.loads(json.dumps(rng.choice(ODD)))
        if rng.random() < 0.15:  # a field its kind does not declare
            fields[rng.choice(["gid", "re", "x", "names", "n"])] = json.loads(json.dumps(
                rng.choice(ODD)))
        yield (rng.choice(kinds) if rng.random() < 0.15 else kind), fields


def odd_frame(rng: random.Random, kind: str, seq: int, fields: dict) -> bytes:
    """A CRC-valid frame whose fields are written oddly: a number or text
    only the standard library's json reads, or the body in UTF-16 or UTF-32."""
    body = json.dumps(fields, separators=(",", ":")).encode()
    if rng.random() < 0.3:
        text = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
        body = text.encode(rng.choice(["utf-16", "utf-32", "utf-16-le", "utf-8-sig"]))
    else:
        at = body.rfind(b":", 0, rng.randrange(1, len(body) + 1))
        if at > 0:
            end = min((i for i in (body.find(b",", at), body.find(b"}", at)) if i > 0),
                      default=len(body) - 1)
            body = body[:at + 1] + rng.choice(ODD_TEXT) + body[end:]
    text = b"1 %d %s " % (seq, kind.encode()) + body
    return b"\x1e#" + text + b" %08x\n" % (wire.crc32(text) & 0xFFFFFFFF)


# ---- the doors ------------------------------------------------------------------------


def reader(n: int, seed: int = 1) -> Outcome:
    rng = random.Random(seed)
    good = [wire.encode(k, i, f) for i, (k, f) in enumerate(real_frames())]

    def inputs():
        while True:
            data = bytearray(b"".join(rng.choice(good) for _ in range(rng.randint(1, 4))))
            for _ in range(rng.randint(0, 6)):
                at = rng.randrange(len(data))
                choice = rng.random()
                if choice < 0.4:
                    data[at] = rng.randrange(256)
                elif choice < 0.6:
                    del data[at:at + rng.randint(1, 30)]
                elif choice < 0.8:
                    data[at:at] = rng.choice([b"\x1e#", b"\n", b"\r\n", b"\x1e>1 1 hello {}",
                                              b"[" * 3000, b"\xff\xfe", b"\x1e#1"])
                else:
                    body = b"1 1 say {\"text\":" + b"[" * rng.randint(30, 5000) + b"}"
                    data[at:at] = b"\x1e#" + body + b" %08x\n" % (wire.crc32(body) & 0xFFFFFFFF)
            yield bytes(data), [rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 3))]

    def feed(item):
        data, cuts = item
        r = wire.Reader(max_line=rng.choice([512, 65536]))
        last = 0
        for c in sorted(cuts) + [len(data)]:
            for got in r.feed(data[last:c]):
                assert got[0] in ("frame", "bad", "noise"), got
            last = c

    return _run(inputs(), feed, n)


def keeper(n: int, seed: int = 1) -> Outcome:
    from rich.console import Console

    from catnip_host.link import Keeper, Link
    from catnip_host.monitor import Mirror
    from catnip_host.store import Store, frame_fields

    folder = Path(tempfile.mkdtemp(prefix="catnip-fuzz-"))
    rng = random.Random(seed)
    console = Console(file=open(os.devnull, "w"), width=100)
    try:
        port = Port()
        store = Store(folder / "s.sqlite3")
        mirror = Mirror()
        k = Keeper(Link("fake", opener=lambda p, timeout: port), store, on_frame=mirror.apply)
        k.link.open()
        k.connected()
        k.step()
        hello = {"proto": 1, "fw": "0.1.0", "board": "direct", "uid": "u", "boot": "b",
                 "last": 0, "stations": 4, "game": None, "gid": None, "re": k.waiting.cmd}
        port.data += wire.encode("hello", 0, hello)
        k.step()

        def feed(item):
            kind, fields = item
            how = wire.MESSAGES.get(kind, (wire.ANSWER,))[0]
            seq = k.last + 1 if how == wire.STREAMED and rng.random() < 0.9 else \
                rng.choice([0, 0, k.last + 1, k.last + 5])
            if how == wire.ANSWER and rng.random() < 0.9:
                fields["re"] = k.waiting.cmd if k.waiting else 1
            port.data += odd_frame(rng, kind, seq, fields) if rng.random() < 0.3 else \
                wire.encode(kind, seq, fields)
            k.step()
            if k.waiting is not None and rng.random() < 0.1:
                k.waiting.sent = -10.0  # let it ask again
            if rng.random() < 0.2:
                console.print(mirror.render())
            raw = store.db.execute("SELECT raw FROM frames ORDER BY id DESC LIMIT 1").fetchone()
            if raw is not None:  # what the Keeper stored, its store's reader reads back
                orjson.loads(frame_fields(raw[0].encode()))

        return _run(bent(rng, real_frames()), feed, n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Port:
    """A serial port the test writes the table's bytes into."""

    def __init__(self) -> None:
        self.data = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, n: int) -> bytes:
        out = bytes(self.data[:n])
        del self.data[:n]
        return out

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


def _elsewhere(module: str, name: str) -> Callable[..., Outcome]:
    """A door kept in a module of its own (which counts with _run above),
    loaded when it is first fed."""
    def door(n: int, seed: int = 1) -> Outcome:
        return getattr(importlib.import_module(module), name)(n, seed)

    return door


DOORS = {"reader": reader, "keeper": keeper, "store": _elsewhere("cli_doors", "store"),
         "cli": _elsewhere("cli_doors", "cli"), "deploy": _elsewhere("cli_doors", "deploy"),
         "serve": _elsewhere("serve_door", "serve")}
