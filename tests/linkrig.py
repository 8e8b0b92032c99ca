"""A table on the MicroPython unix port and the laptop's tool, joined by
pseudo-terminals through a relay that can cut the cable.

The firmware (tests/shared/linkplay.py) writes to pty A; the laptop opens pty
B by a stable path (a symlink, as udev's /dev/serial/by-id gives a Pico), and
a relay thread copies bytes between the two masters. cut() drops every byte
both ways for a while, as a loose cable does; unplug() also closes B and
makes a new one behind the same path, as a replugged Pico does.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import threading
import time
import tty
from pathlib import Path

import mpunix


class Relay:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "table-port"
        self.a_master, self.a_slave = os.openpty()
        tty.setraw(self.a_slave)
        os.set_blocking(self.a_slave, False)
        self.cutting = False
        self.lock = threading.Lock()
        self._plug()
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _plug(self) -> None:
        self.b_master, self.b_slave = os.openpty()
        tty.setraw(self.b_slave)
        os.set_blocking(self.b_master, False)
        tmp = self.path.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.b_slave))
        tmp.replace(self.path)

    def cut(self, seconds: float) -> None:
        self.cutting = True
        time.sleep(seconds)
        self.cutting = False

    def unplug(self, seconds: float) -> None:
        with self.lock:
            self.cutting = True
            os.close(self.b_master)
            os.close(self.b_slave)
            self.b_master = self.b_slave = None
            self.path.unlink()
        time.sleep(seconds)
        with self.lock:
            self._plug()
            self.cutting = False

    def _run(self) -> None:
        while not self.stopping:
            with self.lock:
                fds = [fd for fd in (self.a_master, self.b_master) if fd is not None]
                ready = select.select(fds, [], [], 0.005)[0]
                for fd in ready:
                    try:
                        data = os.read(fd, 65536)
                    except OSError:
                        continue
                    other = self.b_master if fd == self.a_master else self.a_master
                    if data and not self.cutting and other is not None:
                        try:
                            os.write(other, data)
                        except (BlockingIOError, OSError):
                            pass  # the far side is not reading: lost, as on USB

    def close(self) -> None:
        self.stopping = True
        self.thread.join()
        for fd in (self.a_master, self.a_slave, self.b_master, self.b_slave):
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass


def start_table(relay: Relay, folder: Path, game: str, options: dict, seats: list[int],
                pace_ms: int = 3) -> subprocess.Popen:
    """The firmware playing one game on the simulated table, its line on pty A."""
    dirs = [mpunix.ROOT / "devsim", mpunix.FIRMWARE, mpunix.ROOT, mpunix.SHARED_TESTS]
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", *map(str, dirs)]))
    args = [mpunix.tool("micropython"), str(mpunix.SHARED_TESTS / "linkplay.py"),
            str(relay.a_slave), game, json.dumps(options), json.dumps(seats), str(folder),
            str(pace_ms)]
    return subprocess.Popen(args, env=env, pass_fds=[relay.a_slave], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def sent_stream(folder: Path) -> dict[int, bytes]:
    """Every stream frame the table meant to send, by seq (the same bytes each
    time it was sent again)."""
    from catnip import wire

    out: dict[int, bytes] = {}
    for item in wire.Reader().feed((folder / "sent.bin").read_bytes()):
        assert item[0] == "frame", item
        if item[1]:
            assert out.setdefault(item[1], item[4]) == item[4], item
    return out


class PhoneSeat:
    """A player on a phone, as the page's player plays: it claims `seat`
    through `keeper` once a game names it among its phones, then presses
    from what its `view` rows show: nothing while they say it waits (its
    card locked, another's turn), else OK on what the cursor is on, now and
    then DOWN or UP to another item; again when its screen changed, or after
    PATIENCE_S when a press changed nothing. A game's end stops it. Give
    on_frame to the Keeper (its link's thread); call step() from another."""

    WAITS = ("Locked in", "Waiting for")
    PATIENCE_S = 0.3

    def __init__(self, keeper, seat: int, seed: str) -> None:
        self.keeper = keeper
        self.seat = seat
        self.rng = random.Random(seed)
        self.rows: list[str] | None = None
        self.claimed = self.over = False
        self.fresh = False  # a view came since the last press
        self.views = self.presses = 0
        self.pressed_at = 0.0
        self.others: list[int] = []  # the seats of every other view that came: none, ever

    def on_frame(self, kind: str, fields: dict) -> None:
        if kind == "begin" and self.seat in (fields.get("phones") or []):
            self.keeper.ask("claim", seat=self.seat)
        elif kind in ("claimed", "released") and fields["seat"] == self.seat:
            self.claimed = kind == "claimed"
        elif kind == "view" and fields["seat"] == self.seat:
            self.rows, self.fresh = fields["rows"], True
            self.views += 1
        elif kind == "view":
            self.others.append(fields["seat"])
        elif kind == "end":
            self.over = True

    def step(self) -> bool:
        """Press once if it is time to; whether it pressed."""
        rows, now = self.rows, time.monotonic()
        if not self.claimed or self.over or rows is None:
            return False
        if not self.fresh and now - self.pressed_at < self.PATIENCE_S:
            return False
        text = " ".join(rows)
        if any(w in text for w in self.WAITS) and now - self.pressed_at < 4 * self.PATIENCE_S:
            return False
        r = self.rng.random()
        button = "ok" if r < 0.6 else "down" if r < 0.85 else "up"
        self.fresh, self.pressed_at = False, now
        self.keeper.ask("press", seat=self.seat, button=button, hold=False)
        self.presses += 1
        return True
