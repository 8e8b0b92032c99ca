"""Press-to-pixels on the emulated RP2040 (bench_pico's "press" part): a game
played by buttons with the seven stations of the bench's world, each press timed
from the button's contact to the last byte of the panels' refresh, and to its
move's frame on the USB serial."""

from __future__ import annotations

import json
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path

from bench import pico_rig, pico_run
from bench.pico_rig import REAL

Row = tuple[str, str, float | int | str, str, str]


PRESS_GAMES = (  # on the seven stations of the bench's world
    ("purrfect", {"mode": "scorekeeper"}, 7),  # every station seated, a few rounds
    ("heist", {"variant": "standard", "gems": "digital"}, 4),  # a hundred moves
)


def press_rows(flash: Path, work: Path) -> Iterator[Row]:
    """Purrfect as the scorekeeper with all seven stations seated, then a
    four-player Meow Heist: cursor moves redraw one station, each setup change
    and each move all of them."""
    runs = []
    for game, options, players in PRESS_GAMES:
        folder = work / game
        folder.mkdir(parents=True)
        image = folder / "flash.img"
        shutil.copy(flash, image)
        seats = list(range(players))
        runs.append(pico_run.start(image, folder, game, options, seats))
        runs += pico_run.finish(image, folder, game, options, seats).runs
    one, every, own, whole, moves, framed = press_groups(runs)
    note = (f"{REAL}, I2C at 400 kHz, button contact to the last byte of the panel's "
            "refresh")
    for what, values, target in (("one station redraws", one, 50),
                                 ("every station redraws, the pressed station", own, 100),
                                 ("every station redraws, the last station", every, None),
                                 ("every station redraws, the last whole screen", whole, 0)):
        if values:
            yield ("press-to-pixels", f"{what}: median", round(statistics.median(values), 1),
                   "ms", f"{note}; {len(values)} presses")
            if target == 0:  # the announcement goes first; this is when the rest is out too
                note = (f"{REAL}, I2C at 400 kHz, button contact to the last byte any station "
                        "panel took before the next press")
            yield ("press-to-pixels", f"{what}: p95", round(p95(values), 1), "ms",
                   f"{note}; target <= {LAST_P95} ms" if target is None else note)
            bound = (f"target <= {target} ms" if target else
                     "no target: seven panels' whole-screen changes are 160 ms of bus time")
            yield ("press-to-pixels", f"{what}: max", round(max(values), 1), "ms",
                   f"{note}; {bound}")
    if moves:  # the product's target: a move in play, not a setup page or a game's start
        note = (f"{REAL}, I2C at 400 kHz, presses whose move's act frame went out on the "
                f"line, button contact to the last of seven panels told of the move")
        what = "a move in play, the last station"
        yield ("press-to-pixels", f"{what}: median", round(statistics.median(moves), 1), "ms",
               f"{note}; {len(moves)} presses")
        yield ("press-to-pixels", f"{what}: p95", round(p95(moves), 1), "ms",
               f"{note}; target <= {LAST_P95} ms")
        yield ("press-to-pixels", f"{what}: max", round(max(moves), 1), "ms", note)
    if framed:
        note = (f"{REAL}, button contact to the move's act frame wholly out on the USB serial "
                "(what catnip monitor mirrors)")
        yield ("link", "press to its move's frame: median", round(statistics.median(framed), 1),
               "ms", f"{note}; {len(framed)} moves")
        yield ("link", "press to its move's frame: max", round(max(framed), 1), "ms", note)


def press_groups(runs: list[pico_run.Run]) -> tuple[list[float], ...]:
    """The runs' presses sorted for the rows: one station redrawn (ms to it);
    every station redrawn (to the last panel), to the pressed station's own
    panel and to every screen whole; those of them that made a move in play
    (its act frame went out on the line), to the last panel; and each move's
    press to its act frame."""
    one, every, own, whole, moves, framed = [], [], [], [], [], []
    for run in runs:
        by_press = frames_by_press(run)
        made_moves = {t for t, _ in by_press}
        for t, panels, ms, pressed_ms, whole_ms in press_to_pixels(run):
            if len(panels) == 1:
                one.append(ms)
            elif len(panels) >= pico_rig.STATIONS:
                every.append(ms)
                whole.append(whole_ms)
                if pressed_ms is not None:
                    own.append(pressed_ms)
                if t in made_moves:
                    moves.append(ms)
        framed += [ms for _, ms in by_press]
    return one, every, own, whole, moves, framed


LAST_P95 = 100  # ms: every station shows a move this soon after its press, 95 times in 100


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ranked = sorted(values)
    return ranked[max(0, -(-len(ranked) * 95 // 100) - 1)]


REFRESH_GAP_S = 0.010  # a panel's page writes follow each other within a millisecond


def press_to_pixels(run: pico_run.Run, pressed: list[tuple[float, str]] | None = None
                    ) -> list[tuple[float, set[str], float, float | None, float]]:
    """For each scenario press of a run: its time (s), the station panels that got pixels
    before the next press, ms from the press until each of them showed it
    (the last byte of its first refresh after the press: a panel's refresh
    is its writes until another panel's begin or a pause of REFRESH_GAP_S;
    a move's announcement goes to every station ahead of the screen under
    it, so this is when the move is told), ms until the pressed station's
    own panel did (None if it did not change), and ms until the last byte
    any station panel took before the next press (every screen whole).
    `pressed`: (time, button id) of presses made otherwise (a phone's, over
    the line) in place of the scenario's."""
    if pressed is None:
        pressed = sorted((e["t"], e.get("id", "")) for e in run.events()
                         if e.get("kind") == "scenario" and e.get("do") == "press")
    writes = sorted((d["t_end"], d["to"][0]) for d in run.i2c()
                    if d.get("rw") == "W" and d.get("to") and d["to"][0].endswith("_oled")
                    and d["to"][0] != "table_oled" and d.get("n", 0) > 2)
    out = []
    for i, (t, button) in enumerate(pressed):
        nxt = pressed[i + 1][0] if i + 1 < len(pressed) else float("inf")
        shown: dict[str, float] = {}  # panel -> end of its first refresh
        done: set[str] = set()
        last = t
        for end, panel in (w for w in writes if t < w[0] < nxt):
            last = end
            done.update(p for p in shown if p != panel)  # another panel's writes began
            if panel in shown and end - shown[panel] > REFRESH_GAP_S:
                done.add(panel)  # a later refresh of the same panel
            if panel not in done:
                shown[panel] = end
        if shown:
            own = shown.get(button.split("_")[0] + "_oled")
            out.append((t, set(shown), (max(shown.values()) - t) * 1000,
                        (own - t) * 1000 if own is not None else None, (last - t) * 1000))
    return out


def press_to_frame(run: pico_run.Run) -> list[float]:
    """For each move's "act" frame on the Pico's USB serial (the first time it
    was sent, not a resync's): ms from the last press before it to the moment
    its last byte was sent."""
    return [ms for _, ms in frames_by_press(run)]


def frames_by_press(run: pico_run.Run) -> list[tuple[float, float]]:
    """press_to_frame's pairs: for each move's first "act" frame, the time (s)
    of the last press before it (the press that made the move) and the ms
    from it to the frame's last byte."""
    from catnip import wire

    pressed = sorted(e["t"] for e in run.events()
                     if e.get("kind") == "scenario" and e.get("do") == "press")
    sent: dict[bytes, tuple[float, float]] = {}  # seq -> (press, ms)
    line = b""
    with open(run.out / "serial.jsonl") as f:
        for chunk in map(json.loads, f):
            if chunk["dir"] != "d2h":
                continue
            *done, line = (line + chunk["data"].encode("latin1")).split(b"\n")
            before = [t for t in pressed if t < chunk["t"]]
            for frame in done:
                at = frame.find(wire.TABLE)
                parts = frame[at:].split(b" ", 3) if at >= 0 else []
                if parts[2:3] == [b"act"] and before and parts[1] not in sent:
                    sent[parts[1]] = (before[-1], (chunk["t"] - before[-1]) * 1000)
    return list(sent.values())
