"""The link: frames per second from the firmware's line on the MicroPython
unix port through a pty to the laptop's Keeper; mirror latency from the
table sending an event to the laptop's Mirror showing it (stored first, as
`catnip monitor` does); replay-verify speed over a store of 1,000 games; and
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

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shared"), str(ROOT / "firmware")]

import mpunix  # noqa: E402

Row = tuple[str, str, float | int | str, str, str]
PICO = 120  # unix-port time x this = the Pico (design notes)
FLOOD = 3000  # frames in the throughput run
EVENTS = 200  # events timed for the mirror latency,
GAP_S = 0.02  # this far apart: 50 a second, far more than a table makes
GAMES = 1000

_FLOOD = r"""
import sys, time
from catnip.line import Line
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
from catnip.line import Line
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
    from catnip_host.link import Link

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


def _store_of_games(path: Path, games: int) -> tuple[int, int]:
    """A store holding `games` games as the Keeper stores them: begin, each
    move's act frame, end, then the pulled header and entries."""
    from catnip import wire
    from catnip_host.store import Store
    from test_verify import _frames

    store = Store(path)
    sid = store.session("bench", "boot", "direct", "0.1.0")
    titles = (("heist", None), ("stack", {"players": 3}), ("purrfect", {"players": 4}))
    rows, moves, seq = [], 0, 0
    for k in range(games):
        name, config = titles[k % 3]
        for kind, f in _frames(name, config, seed="bench %d" % k):
            f["gid"] = k + 1
            if kind in ("begin", "act", "end"):
                seq += 1
            moves += kind == "act"
            raw = wire.encode(kind, seq if kind in ("begin", "act", "end") else 0, f)[:-1]
            rows.append((sid, 0.0, seq if kind in ("begin", "act", "end") else 0, kind, k + 1,
                         raw.decode()))
    store.db.execute("BEGIN")
    store.db.executemany("INSERT INTO frames (session, at, seq, kind, gid, raw) "
                         "VALUES (?, ?, ?, ?, ?, ?)", rows)
    store.db.executemany("INSERT INTO pulls VALUES (?, ?, ?, ?, 0, 0, 0)",
                         [("bench", k + 1, "c%d" % k, sid) for k in range(games)])
    store.db.execute("COMMIT")
    store.close()
    return sid, moves


def verify_speed() -> tuple[float, int, float]:
    from catnip_host import verify
    from catnip_host.store import Store

    folder = Path(tempfile.mkdtemp(prefix="catnip-bench-"))
    sid, moves = _store_of_games(folder / "s.sqlite3", GAMES)
    store = Store(folder / "s.sqlite3")
    t0 = time.perf_counter()
    checks = verify.from_store(store, sid)
    elapsed = time.perf_counter() - t0
    assert len(checks) == GAMES and all(c.status == verify.VERIFIED for c in checks)
    rules_only = _rules_alone(store, sid)
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
    return moves / elapsed, moves, elapsed, rules_only


def _rules_alone(store, sid: int) -> float:
    """Moves per second of the rules' act() alone over the same games: the
    floor under replay --verify."""
    from catnip_host import verify

    games = verify.gather((f.session, f.kind, verify._fields(f.raw)) for f in store.frames(sid))
    t = 0.0
    moves = 0
    for g in games.values():
        game = verify.rebuild(g.header)
        todo = [(e[1], tuple(e[2])) for e in g.entries if e[0] == "action"]
        t0 = time.perf_counter()
        for player, action in todo:
            game.act(player, action)
        t += time.perf_counter() - t0
        moves += len(todo)
    return moves / t


def device_costs() -> tuple[float, float, float]:
    proc = mpunix.run(["-c", _COSTS])
    if proc.returncode != 0:
        raise RuntimeError(f"line cost probe failed:\n{proc.stdout}\n{proc.stderr}")
    return tuple(float(x) for x in proc.stdout.split()[-3:])


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
    speed, moves, elapsed, rules_only = verify_speed()
    yield ("link", "replay --verify", round(speed), "moves/s",
           f"{GAMES} games, {moves} moves in {elapsed:.1f} s (target 100,000)")
    yield ("link", "the rules' act() alone", round(rules_only), "moves/s",
           "the same moves, no store, no comparison: the floor under verify")
    snap, poll, command = device_costs()
    yield ("link", "table: snapshot frame sent", round(snap * PICO / 1000, 1), "ms Pico",
           f"Purrfect, 7 players: {snap:.0f} us unix x {PICO}")
    yield ("link", "table: 64 bytes of junk read", round(poll * PICO / 1000, 1), "ms Pico",
           f"one poll's budget: {poll:.0f} us unix x {PICO}")
    yield ("link", "table: one command decoded", round(command * PICO / 1000, 1), "ms Pico",
           f"'games' with its answer: {command:.0f} us unix x {PICO}")
