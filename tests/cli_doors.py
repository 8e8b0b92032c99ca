"""The laptop's doors that take files and command lines (tests/laptop_doors.py
names them all): the session store with damaged bytes through every read
command, command lines through click, and deploy's --board/--calibration
files. Each door(n, seed) feeds n inputs and counts what escaped."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from pathlib import Path

from catnip import wire
from laptop_doors import ODD, Outcome, _run, real_frames


def _a_store(path: Path) -> int:
    from catnip_host.store import Store
    from tampering import numbered
    from test_verify import _frames

    store = Store(path)
    sid = store.session("t1", "b1", "direct", "0.1.0")
    seq = 0
    for name in ("heist", "stack"):
        for s, kind, f in numbered(_frames(name)):
            seq += bool(s)
            store.frame(sid, seq if s else 0, kind, f.get("gid"),
                        wire.encode(kind, seq if s else 0, f)[:-1])
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return sid


# The commands that read a store (SID: the session's number).
READS = [["sessions", "list"], ["sessions", "show", "SID"], ["sessions", "show", "SID", "--raw"],
         ["replay", "SID"], ["replay", "SID", "--verify"], ["export"], ["export", "--format",
         "csv"], ["export", "--format", "bgstats"], ["stats"], ["players", "list"],
         ["stats", "--player", "P1"], ["export", "--session", "SID", "--format", "jsonl"]]


def _exits_cleanly(result) -> None:
    """A command's run ended in an exit status of its own, not a traceback."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2, 3), result.exit_code


def store(n: int, seed: int = 1) -> Outcome:
    from click.testing import CliRunner

    from catnip_host import verify
    from catnip_host.cli import main
    from catnip_host.store import Store, StoreError

    runner = CliRunner()
    folder = Path(tempfile.mkdtemp(prefix="catnip-fuzz-", dir=_fast_folder()))
    rng = random.Random(seed)
    try:
        clean = folder / "clean.sqlite3"
        sid = _a_store(clean)
        data = clean.read_bytes()
        path = folder / "s.sqlite3"

        def inputs():
            while True:
                hurt = bytearray(data)
                for _ in range(rng.randint(1, 8)):
                    at = rng.randrange(len(hurt))
                    if rng.random() < 0.7:
                        hurt[at:at + rng.randint(1, 16)] = bytes(rng.randrange(256)
                                                                 for _ in range(rng.randint(1, 16)))
                    else:
                        del hurt[at:]
                        break
                yield bytes(hurt)

        def feed(hurt):
            path.write_bytes(hurt)
            try:
                s = Store(path, readonly=True)
                s.sessions()
                s.info(sid)
                list(s.frames(sid))
                verify.from_store(s, sid)
                s.close()
            except StoreError:
                pass
            argv = [*rng.choice(READS), "--store", str(path)]  # and one read command whole
            _exits_cleanly(runner.invoke(main, [a.replace("SID", str(sid)) for a in argv]))

        return _run(inputs(), feed, n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _fast_folder() -> str | None:
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def cli(n: int, seed: int = 1) -> Outcome:
    from click.testing import CliRunner

    from catnip_host.cli import main

    folder = Path(tempfile.mkdtemp(prefix="catnip-fuzz-", dir=_fast_folder()))
    rng = random.Random(seed)
    runner = CliRunner()
    try:
        store_path = folder / "s.sqlite3"
        sid = _a_store(store_path)
        frames = folder / "frames.catnip"
        frames.write_bytes(b"".join(wire.encode(k, 0, f) for k, f in real_frames()[:40]))
        junk = folder / "junk.json"
        junk.write_text('{"log": [[1]], "game": 3}')
        words = [str(sid), "0", "-1", str(2**63), str(2**70), "١", "1e3", " 1", "", "x" * 300,
                 str(frames), str(junk), str(folder), str(folder / "missing"), "--verify",
                 "--raw", "--store", str(store_path), "--help", "\udcff", "-", "--", "list",
                 "show", "sessions", "replay", "P1=Sam [guest]", "P2=Al [/b]x", "P9=x", "P1=",
                 "--session", "--gid", "--since", "2026-13-45", "--until", "2026-01-01",
                 "--game", "heist", "--player", "--format", "csv", "bgstats", "bgstats-link",
                 "scores", "wins", "tower", "-o", str(folder / "c.png"), "direct", "mux",
                 "--cable", "nan", "1e400", "--stations", "--clear", "--port", "loop://"]
        commands = [*READS, ["players", "name"], ["players", "merge"], ["players", "unmerge"],
                    ["chart"], ["check-board"], ["sessions"], ["players"], []]
        # Commands that open a port, a server or the virtual table, or write a
        # Pico: their arguments only (a bad option or --help), which click checks.
        held = [["monitor"], ["serve"], ["sim"], ["calibrate"], ["deploy"], ["flash"], ["names"]]

        def inputs():
            while True:
                if rng.random() < 0.05:
                    yield [*rng.choice(held), rng.choice(["--help", "--no-such", "-Z"])]
                    continue
                argv = [a.replace("SID", str(sid)) for a in rng.choice(commands)]
                argv += [rng.choice(words) for _ in range(rng.randint(0, 3))]
                if rng.random() < 0.8:
                    argv += ["--store", str(store_path)]
                rng.shuffle(argv) if rng.random() < 0.1 else None
                yield argv

        def feed(argv):
            _exits_cleanly(runner.invoke(main, argv))

        here = os.getcwd()
        os.chdir(folder)  # where a chart is written when no -o says where
        try:
            return _run(inputs(), feed, n)
        finally:
            os.chdir(here)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def deploy(n: int, seed: int = 1) -> Outcome:
    from catnip_host import bundle

    folder = Path(tempfile.mkdtemp(prefix="catnip-fuzz-", dir=_fast_folder()))
    rng = random.Random(seed)
    boards = Path(__file__).resolve().parent.parent / "firmware" / "boards"
    bases = [p.read_text() for p in sorted(boards.glob("*.json"))]
    bases.append(json.dumps({"cells": 1, "per_cat": [1000.0], "noise": [3.0],
                             "cat_sd": [10.0], "sign": [1], "rate_hz": 80}))
    try:
        path = folder / "f.json"

        def inputs():
            while True:
                text = rng.choice(bases)
                data = json.loads(text)
                for _ in range(rng.randint(0, 4)):
                    target, key = data, None
                    while isinstance(target, (dict, list)) and target and rng.random() < 0.7:
                        key = rng.choice(list(target)) if isinstance(target, dict) else \
                            rng.randrange(len(target))
                        parent, target = target, target[key]
                    if key is not None:
                        parent[key] = json.loads(json.dumps(rng.choice(ODD)))
                raw = json.dumps(data).encode()
                if rng.random() < 0.2:
                    at = rng.randrange(len(raw))
                    raw = raw[:at] + rng.choice([b"[" * 5000, b"\xff", b"", b"}"]) + raw[at:]
                yield raw

        def feed(raw):
            path.write_bytes(raw)
            for read in (bundle.board_config, bundle.calibration):
                try:
                    read(path)
                except bundle.BundleError:
                    pass

        return _run(inputs(), feed, n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
