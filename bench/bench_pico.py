"""Figures from the real MicroPython rp2 build on the emulated RP2040
(../shared/rp2emu, ideal-cycle timing: a real board is no faster), running
the catnip image built from the current sources: the heap the whole app
needs to play each game at its largest player count and sign it (the
table's key already on its flash), found by holding
ballast, bisecting and then stepping down a KB at a time; act(), the legal
actions and the journal's write per action; an evening of four games on one power-up (the lowest free heap, the
largest free block at its end); press-to-pixels in emulated time with one
station redrawing and with every station redrawing, and from a press to its
move's frame on the USB serial (what `catnip monitor` mirrors); the tray's
HX711s at 10 and 80 SPS; deploying onto the image and onto stock MicroPython;
from a Ctrl-C mid-game to the REPL and the real mpremote's ls, cp and exec;
the frame push time of the SSD1306 and SH1106 drivers.

Every row says "real RP2040 (emulated)"; without the bench (or node) there
is one row saying what is missing. Takes tens of minutes, so only the full
bench runs it whole (`python -m bench --full bench_pico`); the default bench
runs the parts named in QUICK. CATNIP_BENCH_PICO=stack,evening (any of
deploy, heist, stack, purrfect, evening, press, tray, repl, display;
heist-phones, stack-phones, purrfect-phones: a game's heap with half its
seats on phones; heist-laptop, ...: with a laptop listening and no phone
seats, to compare; phones: a phone's press to its view and to the stations)
runs only those, in either."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bench
from bench import pico_flash, pico_phones, pico_press, pico_rig, pico_run
from bench.heap_search import HEAP_STEP, smallest_heap
from bench.pico_rig import REAL

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "shared"), str(ROOT / "devsim")]

Row = tuple[str, str, float | int | str, str, str]
PROBE = Path(__file__).resolve().parent / "pico_probe.py"
TRAY = Path(__file__).resolve().parent / "pico_tray.py"
DISPLAY = Path(__file__).resolve().parent / "pico_display.py"
TARGET_HEAP = 72 * 1024
EVENING_LOW = 130 * 1024  # targets: the lowest free heap of an evening
EVENING_BLOCK = 32 * 1024  # and the largest free block at its end
GC_BLOCK = 16  # bytes in a block of the rp2 port's heap (mem_info counts blocks)
SEED = "bench seed"

# (game, config, draw every n-th action, legal() every n-th action)
Played = tuple[str, dict[str, Any], int, int]
LARGEST: tuple[Played, ...] = (
    ("heist", {"players": 6, "variant": "standard", "gems": "digital", "start": 0}, 1, 1),
    ("stack", {"players": 6, "mode": "composure", "black_cat": False, "draw": "digital",
               "start": 0}, 1, 1),
    ("purrfect", {"players": 7, "mode": "stations"}, 50, 25),
)


# A four-cell tray's calibration, so that Stack O' Cats loads and runs the
# tray's estimator as at a table that weighs (the cells are the world's).
CALIBRATION = {"version": 2, "rate_hz": 10, "zero": [0, 0, 0, 0], "sign": [1, 1, 1, 1],
               "per_cat": 12885, "cat_sd": 300, "noise": 60, "cats": 5,
               "gain": [1024, 1024, 1024, 1024]}


# The part the default bench runs: the others play whole games or deploy the
# whole firmware on the emulated RP2040, minutes each.
QUICK = {"tray"}

# An evening on one power-up, each game to its standings.
EVENING: tuple[Played | str, ...] = (LARGEST[1], LARGEST[2], LARGEST[0], "rematch")


def rows() -> Iterator[Row]:
    why = pico_rig.missing()
    if why is not None:
        yield ("pico", "real-RP2040 figures", "not measured", "", why)
        return
    only = set(filter(None, os.environ.get("CATNIP_BENCH_PICO", "").split(",")))
    if not bench.full() and _not_built():
        yield ("pico", "real-RP2040 figures", "not measured", "",
               "no catnip image of these sources: make firmware, or the full bench builds it")
        return
    if not only and not bench.full():
        only = QUICK
        yield bench.full_only("pico", "deploying, the games' heap, the evening, press-to-pixels, "
                              "the REPL")

    def wanted(part: str) -> bool:
        return not only or part in only

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        app = work / "app.img"  # the app starts at power-up
        deployed = pico_flash.deploy(app, work)
        if wanted("deploy"):
            yield from _deploy_rows(deployed, work / "stock")
        flash = pico_flash.repl_free(app, work / "probes.img")  # the REPL is free
        for game, config, draw_every, legal_every in LARGEST:
            if wanted(game):
                yield from _game_rows(flash, work / game, game, config, draw_every, legal_every)
            if wanted(game + "-phones"):  # half the seats on phones, a laptop holding them
                yield from _game_rows(flash, work / f"{game}-phones", game, config, draw_every,
                                      legal_every, phones=config["players"] // 2)
            if wanted(game + "-laptop"):  # the same laptop listening, every seat at a station
                yield from _game_rows(flash, work / f"{game}-laptop", game, config, draw_every,
                                      legal_every, laptop=True)
        if wanted("evening"):
            yield from _evening_rows(flash, work / "evening")
        if wanted("press"):
            yield from pico_press.press_rows(app, work / "press")
        if wanted("phones"):
            yield from pico_phones.phone_rows(app, work / "phones")
        for rate in (10, 80) if wanted("tray") else ():
            yield from _tray_rows(flash, work / f"tray{rate}", rate)
        if wanted("repl"):
            yield from _repl_rows(app, work / "repl")
        if wanted("display"):
            yield from _display_rows(flash, work / "display")


def _display_rows(flash: Path, work: Path) -> Iterator[Row]:
    """Each driver's show() to its last byte on the wire (bench/pico_display.py)."""
    work.mkdir()
    image = work / "flash.img"
    shutil.copy(flash, image)
    run = pico_run.run(image, work / "out", 0, script=DISPLAY)
    pushed = [line for line in run.stdout.splitlines() if line.startswith("PUSH ")]
    if not pushed:
        raise pico_rig.BenchError(f"display probe failed: {run.stdout[-800:]}")
    note = (f"{REAL}, show() to its last byte at 400 kHz; the SH1106's traffic is timed on the "
            "bench's SSD1306 model (the bench has no SH1106; the same bytes take the same time)")
    for panel, updates in json.loads(pushed[0][5:]):
        for update, us in updates:
            yield ("display", f"frame push, {panel.upper()}: {update}", round(us / 1000, 2),
                   "ms", note)


def _not_built() -> bool:
    """Whether the image of these sources is still to be built (minutes)."""
    from catnip_host import image as images

    return images.cached() is None and not os.environ.get("MICROPY_DIR")


def _deploy_rows(onto_image, work: Path) -> Iterator[Row]:
    note = f"{REAL}, wall time over the bench's socket:// serial"
    yield ("deploy", "board.json onto the catnip image: time", round(onto_image.seconds, 1),
           "s", f"{note}, {onto_image.sent:,} B sent; no restart (the emulator lacks core 1)")
    stock = pico_flash.deploy(work / "stock.img", work, uf2=pico_rig.STOCK)
    yield ("deploy", "whole firmware as .mpy onto stock MicroPython: time",
           round(stock.seconds, 1), "s", f"{note}, {stock.sent:,} B sent")


# ---- heap and per-action times -------------------------------------------------


def actions(game: str, config: dict) -> list:
    """A whole game by the simulated table's players (tests/shared/tablepolicy)."""
    import tablepolicy
    from catnip import rules

    g = rules.new(game, dict(config), SEED)
    out = []
    while g.result() is None:
        seat, action = tablepolicy.choose(g, game)
        g.act(seat, action)
        out.append([seat, list(action)])
    return out


def table_key() -> dict[str, str]:
    """A table's key as its first power-up keeps it on flash (catnip.table.seal),
    the bench's own: the heap rows are a table's evenings, each game signed,
    not the key's making, once in a table's life (bench_sign measures that)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    secret = hashlib.sha256(b"catnip bench table").digest()
    public = Ed25519PrivateKey.from_private_bytes(secret).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)
    return {"secret": secret.hex(), "public": public.hex()}


def probe(flash: Path, work: Path, game: str | list[tuple], config: dict | None,
          moves: list | None, ballast: int, timing: bool, draw_every: int,
          legal_every: int, sample_every: int = 25, phones: int = 0,
          laptop: bool = False) -> dict:
    """One run of bench/pico_probe.py: {"ok": bool, ...its figures}. `game`
    is one game (with `config` and `moves`), or the games of one power-up
    as (game, config, moves, rematch, draw_every) tuples. `phones`: the last
    seats of each game are on phones, claimed by a laptop on the line."""
    games = game if isinstance(game, list) else [(game, config, moves, False, draw_every)]
    files = work / "files"
    shutil.rmtree(files, ignore_errors=True)
    (files / "probe").mkdir(parents=True)
    (files / "probe" / "cfg.json").write_text(json.dumps(
        {"games": [{"game": g, "config": c, "seats": _seats(c["players"], phones), "rematch": r,
                    "draw_every": d, "phones": list(range(c["players"] - phones, c["players"])),
                    "laptop": laptop}
                   for g, c, _, r, d in games],
         "seed": SEED, "ballast": ballast, "timing": timing, "draw_every": draw_every,
         "legal_every": legal_every, "sample_every": sample_every}))
    # Every game's moves, a JSON line each, an empty line after each game.
    (files / "probe" / "actions.jsonl").write_text("".join(
        "".join(json.dumps(m) + "\n" for m in moves_i) + "\n" for _, _, moves_i, _, _ in games))
    (files / "probe" / "calibration.json").write_text(json.dumps(CALIBRATION))
    (files / "table_key.json").write_text(json.dumps(table_key()))
    image = work / "flash.img"
    shutil.copy(flash, image)
    run = pico_run.run(image, work / "out", 0, script=PROBE, files=files)
    out: dict = {"ok": False, "times": {}}
    for line in run.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "OK":
            out.update(json.loads(rest), ok=True)
        elif word == "TIMES":
            kind, _, values = rest.partition(" ")
            out["times"][kind] = json.loads(values)
        elif word == "MEMORY":
            out["memory"] = rest
        elif "max free sz:" in line:
            out["largest_free"] = int(line.rsplit("max free sz:", 1)[1].split()[0]) * GC_BLOCK
    if not out["ok"] and "memory" not in out:
        raise pico_rig.BenchError(f"{games[0][0]} probe failed: {run.stdout[-800:]}"
                                  f"{(run.out / 'run_stderr.txt').read_text()[-800:]}")
    return out


def _seats(players: int, phones: int) -> list[int]:
    """The stations of the bench's world first, then phone places after them."""
    at = players - phones
    return list(range(at)) + list(range(pico_rig.STATIONS, pico_rig.STATIONS + phones))


def _game_rows(flash: Path, work: Path, game: str, config: dict, draw_every: int,
               legal_every: int, phones: int = 0, laptop: bool = False) -> Iterator[Row]:
    work.mkdir()
    moves = actions(game, config)
    label = f"{game} {config['players']}p" + (f", {phones} on phones" if phones else "") + (
        ", a laptop listening" if laptop else "")
    first = probe(flash, work, game, config, moves, 0, False, draw_every, legal_every,
                  phones=phones, laptop=laptop)
    if not first["ok"]:
        yield (label, "smallest heap to play the whole game", "does not fit", "",
               f"{REAL}: MemoryError with the whole heap free ({first['memory']})")
        return
    # Timed apart: the legal actions of every player, which the app never
    # asks for (its screens work from the view). Purrfect's are walked with
    # each_legal() as a station would: as one list they can outgrow the heap.
    timed = probe(flash, work, game, config, moves, 0, True, draw_every, legal_every,
                  phones=phones, laptop=laptop)
    if not timed["ok"]:
        yield (label, "timing run (the legal actions of every player)", "MemoryError", "",
               f"{REAL}: {timed['memory']}; the app never asks for them")
    walk = "each_legal(p) walked" if game == "purrfect" else "game.legal(p)"
    for kind, fn in (("act", "game.act()"), ("legal", walk),
                     ("journal", "journal write of an action"),
                     ("gc", "gc.collect() mid-game (the loop stands still)")):
        values = [v / 1000 for v in timed["times"].get(kind, [])]
        if values:
            yield (label, f"{fn} median", round(statistics.median(values), 2), "ms",
                   f"{REAL}, {len(values)} calls")
            yield (label, f"{fn} max", round(max(values), 2), "ms", REAL)

    free = first["free_for_app"]

    def run(mid: int) -> dict:
        result = probe(flash, work, game, config, moves, free - mid, False, draw_every,
                       legal_every, phones=phones, laptop=laptop)
        print(f"{label}: {(free - mid) // 1024} KB of ballast, {mid / 1024:.1f} KB for the app: "
              + ("plays" if result["ok"] else f"MemoryError ({result.get('memory')})"),
              file=sys.stderr, flush=True)
        return result

    # CATNIP_BENCH_PICO_FROM=72 tries that many KB first (a slow run saved or two
    # when the answer is near it); the bisection goes on from what it showed.
    first_try = int(os.environ.get("CATNIP_BENCH_PICO_FROM", "0")) * 1024
    ok, tries = smallest_heap(run, free, max(HEAP_STEP, first["peak_live"]), first_try)
    drawn = "every station drawn after each action" if draw_every == 1 else \
        f"every station drawn after every {draw_every}th action"
    yield (label, "smallest heap to play the whole game", round(ok / 1024, 1), "KB",
           f"{REAL}: the game signed after its standings (the table's key on flash); "
           f"ballast bisected to {HEAP_STEP // 1024} KB, then every KB below "
           f"down to a failure ({tries + 1} runs), "
           f"{len(moves)} actions, {drawn}; target <= {TARGET_HEAP // 1024} KB, "
           f"{first['free_at_start']} B free at start")
    yield (label, "live heap after gc, largest sample", round(first["peak_live"] / 1024, 1),
           "KB", f"{REAL}, sampled every 25 actions")
    for stage, used in sorted(first["held"].items(), key=lambda kv: kv[1]):
        yield (label, f"live heap once {stage}", round(used / 1024, 1), "KB",
               f"{REAL}: the code is frozen in the image; its objects are in the heap")


def _evening_rows(flash: Path, work: Path) -> Iterator[Row]:
    """Stack O' Cats 6p with the tray, Purrfect 7p with hidden hands, Meow
    Heist 6p and a rematch of it on one power-up, each to its standings."""
    work.mkdir()
    games: list[tuple] = []
    last: tuple | None = None
    for part in EVENING:
        if isinstance(part, str):  # "rematch": the last game again, from its standings
            assert last is not None, "a rematch follows a game"
            games.append(last[:3] + (True,) + last[4:])
            continue
        game, config, draw_every, _ = part
        last = (game, config, actions(game, config), False, draw_every)
        games.append(last)
    out = probe(flash, work, games, None, None, 0, False, 1, 1, sample_every=5)
    names = " + ".join(f"{g} {c['players']}p" + (" (rematch)" if r else "")
                       for g, c, _, r, _ in games)
    if not out["ok"]:
        yield ("evening", "four games on one power-up", "MemoryError", "",
               f"{REAL}: {out['memory']}; {names}")
        return
    low = out["free_for_app"] - out["peak_live"]
    yield ("evening", "lowest free heap", round(low / 1024, 1), "KB",
           f"{REAL}: {names}, {out['actions']:,} actions, no reboot; after a collection every "
           f"5 actions and at each standings; target >= {EVENING_LOW // 1024} KB")
    yield ("evening", "largest free block at the end", round(out["largest_free"] / 1024, 1),
           "KB", f"{REAL}: micropython.mem_info() after the last standings; "
           f"target >= {EVENING_BLOCK // 1024} KB")


# ---- the tray's HX711s --------------------------------------------------------


def _tray_rows(flash: Path, work: Path, rate: int) -> Iterator[Row]:
    work.mkdir()
    world = json.loads(pico_rig.WORLD.read_text())
    for cell in world["hx711"]:
        cell["rate"] = rate
    board = pico_flash.board7()
    files = work / "files"
    files.mkdir()
    board["tray"]["rate"] = rate
    (files / "board.json").write_text(json.dumps(board))
    image = work / "flash.img"
    shutil.copy(flash, image)
    run = pico_run.run(image, work / "out", 0, script=TRAY, files=files, world=world)
    readings = [json.loads(line[8:]) for line in run.stdout.splitlines()
                if line.startswith("READING ")]
    seconds = [line for line in run.stdout.splitlines() if line.startswith("SECONDS ")]
    if not seconds:
        raise pico_rig.BenchError(f"tray probe failed: {run.stdout[-800:]}")
    span = json.loads(seconds[0][8:])
    cells = [run.hx711(c["id"]) for c in world["hx711"]]
    conversions = min(sum(1 for v in c["conversion_list"] if span[0] <= v["t"] < span[1])
                      for c in cells)
    highs = [r["max_high_us"] for c in cells for r in c["read_list"]]
    inside = sum(1 for c in cells for v in c["violation_list"] if v.get("kind") == "power_down")
    label = f"tray {rate} SPS, 4 cells"
    yield (label, "readings delivered", round(100 * len(readings) / max(1, conversions), 1), "%",
           f"{REAL}: {len(readings)} of {conversions} conversions in {span[1] - span[0]:.1f} s; "
           "target >= 99 % at 80 SPS; through Hardware.weigh(), as the app reads them")
    if highs:
        yield (label, "PD_SCK high within a word, longest", round(max(highs), 2), "µs",
               f"{REAL}, {len(highs)} words; power-down above 60")
    yield (label, "power-downs inside a word", inside, "", f"{REAL}; target 0")
    yield (label, "HX711 violations", sum(c["violations"] for c in cells), "", REAL)


def _repl_rows(app: Path, work: Path) -> Iterator[Row]:
    """mpremote's Ctrl-C a second after a move (bench/pico_repl.py)."""
    from bench import pico_repl

    work.mkdir(parents=True, exist_ok=True)
    flash = work / "flash.img"
    shutil.copy(app, flash)
    game, options, seats = pico_repl.GAME
    pico_run.start(flash, work, game, options, seats)
    run, found = pico_repl.reach(flash, work, "mid-game",
                                 [(1.0 + t, data) for t, data in pico_repl.MPREMOTE])
    f = pico_repl.figures(run, found)
    note = f"{REAL}; Meow Heist, 2 players, {pico_repl.MOVES} moves in"
    yield ("repl", "Ctrl-C mid-game to the app stopped", round(f["stopped_s"] * 1000), "ms",
           f"{note}; every panel says so")
    yield ("repl", "Ctrl-C to `mpremote ls` listed", f["ls_done_s"], "s",
           f"{note}; the Pico's clock, at most wall speed while it waits at its REPL")
    for command in ("ls", "cp", "exec"):
        yield ("repl", f"mpremote {command}: wall time", f[f"{command}_wall_s"], "s",
               "this host, over the bench's socket:// serial (resume: no soft reset)")
