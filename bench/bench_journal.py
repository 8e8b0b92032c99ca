"""The flash journal on littlefs: bytes, time and flash wear per game, and heap.

Each game is played by seeded players on the MicroPython unix port, then
recorded action by action into a journal on littlefs v2 mounted as the Pico
mounts it: a RAM flash of 352 blocks of 4096 bytes, programmed in 256-byte
pages (devsim.blockdev), which counts every erase and programmed byte. The
same seeds play the same games under CPython (checked here), so the figures
belong to games anyone can replay.

Time on the Pico is estimated from two parts, both named in the rows: compute
is the unix-port time outside the RAM flash model x 120 (docs: shared/design.md;
this over-counts littlefs, which is C); the flash itself adds the W25Q16JV's
typical 45 ms per 4 KB sector erase and 0.4 ms per 256-byte page program.
"""

from __future__ import annotations

import binascii
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / "tests" / "shared"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(SHARED))

import mpunix  # noqa: E402

from bench.mpheap import compile_firmware  # noqa: E402

from catnip.flash.journal import PAGE_BYTES  # noqa: E402

Row = tuple[str, str, object, str, str]
AREA = "journal"
PICO = 120  # unix-port compute x this = the Pico (docs: shared/design.md)
ERASE_MS, PAGE_MS = 45.0, 0.4  # W25Q16JV typical: 4 KB sector erase, page program
HEAP = 16 * 1024 * 1024

# key: (title, game, config, seed, noise). Noise mixes random legal actions
# into Purrfect's sensible players, which makes the long games tables see.
GAMES = {
    "purrfect": ("7-player Purrfect", "purrfect", {"players": 7}, "bench-journal-purrfect", 0),
    "long": ("long 7-player Purrfect", "purrfect", {"players": 7}, "bench-journal-purrfect-1", 2),
    "heist": ("6-player Meow Heist", "heist", {"players": 6}, "bench-journal-heist", 0),
    "stack": ("6-player Stack O' Cats", "stack", {"players": 6, "black_cat": True},
              "bench-journal-stack", 0),
}

# Seeded play, the same on both interpreters. MicroPython's sorted() is not
# stable, so purrfect_play's ties (equal keys) would fall differently there:
# it gets a stable sort, and the bench checks both interpreters agree.
PLAY = """
import purrfect_play
from catnip import rules
from playout import play_randomly


def stable_sorted(items, key=None):
    tagged = [((key(x) if key else x), i, x) for i, x in enumerate(items)]
    tagged.sort()
    return [t[2] for t in tagged]


purrfect_play.sorted = stable_sorted


def stack_choice(game, player, pick):
    # A held cat three times in four, else any legal report.
    options = game.legal(player)
    places = len([a for a in options if a[0] == "place"])
    if places and places < len(options) and pick.below(4):
        return options[pick.below(places)]
    return options[pick.below(len(options))]


def play(key):
    _, name, config, seed, noise = GAMES[key]
    game = rules.new(name, config, seed)
    if name == "purrfect":
        purrfect_play.play_sensibly(game, "bench", noise=noise)
    elif name == "stack":
        play_randomly(game, "bench", choose=stack_choice)
    else:
        play_randomly(game, "bench")
    header = game.journal()
    del header["log"]
    return header, list(game.log), game.result()
"""

# Records each game on a fresh Pico-sized littlefs. Stack also notes each
# tray proposal and the answer given, as the table does.
RECORD = PLAY + """
import binascii, gc, os, time
from catnip.flash import journal
from devsim import blockdev

spent = [0]  # microseconds inside the RAM flash model (C on the Pico)


def timed(method):
    def call(*args):
        t = time.ticks_us()
        result = method(*args)
        spent[0] += time.ticks_diff(time.ticks_us(), t)
        return result
    return call


for name in ("readblocks", "writeblocks", "ioctl"):
    setattr(blockdev._Device, name, timed(getattr(blockdev._Device, name)))


def note_for(name, action):
    if name == "stack" and action[0] in ("place", "collapse"):
        return {"tray": action[0], "proposed": action[1], "confidence": 0.92,
                "answer": action[1]}
    return None


flash = blockdev.Flash()
for key in KEYS:
    header, log, result = play(key)
    journal.PAGE_BYTES = PAGES
    blockdev.mount(flash, "/flash", fresh=True)
    j = journal.Journal("/flash/journal")
    gc.collect()
    erases, programmed, spent[0] = flash.erase_count(), flash.programmed, 0
    most_before = max(flash.erases)
    records = worst = 0
    start = time.ticks_us()
    j.begin(header)
    head = j.bytes_used()
    for player, action in log:
        t = time.ticks_us()
        j.action(player, action)
        worst = max(worst, time.ticks_diff(time.ticks_us(), t))
        records += 1
        note = note_for(GAMES[key][1], action)
        if note is not None:
            j.note(note)
            records += 1
    played = j.bytes_used()
    j.finish(result)
    us = time.ticks_diff(time.ticks_us(), start)
    stat = os.statvfs("/flash")
    print(key, "digest", binascii.crc32(repr(log).encode()))
    print(key, "actions", len(log))
    print(key, "records", records + 2)
    print(key, "header", head)
    print(key, "played", played)
    print(key, "bytes", j.bytes_used())
    print(key, "erases", flash.erase_count() - erases)
    print(key, "programmed", flash.programmed - programmed)
    print(key, "blocks", stat[2] - stat[3])
    print(key, "us", us)
    print(key, "flash_us", spent[0])
    print(key, "worst_us", worst)
print("OK")
"""

# Heap: the module, a journal recording the long game, what one action()
# allocates, and what resuming and reading the whole game back take.
HEAP_SCRIPT = PLAY + """
import gc, time
from devsim.blockdev import Flash, mount
mount(Flash(backing=open(BACKING, "w+b")), "/flash", fresh=True)  # reads allocate nothing
header, log, result = play("long")
gc.collect(); base = gc.mem_alloc()
from catnip.flash.journal import Journal
gc.collect(); print("module", gc.mem_alloc() - base)
j = Journal("/flash/journal")
gid = j.begin(header)
gc.collect(); print("begun", gc.mem_alloc() - base)
garbage = 0
for player, action in log:
    gc.collect(); before = gc.mem_alloc()
    j.action(player, action)
    garbage = max(garbage, gc.mem_alloc() - before)
print("garbage", garbage)
gc.collect(); print("recorded", gc.mem_alloc() - base)
j = None
gc.collect(); base = gc.mem_alloc()
t = time.ticks_us()
j = Journal("/flash/journal")
print("scan_us", time.ticks_diff(time.ticks_us(), t))
gc.collect(); print("reopened", gc.mem_alloc() - base)
t = time.ticks_us()
for entry in j.entries(gid):
    pass
print("read_us", time.ticks_diff(time.ticks_us(), t))
most = 0
for entry in j.entries(gid):
    gc.collect()
    most = max(most, gc.mem_alloc() - base)
print("reading", most)
print("actions", len(log))
print("OK")
"""


def rows() -> Iterator[Row]:
    paged = _micropython(RECORD, list(GAMES), PAGE_BYTES)
    cpython = _cpython_digests()
    for key, (title, name, *_) in GAMES.items():
        g = {k: v for (game, k), v in paged.items() if game == key}
        if g["digest"] != cpython[key]:
            raise RuntimeError(f"{title}: CPython and MicroPython played different games")
        actions, records = g["actions"], g["records"]
        compute_ms = (g["us"] - g["flash_us"]) / records * PICO / 1000
        flash_ms = (g["erases"] * ERASE_MS + g["programmed"] / 256 * PAGE_MS) / records
        notes = " and a tray note for each report" if name == "stack" else ""
        yield (AREA, f"{title}: bytes an action on flash",
               (g["played"] - g["header"]) / actions, "B",
               f"{actions} actions{notes}; {g['bytes']:,} B in all with the header "
               f"({g['header']} B) and the result ({g['bytes'] - g['played']} B)")
        yield (AREA, f"{title}: littlefs blocks in use after it", g["blocks"], "blocks",
               "4096 B each, littlefs metadata included; the Pico has 352")
        yield (AREA, f"{title}: flash wear, blocks erased", g["erases"], "erases",
               f"{g['erases'] / records:.2f} a record; {g['programmed']:,} B programmed")
        yield (AREA, f"{title}: write time a record, unix port", g["us"] / records, "us",
               f"mean of {records} records, worst {g['worst_us'] / 1000:.1f} ms; "
               f"{g['flash_us'] / g['us']:.0%} of it in the RAM flash model")
        yield (AREA, f"{title}: write time a record, Pico estimate", compute_ms + flash_ms, "ms",
               f"compute {compute_ms:.1f} ms (unix x {PICO} without the flash model; over-counts "
               f"littlefs, which is C) + flash "
               f"{flash_ms:.1f} ms (W25Q16JV typical: {ERASE_MS:.0f} ms an erase, "
               f"{PAGE_MS} ms a page)")
    one = _micropython(RECORD, ["long"], 1 << 20)
    title = GAMES["long"][0]
    yield (AREA, f"{title}: blocks erased, one file a game", one["long", "erases"], "erases",
           f"for comparison, the tail never moved to a log: "
           f"{one['long', 'erases'] / one['long', 'records']:.2f} a record, as littlefs copies a "
           "file's last block on every flush")
    with tempfile.TemporaryDirectory() as folder:
        # The firmware precompiled to .mpy, as the Pico loads it.
        mpy = compile_firmware(Path(folder) / "mpy")
        h = _micropython(mpy + HEAP_SCRIPT, backing=f"{folder}/flash")
    yield (AREA, "heap: the journal module", h["module"], "B",
           "loaded from .mpy; unix-port heap, as every B row here; the Pico needs 0.5-0.85x")
    yield (AREA, "heap: a journal recording a game", h["begun"] - h["module"], "B",
           "the Journal and its game in play (the header dict is the app's)")
    yield (AREA, "heap: the same after the whole game", h["recorded"] - h["module"], "B",
           f"{title}, {h['actions']} actions: grows only by the game's words")
    yield (AREA, "heap: allocated by one action()", h["garbage"], "B",
           "most of the game (when the tail moves to the log), littlefs's file buffers "
           "included; garbage for the next gc")
    yield (AREA, "heap: reading a whole game back", h["reading"] - h["reopened"], "B",
           "most held at once by entries() beyond the Journal: its reader, a chunk, one entry")
    yield (AREA, "start-up check of that game unfinished", h["scan_us"] / 1000, "ms",
           f"unix port; Pico ~{h['scan_us'] * PICO / 1e6:.1f} s (x {PICO}): every record's CRC, "
           "before resume is offered")
    yield (AREA, "reading that game's entries back", h["read_us"] / 1000, "ms",
           f"unix port; Pico ~{h['read_us'] * PICO / 1e6:.1f} s (x {PICO}), as a resume does")


def _micropython(script: str, keys: Sequence[str] = (), pages: int = 0, backing: str = "") -> dict:
    script = (f"GAMES = {GAMES!r}\nPAGES = {pages}\nKEYS = {list(keys)!r}\n"
              f"BACKING = {backing!r}\n" + script)
    proc = mpunix.run(["-c", script], path=[SHARED], heap=HEAP)
    if not proc.stdout.rstrip().endswith("OK"):
        raise RuntimeError(f"micropython failed:\n{proc.stdout}\n{proc.stderr}")
    values: dict = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            values[parts[0], parts[1]] = int(parts[2])
        elif len(parts) == 2:
            values[parts[0]] = int(parts[1])
    return values


def _cpython_digests() -> dict[str, int]:
    scope: dict = {"GAMES": GAMES}
    exec(PLAY, scope)
    return {key: binascii.crc32(repr(scope["play"](key)[1]).encode()) for key in GAMES}


# ---- on the real rp2 build (python -m bench.bench_journal rp2emu) ----------------------

from bench import pico_rig  # noqa: E402

RP2EMU = pico_rig.RP2EMU

# Runs on the emulated Pico: journals the long game's actions (read from a
# file) on the Pico's own littlefs. Times are the emulator's ideal cycles:
# compute only, without the flash chip's erase and program times.
RP2_SCRIPT = """
import gc, json, time
gc.collect(); base = gc.mem_alloc()
from catnip.flash.journal import Journal
gc.collect(); print("module", gc.mem_alloc() - base)
j = Journal("/journal")
gc.collect(); before = gc.mem_alloc()
src = open("/game.txt")
header = json.loads(src.readline())
gid = j.begin(header)
n = total = worst = garbage = slow = 0
while True:
    item = json.loads(src.readline())
    if isinstance(item, dict):
        break
    action = tuple(item[1:])
    gc.collect(); was = gc.mem_alloc()
    t = time.ticks_us()
    j.action(item[0], action)
    dt = time.ticks_diff(time.ticks_us(), t)
    garbage = max(garbage, gc.mem_alloc() - was)
    total += dt; worst = max(worst, dt); n += 1; slow += dt > 50000
src.close(); src = None
gc.collect(); print("journal", gc.mem_alloc() - before)
print("actions", n); print("mean_us", total // n); print("worst_us", worst)
print("slow", slow); print("garbage", garbage)
j = None
gc.collect()
t = time.ticks_us(); j = Journal("/journal")
print("scan_us", time.ticks_diff(time.ticks_us(), t))
t = time.ticks_us()
for entry in j.entries(gid):
    pass
print("read_us", time.ticks_diff(time.ticks_us(), t))
"""


def rp2emu_rows() -> Iterator[Row]:
    """The long game journalled by the real RPI_PICO build on the emulated RP2040
    (../shared/rp2emu; minutes of wall time, so not part of `make bench`)."""
    pico_rig.require()
    env = dict(os.environ, TMPDIR=os.environ.get("TMPDIR") or tempfile.gettempdir())
    scope: dict = {"GAMES": GAMES}
    exec(PLAY, scope)
    header, log, result = scope["play"]("long")
    with tempfile.TemporaryDirectory() as folder:
        pico, out = Path(folder) / "pico", Path(folder) / "out"
        subprocess.run([str(RP2EMU / "stage.sh"), str(ROOT / "firmware"), str(pico)],
                       check=True, env=env, capture_output=True)
        lines = [json.dumps(header)] + [json.dumps([p, *a]) for p, a in log]
        (pico / "game.txt").write_text("\n".join(lines + [json.dumps(result)]) + "\n")
        script = Path(folder) / "journal_pico.py"
        script.write_text(RP2_SCRIPT)
        proc = subprocess.run(["node", str(RP2EMU / "bench.mjs"), "--files", str(pico),
                               "--run", str(script), "--out", str(out), "--no-bridge",
                               "--timeout", "1800"], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"the emulated Pico failed:\n{proc.stdout}\n{proc.stderr}")
    v = {k: int(x) for k, x in (line.split() for line in proc.stdout.splitlines()
                                if len(line.split()) == 2 and line.split()[1].isdigit())}
    title = f"{GAMES['long'][0]}, {v['actions']} actions, on the RPI_PICO build"
    yield (AREA, f"{title}: write time an action", v["mean_us"] / 1000, "ms",
           f"emulated RP2040, compute only (add the flash's erase and program time); worst "
           f"{v['worst_us'] / 1000:.0f} ms, {v['slow']} over 50 ms")
    yield (AREA, f"{title}: heap, the journal module", v["module"], "B", "loaded from .mpy")
    yield (AREA, f"{title}: heap, the journal after the game", v["journal"], "B",
           f"at most {v['garbage']:,} B allocated by one action()")
    yield (AREA, f"{title}: start-up check, unfinished", v["scan_us"] / 1e6, "s",
           f"then {v['read_us'] / 1e6:.2f} s to read its entries back")


if __name__ == "__main__" and sys.argv[1:] == ["rp2emu"]:
    for row in rp2emu_rows():
        print(" | ".join(str(x) for x in row))
