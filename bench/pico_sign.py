# Runs on the emulated Pico (bench/bench_sign.py sends it to the REPL; a
# main.py that does nothing is on the flash): the table app of a fresh flash
# makes its key in the loop's idle-turn steps (catnip.table.seal.Seal.step),
# then plays each game of probe/cfg.json to its end (its moves in
# probe/actions.jsonl, a blank line after each game's) and signs it, one
# step at a time, as the idle turns do. Each step is timed (µs of emulated
# RP2040 time: no button is read while one runs); the heap is taken before,
# then after every 8th step (the live heap after a collection, the
# collections not timed) and as allocated between collections. Prints
# "SIGN <what> {...}" per signature and "OK".
import gc
import json
import sys
import time

cfg = json.load(open("probe/cfg.json"))
moves = open("probe/actions.jsonl")

from catnip import forget  # noqa: E402
from catnip.boot import _read_board, hardware  # noqa: E402

hw = hardware(_read_board())
del _read_board, hardware
forget("catnip.boot")
from catnip.flash.journal import Journal  # noqa: E402
from catnip.link.line import Line  # noqa: E402
from catnip.table.app import App  # noqa: E402


class Unplugged:  # the serial line with no laptop listening
    def write(self, text):
        return len(text)


app = App(hw, Journal("journal"), line=Line(sys.stdin.buffer, Unplugged(), None),
          seeds=lambda: cfg["seed"])
seal = app.seal


def sign(what):
    gc.collect()
    base = gc.mem_alloc()
    steps, live, allocated, n = [], 0, 0, 0
    while seal.busy():
        before = gc.mem_alloc()
        t = time.ticks_us()
        seal.step()
        steps.append(time.ticks_diff(time.ticks_us(), t))
        allocated = max(allocated, gc.mem_alloc() - base, before - base)
        n += 1
        if n % 8 == 0:
            gc.collect()
            live = max(live, gc.mem_alloc() - base)
    print("SIGN", what, json.dumps({"steps": steps, "live": live, "allocated": allocated,
                                    "base": base, "free": gc.mem_free()}))


sign("key")
for g in cfg["games"]:
    if app.scene.kind != "setup":
        app._setup()  # "New game" on the standings
    app.start(g["game"], g["config"], g["seats"])
    while True:
        line = moves.readline()
        if line == "\n" or not line:
            break
        seat, action = json.loads(line)
        app.act(seat, tuple(action))
        while app.scene.kind == "play" and app.scene.banner:
            app.scene.next_banner(None)
    assert app.game.result() is not None, "the actions did not end the game"
    app._over()  # the standings up, as the last announcement's end brings them: the game's
    # end journaled and the signing's code loaded, the game waits to be signed
    assert seal.busy(), "the finished game is not waiting to be signed"
    sign(g["game"])
    from catnip.flash import seals

    assert seals.unsigned(app.journal) == [], "a finished game is still unsigned"
print("OK")
