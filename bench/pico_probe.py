# Runs on the emulated Pico (bench/bench_pico.py sends it to the REPL; the
# firmware is on flash without main.py, so nothing ran before): the whole
# table app plays one game from probe/cfg.json and probe/actions.jsonl.
# Every action goes through App.act (rules, journal on littlefs, the serial
# line, announcements); after every `draw_every`-th
# action, and after the last, every station and the table display is redrawn
# and sent over I2C as at the table. Each action's announcements are then
# dismissed, as the players' OK does: at the table no move is made while one
# is up, so they never pile up.
#
# With cfg "ballast" bytes held first (1 KB blocks), the game runs in what is
# left of the heap: the last line is "OK ..." or "MEMORY ..."; the live heap
# after a collection is sampled every 25 actions. With "timing",
# game.act(), game.legal() and the journal's write of each action are timed
# (µs of emulated RP2040 time; legal() every `legal_every`-th action, for
# every player to act), and so is the collection every 25 actions, which
# is what a collection costs with the game's heap: printed as "TIMES ..."
# lines.
import gc
import json
import sys
import time

cfg = json.load(open("probe/cfg.json"))
gc.collect()
free_at_start = gc.mem_free()
ballast = []
for _ in range(cfg["ballast"] // 1024):
    ballast.append(bytearray(1024))
gc.collect()
free_for_app = gc.mem_free()
stage = "import"
n = 0
times = {"act": [], "legal": [], "journal": [], "gc": []}
peak_live = 0
held = {}  # live heap after each stage of starting up


def note(what):
    gc.collect()
    held[what] = free_for_app - gc.mem_free()


def timed(fn, into):
    def call(*args):
        t = time.ticks_us()
        try:
            return fn(*args)
        finally:
            into.append(time.ticks_diff(time.ticks_us(), t))
    return call


try:
    # As at power-up (catnip/boot.py, main.py): the board file is read and
    # checked, then the checker and boot itself leave the heap.
    from catnip import forget
    from catnip.boot import _read_board

    board = _read_board()
    del _read_board
    forget("catnip.boot")
    from catnip.app import App
    from catnip.hardware import Hardware
    from catnip.journal import Journal
    from catnip.line import Line
    from catnip.weigh import Weigh

    class Unplugged:  # the serial line with no laptop listening
        def write(self, text):
            return len(text)

    note("imports")
    stage = "hardware"
    hw = Hardware(board, len(board.stations))
    stage = "app"
    note("hardware")
    line = Line(sys.stdin.buffer, Unplugged(), None)
    weigh = Weigh(hw, "probe/calibration.json")  # Stack O' Cats weighs its tray
    app = App(hw, Journal("journal"), line=line, weigh=weigh, seeds=lambda: cfg["seed"])
    stage = "start"
    app.start(cfg["game"], cfg["config"], cfg["seats"])
    note("game started")
    if cfg["timing"]:
        app.journal.action = timed(app.journal.action, times["journal"])
    stage = "play"

    with open("probe/actions.jsonl") as f:
        for line in f:
            seat, action = json.loads(line)
            game = app.game
            timing = cfg["timing"] and n % cfg["legal_every"] == 0
            if timing:
                for p in game.to_act():
                    t = time.ticks_us()
                    game.legal(p)
                    times["legal"].append(time.ticks_diff(time.ticks_us(), t))
            if cfg["timing"]:
                game.act = timed(game.act, times["act"])
            app.act(seat, tuple(action))
            if cfg["timing"]:
                del game.act
            n += 1
            if n % cfg["draw_every"] == 0:
                app.step(time.ticks_ms())
            while app.scene.kind == "play" and app.scene.banner:
                app.scene.next_banner(None)  # read, and OK pressed, as at the table
            if n % 25 == 0:
                t = time.ticks_us()
                gc.collect()
                if cfg["timing"]:
                    times["gc"].append(time.ticks_diff(time.ticks_us(), t))
                peak_live = max(peak_live, free_for_app - gc.mem_free())
    app.step(time.ticks_ms())
    stage = "over"
    assert app.game.result() is not None, "the actions did not end the game"
    assert app.scene.kind == "end", "the standings did not follow the last move"
    stage = None
except MemoryError:
    # (no SystemExit: at the REPL it soft-resets the board)
    print("MEMORY", stage, free_for_app, "after", n if stage == "play" else 0, "actions")
if stage is None:
    for kind in times:
        print("TIMES", kind, json.dumps(times[kind]))
    gc.collect()
    print("OK", json.dumps({"free_at_start": free_at_start, "free_for_app": free_for_app,
                            "actions": n, "peak_live": peak_live, "held": held,
                            "used_at_end": free_for_app - gc.mem_free()}))
