"""What every game on the emulated Pico must show: the checks the pico tier's
tests share."""

from __future__ import annotations

from pathlib import Path

from bench import pico_rig, pico_run
from catnip import rules
from catnip.flash.journal import Journal


def clean(run: pico_run.Run) -> None:
    """The bench saw nothing wrong and the Pico said nothing alarming."""
    assert run.code == 0, run.summary.get("reason")
    assert not run.summary["warnings"], run.summary["warnings"]
    serial = (run.out / "serial.txt").read_text(errors="replace")
    assert "Traceback" not in serial and "MemoryError" not in serial, serial[-2000:]


def journaled_result(folder: Path) -> tuple[str, dict]:
    """(status, result) of the newest game in the Pico's journal (copied off its
    flash), after checking that its actions replay to the result it recorded."""
    _, status, ended = journaled_game(folder)
    return status, ended


def journaled_game(folder: Path):
    """(the game replayed, its status, the result recorded) of the newest game
    in the Pico's journal, checking that its actions replay to that result."""
    journal = Journal(str(folder / "journal"))
    gid, status = journal.games()[-1]
    header = journal.header(gid)
    game = rules.new(header["game"], header["config"], header["seed"])
    ended = None
    for entry in journal.entries(gid):
        if entry[0] == "action":
            game.act(entry[1], tuple(entry[2]))
        elif entry[0] == "end":
            ended = entry[1]
    assert ended == game.result(), "the recorded result is not what the actions make"
    return game, status, ended


def standings_shown(played: pico_run.Played, seats: list[int]) -> None:
    """Every panel shows what the simulated table shows at the end (standings
    on every station), and each seated station names the winner first."""
    expected = played.expected
    for k in range(pico_rig.STATIONS):
        assert played.screens[f"st{k}_oled"] == expected["screens"][k], k
    winner = expected["result"]["ranks"].index(1)
    for k in seats:
        lines = played.screens[f"st{k}_oled"]
        assert any(line.startswith(f"1. P{winner + 1}") for line in lines), lines


def resumed_as_planned(played: pico_run.Played, plans_moves: list[int]) -> None:
    """Each boot of the game resumed it with the moves the plan was made from
    (read off the same flash image on the laptop): the Pico and the laptop's
    littlefs agree on what the journal kept."""
    for run, moves in zip(played.runs, plans_moves):
        resumed = [t for t in run.said() if t.startswith("Resumed ")]
        assert resumed and resumed[0].endswith(f", {moves} moves in"), (resumed, moves)
