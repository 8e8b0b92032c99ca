"""The real mpremote on the emulated Pico's USB serial while the table plays:
the game's first MOVES moves pressed, then a Ctrl-C (or mpremote's opening
bytes) sent by the scenario at an exact time; once the stopped app has left
the REPL the bench serves the serial, and `mpremote ls`, `cp` and `exec`
run against it (with `resume`: the emulator cannot soft-reset, it lacks
core 1). Used by tests/pico/test_pico_repl.py and `make bench`
(bench_pico's "repl" rows)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from bench import pico_flash, pico_rig, pico_run
from catnip import wire

GAME = ("heist", {"variant": "standard", "gems": "digital"}, [0, 1])
MOVES = 3  # moves made before the Ctrl-C
STOPPED = b"catnip: app stopped (Ctrl-C); the REPL is yours"
# What mpremote sends first (Ctrl-C, Ctrl-A for the raw REPL) and last (Ctrl-B).
MPREMOTE = [(0.0, "\r\x03"), (0.001, "\r\x01"), (0.002, "\r\x02")]


def mpremote(url: str, *args: str) -> tuple[str, float]:
    """The real mpremote on the bench's serial (no soft reset: `resume`):
    what it printed, and its wall seconds."""
    t = time.monotonic()
    out = subprocess.run([str(pico_rig.BIN / "mpremote"), "connect", url, "resume", *args],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise pico_rig.BenchError(f"mpremote {' '.join(args)}: {out.stdout + out.stderr}")
    return out.stdout, round(time.monotonic() - t, 2)


def serial(out: Path) -> list[dict]:
    """The bench's serial.jsonl: every chunk each way, with its times."""
    path = out / "serial.jsonl"
    if not path.exists():
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def acts(out: Path) -> list[float]:
    """The simulated time of each act frame the Pico sent."""
    reader, times = wire.Reader(), []
    for chunk in serial(out):
        if chunk["dir"] == "d2h":
            for item in reader.feed(chunk["data"].encode("latin1")):
                if item[0] == "frame" and item[2] == "act":
                    times.append(chunk["t"])
    return times


def first(out: Path, direction: str, text: bytes, after: float = -1.0) -> float | None:
    """When `text` first arrived (sent by the laptop, "h2d", or the Pico)
    after `after`, in simulated seconds."""
    heard = b""
    for chunk in serial(out):
        if chunk["dir"] == direction and chunk["t"] > after:
            heard = heard[-len(text):] + chunk["data"].encode("latin1")
            if text in heard:
                return chunk["t"]
    return None


def said_before_the_laptop(out: Path) -> bytes:
    """What the Pico sent before the laptop's first byte."""
    said = b""
    for chunk in serial(out):
        if chunk["dir"] == "h2d" and chunk.get("src") == "tcp":
            break
        if chunk["dir"] == "d2h":
            said += chunk["data"].encode("latin1")
    return said


def _tools(work: Path, found: dict):
    def linked(url: str, running) -> None:
        found["ls"], found["ls_s"] = mpremote(url, "ls")
        note = work / "note.txt"
        note.write_text("from the laptop\n")
        found["cp_s"] = mpremote(url, "cp", str(note), ":note.txt")[1]
        found["exec"], found["exec_s"] = mpremote(url, "exec", "print(open('note.txt').read())")

    return linked


def reach(pico: Path, work: Path, name: str,
          ctrl_c: list[tuple[float, str]]) -> tuple[pico_run.Run, dict]:
    """On the Pico whose game has started (pico_run.start), the first MOVES
    moves pressed, then `ctrl_c`: (seconds after the press that makes the
    last, bytes) sent on its USB serial; mpremote ls, cp and exec once the
    REPL is up. (the run, what mpremote printed and its wall seconds)."""
    game, options, seats = GAME
    plan = pico_run.plan(game, options, seats, pico_flash.read_flash(pico, work / f"{name}-state"),
                         "game")
    last = plan["moves_after"].index(MOVES)
    scenario = pico_run.presses(plan["presses"][:last + 1], pico_rig.BOOTED_S,
                                first_takes=pico_run.resume_takes(0))
    pressed = scenario[-1]["t"]
    scenario += [{"t": round(pressed + after, 3), "do": "send", "data": data}
                 for after, data in ctrl_c]
    found: dict = {}
    run, _ = pico_run.boot(pico, work / name, pressed + 120, scenario, repl=_tools(work, found))
    return run, found


def figures(run: pico_run.Run, found: dict) -> dict:
    """Seconds from the first Ctrl-C to the app's "stopped" line and to the
    end of mpremote's `ls` listing (simulated: the Pico's clock, which runs
    at most at wall speed while it waits at the REPL), and each mpremote
    command's wall seconds on this host."""
    ctrl_c = first(run.out, "h2d", b"\x03")
    stopped = first(run.out, "d2h", STOPPED)
    listed = first(run.out, "d2h", b"board.json", ctrl_c if ctrl_c is not None else -1.0)
    if ctrl_c is None or stopped is None or listed is None:
        raise pico_rig.BenchError(f"{run.out}: no Ctrl-C, no stop or no listing on the serial")
    return {"stopped_s": round(stopped - ctrl_c, 3), "ls_done_s": round(listed - ctrl_c, 3),
            "ls_wall_s": found["ls_s"], "cp_wall_s": found["cp_s"],
            "exec_wall_s": found["exec_s"]}
