"""The real mpremote reaches the REPL of a table playing on the real build:
a Ctrl-C mid-game (mpremote's opening bytes, or a Ctrl-C sent while a move
is being carried out and journaled) stops the app between two commands of
its line, every station says so, the REPL gets the bytes after it, `mpremote
ls`, `cp` and `exec` succeed within 3 s of the first Ctrl-C (simulated time:
what a Pico takes), and the next power-up resumes the game with every move
the table accepted.

The app starts at power-up from the image's main.py, as at a table. The
bench serves the USB serial once a REPL prompt shows, so the first Ctrl-C
comes from the scenario, at an exact time; mpremote's own follows at the
REPL. `resume` keeps mpremote from its soft reset, which the emulator cannot
do (it needs core 1); on a Pico mpremote soft-resets in the raw REPL, where
main.py does not run (tests/test_repl_reach.py, on the unix port, does it).
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from bench import pico_rig
from catnip import wire
from checks import clean

GAME = ("heist", {"variant": "standard", "gems": "digital"}, [0, 1])
MOVES = 3  # moves made before the Ctrl-C
REACH_S = 3.0  # from the first Ctrl-C to `mpremote ls` done, on the Pico's clock
STOPPED = b"catnip: app stopped (Ctrl-C); the REPL is yours"


def _mpremote(url: str, *args: str) -> tuple[str, float]:
    """The real mpremote on the bench's serial (no soft reset: `resume`):
    what it printed, and its wall seconds."""
    t = time.monotonic()
    out = subprocess.run([str(pico_rig.BIN / "mpremote"), "connect", url, "resume", *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout, round(time.monotonic() - t, 2)


def _serial(out: Path) -> list[dict]:
    path = out / "serial.jsonl"
    if not path.exists():
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def _acts(out: Path) -> list[float]:
    """The simulated time of each act frame the Pico sent."""
    reader, times = wire.Reader(), []
    for chunk in _serial(out):
        if chunk["dir"] == "d2h":
            for item in reader.feed(chunk["data"].encode("latin1")):
                if item[0] == "frame" and item[2] == "act":
                    times.append(chunk["t"])
    return times


def _first(out: Path, direction: str, text: bytes, after: float = -1.0) -> float | None:
    """When `text` first arrived (sent by the laptop, "h2d", or the Pico)
    after `after`, in simulated seconds."""
    heard = b""
    for chunk in _serial(out):
        if chunk["dir"] == direction and chunk["t"] > after:
            heard = heard[-len(text):] + chunk["data"].encode("latin1")
            if text in heard:
                return chunk["t"]
    return None


def _said_before_the_laptop(out: Path) -> bytes:
    """What the Pico sent before the laptop's first byte."""
    said = b""
    for chunk in _serial(out):
        if chunk["dir"] == "h2d" and chunk.get("src") == "tcp":
            break
        if chunk["dir"] == "d2h":
            said += chunk["data"].encode("latin1")
    return said


def _tools(tmp: Path, found: dict):
    """The laptop, once the stopped app has left the REPL: mpremote ls, cp
    and exec; their output and wall times go into `found`."""

    def linked(url: str, running) -> None:
        found["ls"], found["ls_s"] = _mpremote(url, "ls")
        note = tmp / "note.txt"
        note.write_text("from the laptop\n")
        found["cp_s"] = _mpremote(url, "cp", str(note), ":note.txt")[1]
        found["exec"], found["exec_s"] = _mpremote(url, "exec", "print(open('note.txt').read())")

    return linked


def _play(pico: Path, tmp: Path, name: str, ctrl_c: list[tuple[float, str]]):
    """The game's first MOVES moves pressed on the Pico, then `ctrl_c`: (s
    after the press that makes the last, bytes) sent on its USB serial;
    mpremote once the REPL is up. (run, what mpremote did)."""
    game, options, seats = GAME
    plan = pico_rig.plan(game, options, seats, pico_rig.read_flash(pico, tmp / f"{name}-state"),
                         "game")
    last = plan["moves_after"].index(MOVES)
    scenario = pico_rig.presses(plan["presses"][:last + 1], pico_rig.BOOTED_S,
                                first_takes=pico_rig.resume_takes(0))
    pressed = scenario[-1]["t"]
    scenario += [{"t": round(pressed + after, 3), "do": "send", "data": data}
                 for after, data in ctrl_c]
    found: dict = {}
    run, _ = pico_rig.boot(pico, tmp / name, pressed + 120, scenario, repl=_tools(tmp, found))
    return run, found


def _resumes_with(pico: Path, tmp: Path, moves: int) -> None:
    """The next power-up (the app from the image's main.py, as at a table)
    offers the game; "Resume" brings it back with `moves` moves."""
    pico_rig.without(pico, "main.py", pico)  # the linked run's, which kept the REPL free
    game, options, seats = GAME
    state = pico_rig.read_flash(pico, tmp / "state-after")
    plan = pico_rig.plan(game, options, seats, state, "game")
    assert plan["moves_before"] == moves  # the laptop's littlefs reads every move
    scenario = pico_rig.presses(plan["presses"][:1], pico_rig.BOOTED_S)
    run, _ = pico_rig.boot(pico, tmp / "resumed", scenario[0]["t"] + pico_rig.resume_takes(moves)
                           + pico_rig.SETTLE_S, scenario)
    clean(run)
    resumed = [t for t in run.said() if t.startswith("Resumed ")]
    assert resumed == [f"Resumed Meow Heist, {moves} moves in"], run.said()


def _reached(run: pico_rig.Run, found: dict) -> dict:
    """mpremote did its work on the stopped app: the figures."""
    assert run.code == 0 and not run.summary["warnings"], run.summary
    assert "board.json" in found["ls"] and "from the laptop" in found["exec"], found
    app = _said_before_the_laptop(run.out)  # mpremote's own probes print tracebacks (ENOENT)
    assert STOPPED in app and b"Traceback" not in app, app[-2000:]
    screens = run.screens()
    for k in range(pico_rig.STATIONS):
        assert "Stopped: REPL" in screens[f"st{k}_oled"], (k, screens[f"st{k}_oled"])
    first = _first(run.out, "h2d", b"\x03")
    stopped = _first(run.out, "d2h", STOPPED)
    listed = _first(run.out, "d2h", b"board.json", first)
    assert first is not None and stopped is not None and listed is not None
    figures = {"stopped_s": round(stopped - first, 3), "ls_done_s": round(listed - first, 3),
               "ls_wall_s": found["ls_s"], "cp_wall_s": found["cp_s"],
               "exec_wall_s": found["exec_s"]}
    print("mpremote on the emulated Pico:", figures)
    assert figures["ls_done_s"] <= REACH_S, figures
    return figures


@pytest.mark.xdist_group("heist")
def test_mpremote_reaches_a_table_mid_game_and_the_game_resumes(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_rig.start(pico, tmp_path, name, options, seats))
    # What mpremote sends first, once the table idles: Ctrl-C, then Ctrl-A for
    # the raw REPL, then its Ctrl-B back to the friendly one.
    run, found = _play(pico, tmp_path, "mid-game", [(1.0, "\r\x03"), (1.001, "\r\x01"),
                                                    (1.002, "\r\x02")])
    _reached(run, found)
    stopped = _first(run.out, "d2h", STOPPED)
    assert _first(run.out, "d2h", b"raw REPL; CTRL-B to exit", stopped)  # the REPL read them
    assert len(_acts(run.out)) == MOVES
    _resumes_with(pico, tmp_path, MOVES)


@pytest.mark.xdist_group("heist")
def test_ctrl_c_while_a_move_is_journaled_loses_no_move(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_rig.start(pico, tmp_path, name, options, seats))
    run, found = _play(pico, tmp_path, "mid-write", [(0.005, "\x03")])
    _reached(run, found)
    acts = _acts(run.out)
    ctrl_c = _first(run.out, "h2d", b"\x03")
    # The Ctrl-C came while the last move was being carried out and journaled
    # (its act frame goes out once it is on flash): the app finished it first.
    assert len(acts) == MOVES and acts[-1] > ctrl_c, (acts, ctrl_c)
    _resumes_with(pico, tmp_path, MOVES)
