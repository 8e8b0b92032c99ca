"""The rig of bench_serve: a table on a pseudo-terminal, played at the pace
of people pressing its stations; one more event stream that says which move
each state shows; the times from a frame to each page's DOM; how busy the
machine was and what each of ours spent."""

from __future__ import annotations

import json
import os
import socket
import statistics
import threading
import time
import tty
import urllib.request
from pathlib import Path

MOVES_A_GAME = 200  # then the next game begins (random play can keep Purrfect going for ever)
GAMES_PLAYED = (("heist", {"players": 4}), ("stack", {"players": 3}),
                ("purrfect", {"players": 5}))
BROWSER_NICE = 10
# The pace of a table as people play it, at its quickest. A move is a
# person's presses at a station: for the player whose turn it is, at least
# the cursor to the choice and OK (two presses); where several choose at once
# (Meow Heist's cards played face down), the others chose meanwhile and their
# OKs come one press apart. A press every PRESS_S is a quick hand (bench_pico
# presses the real firmware at that pace, pico_rig.PRESS_EVERY_S; a person's
# tap is held some 80 ms). No thinking, no cats placed on the tower, no cards
# passed: an evening's real moves are seconds apart, so this is the busiest a
# table gets, all evening long.
PRESS_S = 0.25


class PtyTable:
    """A table (GameTable) on a pseudo-terminal the server opens by its path,
    as a Pico's /dev/ttyACM0 (and as `catnip sim --serve` has it); a move is
    timed from its frame's first byte reaching the laptop's end."""

    def __init__(self, folder: Path) -> None:
        from catnip.rules.rng import Rng
        from serverig import GameTable

        self.table = GameTable(folder)
        self.fd, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open: the line stays up while the server reopens it
        self.table.port.write = self._write
        self.rng = Rng("bench serve")
        self.sent: dict[tuple[int, int], float] = {}  # (gid, move) -> its frame's first byte
        self.first: float | None = None
        self.games = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _write(self, data: bytes) -> None:
        if self.first is None:
            self.first = time.time()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                time.sleep(0.001)

    def _serve(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return  # closed
            if not data:
                return
            self.table.port.laptop_write(data)

    def presses(self) -> int:
        """The presses before the next move (see PRESS_S): one where several
        players are choosing at once, two where one player's turn it is."""
        game = self.table.game
        if game is None or game.result() is not None or len(game.log) >= MOVES_A_GAME:
            return 2  # the next game chosen at a station
        return 1 if len(game.to_act()) > 1 else 2

    def move(self) -> None:
        from playout import any_legal

        game = self.table.game
        if game is None or game.result() is not None or len(game.log) >= MOVES_A_GAME:
            name, config = GAMES_PLAYED[self.games % len(GAMES_PLAYED)]
            self.table.begin(name, dict(config), f"bench {self.games}",
                             list(range(config["players"])))
            self.games += 1
            game = self.table.game
        p = game.to_act()[self.rng.below(len(game.to_act()))]
        action = any_legal(game, p, self.rng)
        self.first = None
        self.table.act(p, action)
        if self.first is not None:  # the line told the laptop of it
            self.sent[(self.table.gid, len(game.log))] = self.first


def niced(folder: Path, chromium: Path) -> Path:
    """Chromium, started below the server's priority. At a real table every
    phone draws on a processor of its own; here the 20 pages share the
    laptop's two cores, and at the same priority they would take them from
    the server they are timing. Niced, they get what the server leaves: they
    still do all their work, and all their waiting counts in the figure."""
    wrapper = folder / "chromium-niced"
    wrapper.write_text(f'#!/bin/sh\nexec nice -n {BROWSER_NICE} "{chromium}" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


class Recorder:
    """One more event stream, read in the bench: which game and move each
    state number shows."""

    def __init__(self, url: str) -> None:
        self.stream = urllib.request.urlopen(url + "/events", timeout=60)
        self.moves: dict[int, tuple[int, int]] = {}  # state number -> (gid, move)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        version = 0
        try:
            for line in self.stream:
                if line.startswith(b"id: "):
                    version = int(line[4:])
                elif line.startswith(b"data: "):
                    state = json.loads(line[6:])
                    self.moves[version] = (state["gid"], state["moves"])
        except (OSError, ValueError, AttributeError):
            pass  # closed

    def close(self) -> None:
        self.stream.close()


def latencies(sent: dict[tuple[int, int], float], moves: dict[int, tuple[int, int]],
               shown: list[list]) -> tuple[dict[str, list[float]], int]:
    """Milliseconds from each move's frame reaching the laptop to the page
    having drawn the first state that shows it ("dom"), split where the page
    is handed that state ("heard": the server, and the browser passing it to
    the page; "draw": the page's own work); and how many moves the page never
    drew (a newer state came first)."""
    first: dict[tuple[int, int], tuple[float, float]] = {}
    for version, heard, drawn in shown:
        key = moves.get(int(version))
        if key in sent and key not in first:
            first[key] = (heard, drawn)
    split: dict[str, list[float]] = {"dom": [], "heard": [], "draw": []}
    for key, (heard, drawn) in first.items():
        split["dom"].append(drawn - sent[key] * 1000)
        split["heard"].append(heard - sent[key] * 1000)
        split["draw"].append(drawn - heard)
    return split, len(sent) - len(first)


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


class Load:
    """How busy the machine was while a figure was measured: the load
    average, the share of both cores that other processes took, and the
    processor time the server and the browser spent (from /proc/stat and
    /proc/PID/stat): that last one varies little with the machine's load."""

    def __init__(self) -> None:
        self.start = self._now()

    @staticmethod  # when, the cores' busy ticks, each of ours' ticks
    def _now() -> tuple[float, float, dict[str, float]]:
        cpu = [float(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        spent = {"server": 0.0, "browser": 0.0, "bench": 0.0}
        for pid in ours():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            who = "server" if b"catnip_host\0serve" in cmd else \
                "browser" if b"chromium" in cmd else "bench"
            spent[who] += float(fields[11]) + float(fields[12])  # utime, stime
        return time.monotonic(), sum(cpu) - cpu[3] - cpu[4], spent  # less idle, iowait

    def done(self) -> tuple[str, dict[str, float]]:
        """What it says, and the processor seconds each of ours spent."""
        t0, busy0, ours0 = self.start
        t1, busy1, ours1 = self._now()
        ticks = os.sysconf("SC_CLK_TCK")
        spent = {k: (ours1[k] - ours0[k]) / ticks for k in ours1}
        wall = (t1 - t0) * (os.cpu_count() or 1)
        busy = (busy1 - busy0) / ticks / wall
        others = max(0.0, busy - sum(spent.values()) / wall)
        return (f"cores {busy:.0%} busy, {others:.0%} by other work; load average "
                f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"), spent


def ours() -> list[int]:  # this process and every one under it (the server, the browser's)
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def try_get(url: str) -> bytes:
    try:
        return get(url)
    except OSError:
        return b""


def drain(stream) -> None:
    try:
        while stream.read1(65536):
            pass
    except (OSError, ValueError, AttributeError):
        pass  # closed
