"""The table's signature on each game it finishes, on the real MicroPython rp2
build on the emulated RP2040 (../shared/rp2emu), running the catnip image:
the key made at the first power-up, then a game of each title at its
largest player count played to its end and signed as the loop's idle turns
do it, a step per turn (catnip.table.seal). For each: the signing work in
all (emulated ms, the sum of its steps), how many idle turns it takes, the
longest step (no button is read during one: what a press may wait), the
median step, the heap it holds live and the most it allocates between
collections. And on the laptop (CPython): what checking a signed game's
signature adds to `replay --verify`, per game. `python -m bench bench_sign`."""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import bench
from bench import pico_flash, pico_rig, pico_run
from bench.pico_rig import REAL
from bench.bench_pico import LARGEST, SEED, actions

Row = tuple[str, str, float | int | str, str, str]
PROBE = Path(__file__).resolve().parent / "pico_sign.py"


def rows() -> Iterator[Row]:
    yield from _laptop_rows()
    if not bench.full():  # a game of each title signed on the emulated RP2040: many minutes
        yield bench.full_only("sign", "signing each title's game on the emulated RP2040")
        return
    why = pico_rig.missing()
    if why is not None:
        yield ("sign", "real-RP2040 figures", "not measured", "", why)
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pico_flash.deploy(work / "app.img", work)  # board.json, as `catnip deploy` puts it
        yield from _rows(sign(pico_flash.repl_free(work / "app.img", work / "sign.img"), work))


def sign(flash: Path, work: Path) -> dict[str, dict]:
    """One run of bench/pico_sign.py: {what: its figures} for the key and each game."""
    games = [(g, c, actions(g, c)) for g, c, _, _ in LARGEST]
    files = work / "files"
    shutil.rmtree(files, ignore_errors=True)
    (files / "probe").mkdir(parents=True)
    (files / "probe" / "cfg.json").write_text(json.dumps(
        {"games": [{"game": g, "config": c, "seats": list(range(c["players"]))}
                   for g, c, _ in games], "seed": SEED}))
    (files / "probe" / "actions.jsonl").write_text("".join(
        "".join(json.dumps(m) + "\n" for m in moves) + "\n" for _, _, moves in games))
    run = pico_run.run(flash, work / "out", 0, script=PROBE, files=files)
    out: dict[str, dict] = {}
    for line in run.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "SIGN":
            what, _, figures = rest.partition(" ")
            out[what] = json.loads(figures)
    if "OK" not in run.stdout.split():
        raise pico_rig.BenchError(f"signing probe failed: {run.stdout[-800:]}"
                                  f"{(run.out / 'run_stderr.txt').read_text()[-800:]}")
    return out


def _rows(found: dict[str, dict]) -> Iterator[Row]:
    for what, f in found.items():
        steps = f["steps"]
        label = "the table's key (first power-up)" if what == "key" else \
            f"sign a finished {what} game (largest count)"
        yield ("sign", f"{label}: work", round(sum(steps) / 1000), "ms",
               f"{REAL}; {len(steps)} idle turns, a step each")
        yield ("sign", f"{label}: longest step", round(max(steps) / 1000, 1), "ms",
               f"{REAL}; no button read meanwhile; median {statistics.median(steps) / 1000:.1f} ms")
        yield ("sign", f"{label}: heap", f["live"], "B",
               f"{REAL}; live at most (after a collection); {f['allocated']:,} B allocated "
               "between collections")


def _laptop_rows(games: int = 200) -> Iterator[Row]:
    """replay --verify's signature check (the record's digest, then Ed25519 by
    `cryptography`) over signed games of every title, CPU time per game."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from catnip import record_digest
    from catnip_host import signatures
    from catnip_host.game_frames import Game

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_verify import _frames

    @dataclass
    class Parsed(Game):
        """A game whose journal is parsed already, as from the store: the
        check alone is timed."""

        parsed: list[list] = field(default_factory=list)

        def journal(self) -> list[list]:
            return self.parsed

    secret = Ed25519PrivateKey.generate()
    key = secret.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    checked = []
    for i in range(games):
        name = ("heist", "stack", "purrfect")[i % 3]
        frames = _frames(name, {"players": 4}, seed=f"bench {i}")
        header = next(f for k, f in frames if k == "game")["header"]
        entries = [f["e"] for k, f in frames if k == "entry"]
        sig = secret.sign(record_digest.digest("u", 1, "finished", header, entries)).hex()
        checked.append(Parsed(1, header["seed_commit"], name, header=header, status="finished",
                              page={"sig": sig, "ms": 1}, parsed=entries))
    t = time.process_time()
    verdicts = [signatures.check(g, "u", key)[0] for g in checked]
    spent = time.process_time() - t
    assert verdicts == [signatures.SIGNED] * games
    moves = sum(len(g.journal()) for g in checked) / games
    yield ("sign", "laptop: check a signed game's signature", round(spent / games * 1000, 2),
           "ms", f"CPU per game, {games} games of every title at 4 players, {moves:.0f} "
           "journal entries on average: the canonical digest, then Ed25519 (cryptography)")
