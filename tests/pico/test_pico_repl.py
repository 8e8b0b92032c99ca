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

from pathlib import Path

import pytest

from bench import pico_flash, pico_rig, pico_run
from bench.pico_repl import GAME, MOVES, MPREMOTE, STOPPED, acts, figures, first, reach, \
    said_before_the_laptop
from checks import clean

REACH_S = 3.0  # from the first Ctrl-C to `mpremote ls` done, on the Pico's clock


def _resumes_with(pico: Path, tmp: Path, moves: int) -> None:
    """The next power-up (the app from the image's main.py, as at a table)
    offers the game; "Resume" brings it back with `moves` moves."""
    game, options, seats = GAME
    state = pico_flash.read_flash(pico, tmp / "state-after")
    plan = pico_run.plan(game, options, seats, state, "game")
    assert plan["moves_before"] == moves  # the laptop's littlefs reads every move
    scenario = pico_run.presses(plan["presses"][:1], pico_rig.BOOTED_S)
    run, _ = pico_run.boot(pico, tmp / "resumed", scenario[0]["t"] + pico_run.resume_takes(moves)
                           + pico_rig.SETTLE_S, scenario)
    clean(run)
    resumed = [t for t in run.said() if t.startswith("Resumed ")]
    assert resumed == [f"Resumed Meow Heist, {moves} moves in"], run.said()


def _reached(run: pico_run.Run, found: dict) -> dict:
    """mpremote did its work on the stopped app: the figures."""
    assert run.code == 0 and not run.summary["warnings"], run.summary
    assert "board.json" in found["ls"] and "from the laptop" in found["exec"], found
    app = said_before_the_laptop(run.out)  # mpremote's own probes print tracebacks (ENOENT)
    assert STOPPED in app and b"Traceback" not in app, app[-2000:]
    screens = run.screens()
    for k in range(pico_rig.STATIONS):
        assert "Stopped: REPL" in screens[f"st{k}_oled"], (k, screens[f"st{k}_oled"])
    found = figures(run, found)
    print("mpremote on the emulated Pico:", found)
    assert found["ls_done_s"] <= REACH_S, found
    return found


@pytest.mark.xdist_group("heist")
def test_mpremote_reaches_a_table_mid_game_and_the_game_resumes(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_run.start(pico, tmp_path, name, options, seats))
    # mpremote's opening and closing bytes, a second after the last move
    run, found = reach(pico, tmp_path, "mid-game", [(1.0 + t, data) for t, data in MPREMOTE])
    _reached(run, found)
    stopped = first(run.out, "d2h", STOPPED)
    assert first(run.out, "d2h", b"raw REPL; CTRL-B to exit", stopped)  # the REPL read them
    assert len(acts(run.out)) == MOVES
    _resumes_with(pico, tmp_path, MOVES)


@pytest.mark.xdist_group("heist")
def test_ctrl_c_while_a_move_is_journaled_loses_no_move(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_run.start(pico, tmp_path, name, options, seats))
    run, found = reach(pico, tmp_path, "mid-write", [(0.005, "\x03")])
    _reached(run, found)
    sent = acts(run.out)
    ctrl_c = first(run.out, "h2d", b"\x03")
    # The Ctrl-C came while the last move was being carried out and journaled
    # (its act frame goes out once it is on flash): the app finished it first.
    assert len(sent) == MOVES and sent[-1] > ctrl_c, (sent, ctrl_c)
    _resumes_with(pico, tmp_path, MOVES)
