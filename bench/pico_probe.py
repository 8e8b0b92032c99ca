# Runs on the emulated Pico (bench/bench_pico.py sends it to the REPL; a
# main.py that does nothing is on the flash, so nothing ran before): the whole
# table app plays the games of probe/cfg.json on one power-up, their moves
# in probe/actions.jsonl (a blank line ends each game's). Every action goes
# through App.act (rules, journal on littlefs, the serial line,
# announcements); after every game's
# `draw_every`-th action, and after the last, every station and the table display is redrawn
# and sent over I2C as at the table. Each action's announcements are then
# dismissed, as the players' OK does: at the table no move is made while one
# is up, so they never pile up. Each game ends in its standings and is then
# signed in the loop's idle turns, as at the table (the table's key is on the
# flash; without it, it is made first, in the setup menu's idle turns); a game
# left unsigned fails the run as a MemoryError does.
# The next is a new game from the setup menu, or a "rematch" as the
# standings offer.
#
# With cfg "ballast" bytes held first (1 KB blocks), the games run in what is
# left of the heap: the last line is "OK ..." or "MEMORY ..."; the live heap
# after a collection is sampled every `sample_every` actions and at each
# game's standings. A game's "phones" are seats played from phones: once it
# has started, a laptop claims them on the line (which then keeps its ring
# and sends every snapshot, as with a laptop), and after each action their
# screens changed are drawn and sent as views; "laptop": a laptop listens, no
# phone seats (the same line's heap, for comparison). With "timing", game.act(), the legal actions and the
# journal's write of each action are timed (µs of emulated RP2040 time;
# every `legal_every`-th action, for every player to act: each_legal()
# walked where the game has it, as a station would, else legal()), and so is
# the collection every `sample_every` actions, which is what a collection
# costs with the game's heap: printed as "TIMES ..." lines. At the end,
# micropython.mem_info() prints the largest free block ("max free sz", in
# 16-byte blocks).
import gc
import json
import micropython
import sys
import time

cfg = json.load(open("probe/cfg.json"))
# The moves to play are the probe's input, not the app's: their file (every
# game's, one after another) is opened before the heap is measured, so its
# littlefs buffer (1.1 KB) is not counted as the app's.
moves = open("probe/actions.jsonl")
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
every = cfg.get("sample_every", 25)
SIGN_TURNS = 5000  # a key and a signature take some 750 idle turns (docs/pico.md)


def note(what):
    gc.collect()
    held[what] = free_for_app - gc.mem_free()


def sample():
    global peak_live
    gc.collect()
    peak_live = max(peak_live, free_for_app - gc.mem_free())


def timed(fn, into):
    def call(*args):
        t = time.ticks_us()
        try:
            return fn(*args)
        finally:
            into.append(time.ticks_diff(time.ticks_us(), t))
    return call


def legal(game, p):
    walk = getattr(game, "each_legal", None)
    if walk is None:
        return len(game.legal(p))
    count = 0
    for _ in walk(p):
        count += 1
    return count


def play(app, draw_every, phones):
    global n
    while True:
        line = moves.readline()
        if line == "\n" or not line:
            break  # the game's last move
        seat, action = json.loads(line)
        game = app.game
        timing = cfg["timing"] and n % cfg["legal_every"] == 0
        if timing:
            for p in game.to_act():
                t = time.ticks_us()
                legal(game, p)
                times["legal"].append(time.ticks_diff(time.ticks_us(), t))
        if cfg["timing"]:
            game.act = timed(game.act, times["act"])
        app.act(seat, tuple(action))
        if phones:
            app.phones.tick(time.ticks_ms())  # the phone seats' views
        if cfg["timing"]:
            del game.act
        n += 1
        if n % draw_every == 0:
            app.loop.step(time.ticks_ms())
        while app.scene.kind == "play" and app.scene.banner:
            app.scene.next_banner(None)  # read, and OK pressed, as at the table
        if n % every == 0:
            t = time.ticks_us()
            gc.collect()
            if cfg["timing"]:
                times["gc"].append(time.ticks_diff(time.ticks_us(), t))
            sample()
    app.loop.step(time.ticks_ms())
    assert app.game.result() is not None, "the actions did not end the game"
    assert app.scene.kind == "end", "the standings did not follow the last move"
    sample()
    sign(app)


def sign(app):
    # The loop's idle turns until the table's signing work is done: its key
    # at a first power-up, before any game as at the table, and each game's
    # signature once its standings are up.
    global stage
    stage = "sign"
    for turn in range(SIGN_TURNS):
        if not app.seal.busy():
            break
        app.loop.step(time.ticks_ms())
        if turn % every == 0:
            sample()
    if app.seal.problem is not None or app.seal.busy():
        raise MemoryError("not signed: %s" % (app.seal.problem or "the steps gave up"))
    if app.game is not None:
        from catnip.flash import seals

        assert seals.kept(app.journal, app.gid), "the game went unsigned"


try:
    # As at power-up (catnip/boot.py, main.py): the board file is read and
    # checked, then the checker and boot itself leave the heap.
    from catnip import forget
    from catnip.boot import _read_board, hardware

    board = _read_board()
    stage = "hardware"
    hw = hardware(board)
    del _read_board, hardware
    forget("catnip.boot")
    from catnip.table.app import App
    from catnip.flash.journal import Journal
    from catnip.link.line import Line
    from catnip.table.weigh import Weigh

    class Unplugged:  # the serial line with no laptop listening
        def write(self, text):
            return len(text)

    note("hardware")
    stage = "app"
    line = Line(sys.stdin.buffer, Unplugged(), None)
    weigh = Weigh(hw, "probe/calibration.json")  # Stack O' Cats weighs its tray
    app = App(hw, Journal("journal"), line=line, weigh=weigh, seeds=lambda: cfg["seed"])
    sign(app)  # the table's key, if the flash has none: made in the setup menu's idle turns
    for i, g in enumerate(cfg["games"]):
        stage = "start"
        if g.get("rematch"):
            app.start(app.name, app.game.config, app.seats)  # "Rematch" on the standings
        else:
            if app.scene.kind != "setup":
                app._setup()  # "New game" on the standings
            app.start(g["game"], g["config"], g["seats"])
        from catnip import wire

        if g.get("laptop"):  # a laptop listens: it asks for the state, as it does on connecting
            line.feed(wire.encode("snapshot", 1, {}, wire.LAPTOP))
        for k, seat in enumerate(g.get("phones", ())):  # a laptop claims them
            line.feed(wire.encode("claim", k + 1, {"seat": seat}, wire.LAPTOP))
        if i == 0:
            note("game started")
            if cfg["timing"]:
                app.journal.action = timed(app.journal.action, times["journal"])
        stage = "play"
        play(app, g["draw_every"], g.get("phones"))
    stage = None
except MemoryError as e:
    # (no SystemExit: at the REPL it soft-resets the board)
    sys.print_exception(e, sys.stdout)  # where the heap ran out
    gc.collect()
    print("MEMORY", stage, free_for_app, "after", n if stage == "play" else 0, "actions;",
          gc.mem_free(), "B free after a collection")
if stage is None:
    for kind in times:
        print("TIMES", kind, json.dumps(times[kind]))
    gc.collect()
    print("OK", json.dumps({"free_at_start": free_at_start, "free_for_app": free_for_app,
                            "actions": n, "peak_live": peak_live, "held": held,
                            "used_at_end": free_for_app - gc.mem_free()}))
    micropython.mem_info()
