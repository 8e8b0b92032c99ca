"""End to end: `catnip calibrate` in its own process, its prompts on a
terminal (a pty, as a maker's), talks through a pty to the firmware on the
MicroPython unix port (tests/shared/calibplay.py), whose simulated load cells
weigh what the maker's hands put on the tray. The calibration is saved on
the table's flash; a refusal is shown in the table's words and the step is
asked again; a game in play and a stop are said plainly."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

import pytest

import mpunix
from linkrig import Relay

PER_CAT = 4300  # as calibplay.py puts cats on the tray
DEADLINE_S = 60


class Terminal:
    """A process on a pty: what it prints is read back; lines are typed in."""

    def __init__(self, args: list[str], env: dict) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = DEADLINE_S) -> re.Match:
        deadline = time.monotonic() + timeout
        at = 0
        while True:
            m = re.search(pattern, self.seen[at:], re.S)
            if m:
                self.seen = self.seen[at + m.end():]
                return m
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not self._ready(0):
                raise AssertionError(f"never printed {pattern!r}; printed:\n{self.seen}")
            if self._ready(min(left, 0.2)):
                try:
                    self.seen += os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    pass

    def _ready(self, timeout: float) -> bool:
        return bool(select.select([self.master], [], [], timeout)[0])

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def wait(self) -> int:
        code = self.proc.wait(timeout=DEADLINE_S)
        os.close(self.master)
        return code


class TableProcess:
    """calibplay.py on the simulated table; hands(...) moves the load."""

    def __init__(self, relay: Relay, folder: Path, board: str) -> None:
        dirs = [mpunix.ROOT / "devsim", mpunix.FIRMWARE, mpunix.ROOT, mpunix.SHARED_TESTS]
        env = dict(os.environ, MICROPYPATH=":".join([".frozen", *map(str, dirs)]))
        self.proc = subprocess.Popen(
            [mpunix.tool("micropython"), str(mpunix.SHARED_TESTS / "calibplay.py"),
             str(relay.a_slave), str(folder), board],
            env=env, pass_fds=[relay.a_slave], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)

    def hands(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer.strip() == "ok", answer + self.proc.stdout.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def table(tmp_path, request):
    relay = Relay(tmp_path)
    tables: list[TableProcess] = []

    def start(board: str = "direct") -> TableProcess:
        tables.append(TableProcess(relay, tmp_path, board))
        return tables[-1]

    start.relay = relay
    yield start
    for t in tables:
        t.close()
    relay.close()


def _maker(relay: Relay) -> Terminal:
    env = dict(os.environ, NO_COLOR="1", TERM="xterm", COLUMNS="140", LINES="50")
    return Terminal([sys.executable, "-m", "catnip_host", "calibrate", "--port",
                     str(relay.path)], env)


def _weigh(maker: Terminal, table: TableProcess, hands: str, what: str) -> None:
    """Once the laptop asks, move the load, then press Enter."""
    maker.expect(r"Enter: " + re.escape(what))
    table.hands(hands)
    maker.type("\n")


def test_a_maker_calibrates_a_one_cell_tray_from_the_laptop(table, tmp_path):
    t = table("direct")
    maker = _maker(table.relay)
    maker.expect(r"Table direct \(firmware .*Each weighing takes\s+2\s+s")
    maker.expect(r"Put the empty base on the tray")
    _weigh(maker, t, "load 0", "weigh the empty base")
    maker.expect(r"Empty base weighed")
    for k in (1, 2, 3):
        _weigh(maker, t, f"load {k}", f"weigh cat {k}")
        row = maker.expect(rf"│ {k}\s+│ (\d+)\s+│ (\d+)\s")
        assert abs(int(row[1]) - PER_CAT) < PER_CAT // 20, row[0]
    # A hand on the tray: the table refuses the weighing, in its words.
    _weigh(maker, t, "push", "weigh cat 4")
    maker.expect(r"Not taken: Much noisier than before: something touched the tray\. Weigh "
                 r"again\.")
    _weigh(maker, t, "load 4", "weigh cat 4")
    maker.expect(r"│ 4\s+│ \d+\s+│ \d+\s")
    maker.expect(r"s: save")
    maker.type("s\n")
    maker.expect(r"Saved on the table: \S*calibration\.json\r?\n")
    m = maker.expect(r"One cat is (\d+) counts")
    assert maker.wait() == 0
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved["per_cat"] == int(m[1]) and abs(saved["per_cat"] - PER_CAT) < PER_CAT // 50
    assert saved["cats"] == 4 and saved["zero"] and saved["rate_hz"] == 10


def test_four_cells_are_weighed_at_each_corner_and_their_gains_shown(table, tmp_path):
    t = table("mux")
    maker = _maker(table.relay)
    maker.expect(r"a tray of 4 load cells")
    _weigh(maker, t, "load 0", "weigh the empty base")
    _weigh(maker, t, "load 1", "weigh cat 1")
    maker.expect(r"c: weigh the corners")
    t.hands("corner 0")
    maker.type("c\n")
    maker.expect(r"Corner 1 \(left-front\) weighed")
    for i in (1, 2, 3):
        _weigh(maker, t, f"corner {i}", f"weigh corner {i + 1}")
    gains = maker.expect(r"Cell gains \(of their mean\): ([\d.]+)%, ([\d.]+)%, ([\d.]+)%, "
                         r"([\d.]+)%")
    assert float(gains[2]) > float(gains[1]) > float(gains[3]), gains[0]  # as GAINS in calibplay
    maker.expect(r"Enter: save")
    maker.type("\n")
    maker.expect(r"Saved on the table")
    assert maker.wait() == 0
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert len(saved["gain"]) == 4 and saved["gain"][1] > saved["gain"][0] > saved["gain"][2]


def test_a_game_in_play_and_a_stop_are_said_plainly(table, tmp_path):
    t = table("direct")
    t.hands("game")
    maker = _maker(table.relay)
    maker.expect(r"Error: A game is in play: calibrate the tray between games")
    assert maker.wait() == 1
    t.close()
    t = table("direct")
    maker = _maker(table.relay)
    _weigh(maker, t, "load 0", "weigh the empty base")
    maker.expect(r"q: stop")
    maker.type("q\n")
    maker.expect(r"Stopped: nothing saved; the table keeps the calibration it had")
    assert maker.wait() == 1
    assert not (tmp_path / "calibration.json").exists()
