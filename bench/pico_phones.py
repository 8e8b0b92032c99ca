"""A phone seat's press on the emulated RP2040 (bench_pico's "phones" part):
the catnip image in the bench's world of seven stations, and a laptop on its
USB serial (socket://) that starts a Meow Heist for three with every seat on
a phone, claims the seats and presses for them as the phone page does (OK
most of the time, DOWN or UP now and then), a few seconds apart and the first
once every seat is claimed and the game drawn. Each press is timed in emulated
time from its command's last byte reaching the Pico to that seat's `view`
wholly sent back, and, for a press that made a move (its `act` frame went
out), to the last byte of every station panel's first refresh after it."""

from __future__ import annotations

import json
import random
import shutil
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

from bench import pico_press, pico_rig, pico_run
from bench.pico_rig import REAL, BenchError

Row = tuple[str, str, float | int | str, str, str]
GAME, OPTIONS, PLAYERS = "heist", {"variant": "standard", "gems": "digital"}, 3
PRESSES = 45  # presses made, a seat at a time in turn, until the game ends
TARGET_P95 = 150  # ms, from a phone's press to its own screen and to every station's
WAIT_S = 60.0  # wall seconds for an answer: the emulator is slower than a Pico
BETWEEN_TAPS_S = 3.0  # wall seconds from a press (or the last claim) to the next press


def phone_rows(flash: Path, work: Path) -> Iterator[Row]:
    work.mkdir(parents=True)
    image = work / "flash.img"
    shutil.copy(flash, image)
    run = pico_run.run(image, work / "out", 3600, linked=_laptop(), timeout=3600)
    presses, views, acts = _line(run.out)
    to_view, to_stations = [], []
    for i, (t, seat) in enumerate(presses):
        nxt = presses[i + 1][0] if i + 1 < len(presses) else float("inf")
        seen = [v for v, s in views if s == seat and t < v < nxt]
        if seen:
            to_view.append((seen[0] - t) * 1000)
    moved = [t for i, (t, _) in enumerate(presses)
             if any(t < a < (presses[i + 1][0] if i + 1 < len(presses) else float("inf"))
                    for a in acts)]
    for t, panels, ms, _, _ in pico_press.press_to_pixels(run, [(t, "phone") for t, _ in presses]):
        if t in moved and len(panels) >= pico_rig.STATIONS:
            to_stations.append(ms)
    note = (f"{REAL}, a `press` command's last byte in to the seat's `view` frame's last byte "
            f"out on the USB serial; Meow Heist, 3 seats on phones, 7 stations")
    for what, values, how in (("its own view", to_view, note),
                              ("every station (a move)", to_stations,
                               f"{REAL}, I2C at 400 kHz: a `press` command in to the last byte "
                               "of every station panel's first refresh, for presses that made "
                               "a move")):
        if not values:
            raise BenchError(f"no phone press reached {what}")
        yield ("phones", f"press to {what}: median", round(statistics.median(values), 1), "ms",
               f"{how}; {len(values)} presses")
        yield ("phones", f"press to {what}: p95", round(pico_press.p95(values), 1), "ms",
               f"{how}; target <= {TARGET_P95} ms")


def _laptop() -> pico_run.Linked:
    def linked(url: str, running) -> None:
        from catnip_host.ports import Link

        link = Link(url)
        link.open()
        try:
            _play(link, running)
        finally:
            link.close()

    return linked


def _play(link, running) -> None:
    over = []  # the game's end came: its standings' menu is no place for random presses

    def wait(pred):
        end = time.monotonic() + WAIT_S
        while running() and time.monotonic() < end:
            for item in link.read():
                if item[0] == "frame":
                    if item[2] == "err":
                        raise BenchError(f"the table refused: {item[3]['why']}")
                    over.extend(item[2:3] if item[2] == "end" else ())
                    if pred(item[2], item[3]):
                        return
        raise BenchError("no answer from the emulated table")

    link.send("hello")
    wait(lambda kind, f: kind == "hello")
    seats = list(range(pico_rig.STATIONS, pico_rig.STATIONS + PLAYERS))
    link.send("start", game=GAME, config=dict(OPTIONS), seats=seats)
    wait(lambda kind, f: kind == "started")

    def settle() -> None:
        # A player looks at the screen before the next tap: the table has
        # time to send the frames a press or a claim brought and to draw
        # every station (the game's first screens, some 150 ms of bus time).
        end = time.monotonic() + BETWEEN_TAPS_S
        while running() and time.monotonic() < end:
            over.extend(item[2] for item in link.read() if item[0] == "frame" and item[2] == "end")

    for seat in range(PLAYERS):
        link.send("claim", seat=seat)
        wait(lambda kind, f, seat=seat: kind == "view" and f["seat"] == seat)
    settle()  # the players read their hands: the first tap is not made at the game's start
    rng = random.Random("phones")
    for n in range(PRESSES):
        if over:
            break
        seat = n % PLAYERS
        r = rng.random()
        button = "ok" if r < 0.7 else "down" if r < 0.85 else "up"
        link.send("press", seat=seat, button=button, hold=False)
        wait(lambda kind, f, seat=seat: kind == "pressed" and f["seat"] == seat)
        settle()


def _line(out: Path) -> tuple[list[tuple[float, int]], list[tuple[float, int]], list[float]]:
    """From the bench's log of the USB serial: (time, seat) of each press
    command wholly in, of each view wholly out, and the time of each act."""
    from catnip import wire

    presses, views, acts = [], [], []
    rest = {"h2d": b"", "d2h": b""}
    with open(out / "serial.jsonl") as f:
        for chunk in map(json.loads, f):
            way = chunk["dir"]
            if way not in rest:
                continue
            *done, rest[way] = (rest[way] + chunk["data"].encode("latin1")).split(b"\n")
            mark = wire.LAPTOP if way == "h2d" else wire.TABLE
            for frame in done:
                at = frame.find(mark)
                if at < 0:
                    continue
                try:
                    _, kind, fields = wire.decode(frame[at:], mark)
                except wire.WireError:
                    continue
                if way == "h2d" and kind == "press":
                    presses.append((chunk["t"], fields["seat"]))
                elif kind == "view":
                    views.append((chunk["t"], fields["seat"]))
                elif kind == "act":
                    acts.append(chunk["t"])
    return presses, views, acts
