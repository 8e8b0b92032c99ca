"""The link: frames per second from the firmware's line on the MicroPython
unix port through a pty to the laptop's Keeper; mirror latency from the
table sending an event to the laptop's Mirror showing it (stored first, as
`catnip monitor` does); replay-verify speed over a store of 1,000 games (200 outside the full bench); and
the table's own cost of the line, scaled to the Pico.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware")]

import mpunix  # noqa: E402

Row = tuple[str, str, float | int | str, str, str]
PICO = 120  # unix-port time x this = the Pico (design notes)
FLOOD = 3000  # frames in the throughput run
EVENTS = 200  # events timed for the mirror latency,
GAP_S = 0.02  # this far apart: 50 a second, far more than a table makes
GAMES = bench.sized("CATNIP_BENCH_GAMES", 200, 1000)  # in the replay --verify store
REPEATS = 3  # verify runs timed, the best kept
TITLE = {"heist": "Meow Heist", "stack": "Stack O' Cats", "purrfect": "Purrfect"}

_FLOOD = r"""
import sys, time
from catnip.link.line import Line
class Out:
    def __init__(self, f): self.f = f
    def write(self, b): self.f.write(b)
f = open(int(sys.argv[1]), "wb")
line = Line(None, Out(f), None)
ev = [{"type": "take", "player": 1, "card": 5, "loot": [0, 2, 1, 0]},
      {"type": "steal", "player": 2, "card": 5, "from": 1, "loot": [0, 2, 1, 0]}]
for n in range(%d):
    line.send("act", gid=1, n=n, events=ev)
f.close()
"""

_COSTS = r"""
import time
from catnip import rules, wire
from catnip.link.line import Line
class Out:
    def write(self, b): pass
line = Line(None, Out(), lambda w, f: None)
g = rules.new("purrfect", {"players": 7}, "b")
public = g.public()
t = time.ticks_us()
for _ in range(200):
    line.send("snap", gid=1, game="purrfect", public=public)
snap = time.ticks_diff(time.ticks_us(), t) / 200
junk = bytes(range(256)) * 2
t = time.ticks_us()
for _ in range(50):
    line.feed(junk[:64])
poll = time.ticks_diff(time.ticks_us(), t) / 50
cmd = wire.encode("games", 3, {}, wire.LAPTOP)
t = time.ticks_us()
for _ in range(200):
    line.feed(cmd)
command = time.ticks_diff(time.ticks_us(), t) / 200
print(snap, poll, command)
"""


def _pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave


def frames_per_second() -> tuple[float, int]:
    """The firmware's Line on the unix port writes FLOOD frames into a pty;
    the laptop's Link decodes them from the other end."""
    from catnip_host.ports import Link

    master, slave = _pty()
    port = os.ttyname(slave)
    link = Link(port, timeout=0.2)
    link.open()
    got = 0
    dirs = [ROOT / "devsim", ROOT / "firmware", ROOT]
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", *map(str, dirs)]))
    import subprocess

    t0 = time.perf_counter()
    proc = subprocess.Popen([mpunix.tool("micropython"), "-c", _FLOOD % FLOOD, str(master)],
                            env=env, pass_fds=[master])
    quiet = 0
    while got < FLOOD and quiet < 20:
        items = link.read()
        got += sum(1 for i in items if i[0] == "frame")
        quiet = 0 if items else quiet + 1
    elapsed = time.perf_counter() - t0
    proc.wait()
    link.close()
    os.close(master)
    os.close(slave)
    return got / elapsed, got


def mirror_latency() -> tuple[list[float], list[float]]:
    """ms from the table's line writing an act frame to the Mirror applying
    it, and to the Keeper having stored it (WAL, synchronous=FULL: on disk)."""
    from catnip_host.link import Keeper, Link, serve
    from catnip_host.monitor import Mirror
    from catnip_host.store import Store
    from test_link import Table

    master, slave = _pty()
    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-"))
    table = Table(folder)
    table.port.write = lambda data: os.write(master, data)
    sent: dict[int, float] = {}
    seen: dict[int, float] = {}
    mirror = Mirror()

    def shown(kind, fields):
        mirror.apply(kind, fields)
        if kind == "act":
            seen[fields["n"]] = time.perf_counter()

    stop = threading.Event()

    stored: dict[int, float] = {}

    class TimedStore(Store):
        def frame(self, session, seq, kind, gid, raw):
            row = super().frame(session, seq, kind, gid, raw)
            if kind == "act":
                stored[seq] = time.perf_counter()
            return row

    def laptop():
        store = TimedStore(folder / "s.sqlite3")
        keeper = Keeper(Link(os.ttyname(slave)), store, on_frame=shown)
        serve(keeper, stop.is_set, pause=0.01)
        keeper.link.close()
        store.close()

    host = threading.Thread(target=laptop, daemon=True)
    host.start()
    import select

    deadline = time.monotonic() + 10
    while mirror.frames == 0 and time.monotonic() < deadline:  # hello, snapshot answered
        if select.select([master], [], [], 0.01)[0]:
            table.line.feed(os.read(master, 4096))
    ev = [{"type": "take", "player": 1, "card": 5, "loot": [0, 2, 1, 0]}]
    for n in range(1, EVENTS + 1):
        while select.select([master], [], [], 0)[0]:
            table.line.feed(os.read(master, 4096))
        sent[n] = time.perf_counter()
        table.line.send("act", gid=1, n=n, events=ev)
        time.sleep(GAP_S)
    time.sleep(0.3)
    stop.set()
    host.join()
    os.close(master)
    os.close(slave)
    shutil.rmtree(folder, ignore_errors=True)
    return ([(seen[n] - sent[n]) * 1000 for n in sent if n in seen],
            [(stored[n] - sent[n]) * 1000 for n in sent if n in stored])


def verify_speeds() -> dict[str, tuple[float, int, float, int]]:
    """(moves/s, moves, seconds, games) of `catnip replay SESSION --verify` minus its
    terminal output (the store opened, read and every game checked and
    summed up): over one session of GAMES games ("all"), then over each
    title's games of it alone, in a session of their own. The best of
    REPEATS runs each."""
    from bench import replay_store

    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-"))
    try:
        games = replay_store.play(GAMES)
        sessions = {"all": replay_store.build(folder / "all.sqlite3", games)}
        for name in replay_store.titles():
            sessions[name] = replay_store.build(folder / f"{name}.sqlite3",
                                                [g for g in games if g.name == name])
        speeds = {}
        for name, (sid, moves) in sessions.items():
            elapsed = min(_verify_time(folder / f"{name}.sqlite3", sid) for _ in range(REPEATS))
            count = len(games) if name == "all" else sum(g.name == name for g in games)
            speeds[name] = (moves / elapsed, moves, elapsed, count)
        return speeds
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _verify_time(path: Path, sid: int) -> float:
    from catnip_host import verify
    from catnip_host.store import Store

    t0 = time.perf_counter()
    store = Store(path)
    checks = verify.from_store(store, sid)
    lines = [c.summary() for c in checks]
    store.close()
    elapsed = time.perf_counter() - t0
    assert len(lines) == len(checks) and all(c.status == verify.VERIFIED for c in checks)
    assert all(c.compared == c.moves > 0 for c in checks)
    return elapsed


def rules_alone(games: int = GAMES // 3) -> float:
    """Moves per second of the rules' act() alone over the bench's games: the
    floor under replay --verify."""
    from bench import replay_store

    moves, spent = 0, 0.0
    for k in range(games):
        todo = replay_store.moves(replay_store.new_game(k))
        game = replay_store.new_game(k)
        t0 = time.perf_counter()
        for seat, action in todo:
            game.act(seat, action)
        spent += time.perf_counter() - t0
        moves += len(todo)
    return moves / spent


def device_costs() -> tuple[float, float, float]:
    proc = mpunix.run(["-c", _COSTS])
    if proc.returncode != 0:
        raise RuntimeError(f"line cost probe failed:\n{proc.stdout}\n{proc.stderr}")
    snap, poll, command = (float(x) for x in proc.stdout.split()[-3:])
    return snap, poll, command


def _p95(values: list[float]) -> float:
    return values[max(0, int(len(values) * 0.95) - 1)]


def rows() -> Iterator[Row]:
    fps, got = frames_per_second()
    yield ("link", "frames through the pty", round(fps), "frames/s",
           f"{got} act frames of ~150 B, unix-port Line -> pty -> Link")
    shown, kept = (sorted(x) for x in mirror_latency())
    yield ("link", "mirror latency, median", round(statistics.median(shown), 2), "ms",
           f"{len(shown)} events {GAP_S * 1000:.0f} ms apart: the table's line -> pty -> Mirror")
    yield ("link", "mirror latency, p95", round(_p95(shown), 2), "ms", "target under 20 ms")
    yield ("link", "event on disk, median", round(statistics.median(kept), 2), "ms",
           "the same events stored: SQLite WAL, synchronous=FULL")
    yield ("link", "event on disk, p95", round(_p95(kept), 2), "ms", "an fsync per frame")
    speeds = verify_speeds()
    speed, moves, elapsed, games = speeds.pop("all")
    yield ("link", "replay --verify", round(speed), "moves/s",
           f"a session of {games} games, {moves} moves in {elapsed:.2f} s, best of {REPEATS} "
           "(target 100,000)")
    for name, (speed, moves, elapsed, games) in speeds.items():
        yield ("link", f"replay --verify, {TITLE[name]}", round(speed), "moves/s",
               f"its {games} games of that session alone: {moves} moves in {elapsed:.2f} s")
    yield ("link", "the rules' act() alone", round(rules_alone()), "moves/s",
           f"the first {GAMES // 3} of those games, no store, no comparison: the floor under "
           "verify")
    snap, poll, command = device_costs()
    yield ("link", "table: snapshot frame sent", round(snap * PICO / 1000, 1), "ms Pico",
           f"Purrfect, 7 players: {snap:.0f} us unix x {PICO}")
    yield ("link", "table: 64 bytes of junk read", round(poll * PICO / 1000, 1), "ms Pico",
           f"one poll's budget: {poll:.0f} us unix x {PICO}")
    yield ("link", "table: one command decoded", round(command * PICO / 1000, 1), "ms Pico",
           f"'games' with its answer: {command:.0f} us unix x {PICO}")
