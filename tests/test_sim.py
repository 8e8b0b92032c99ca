"""The virtual table: whole games replayed from scenario files through
`catnip sim --script FILE --headless`, the line protocol with the table, and
the terminal it is played in."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import mpunix
from catnip_host import sim
from catnip_host.cli import main

SCENARIOS = mpunix.ROOT / "tests" / "scenarios"
SCREENS = mpunix.ROOT / "docs" / "screens"
# scenario: (title on the end screen, players ranked)
GAMES = {"heist-3p": ("Meow Heist", 3), "heist-2p": ("Meow Heist", 2),
         "stack": ("Stack O' Cats", 3), "stack-black": ("Stack O' Cats", 2),
         "stack-clowder": ("Stack O' Cats", 4), "purrfect": ("Purrfect", 4),
         "purrfect-paper": ("Purrfect", 4)}


def headless(*args: str) -> "Result":  # noqa: F821 (click's Result)
    return CliRunner().invoke(main, ["sim", "--headless", *args])


def scenario(tmp_path: Path, steps: list) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"seed": "t", "steps": steps}))
    return str(path)


# ---- whole games -------------------------------------------------------------


def test_every_title_has_a_scenario():
    assert sorted(p.stem for p in SCENARIOS.glob("*.json")) == sorted(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_replays_to_its_standings(name, tmp_path):
    path = SCENARIOS / f"{name}.json"
    data = json.loads(path.read_text())
    assert all("press" in s or "hold" in s or "push" in s or "release" in s or "wait" in s
               or "expect" in s or "snap" in s for s in data["steps"]), "buttons only"
    result = headless("--script", str(path), "--snapshots", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # stderr: what the firmware runs on
    assert lines[0] == "Standings"
    assert lines[1:1 + len(data["standings"])] == ["  " + s for s in data["standings"]]
    title, players = GAMES[name]
    ranked = [s for s in data["standings"] if s[:1].isdigit() and ". P" in s]
    assert len(ranked) == players
    assert sorted(int(s.split(". P")[1].split()[0]) for s in ranked) == list(
        range(1, players + 1)), "every player ranked once"
    # The key screens come out exactly as the committed pictures.
    snaps = sorted(p.name for p in tmp_path.glob("*.png"))
    assert f"{name}-standings.png" in snaps
    for png in snaps:
        assert (tmp_path / png).read_bytes() == (SCREENS / png).read_bytes(), png


def test_the_generator_still_writes_the_committed_scenario(tmp_path):
    proc = mpunix.run([str(mpunix.ROOT / "tests" / "simplay.py"), str(tmp_path), "heist-3p"],
                      path=[mpunix.SHARED_TESTS], timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "heist-3p.json").read_text() == (SCENARIOS / "heist-3p.json").read_text()


# ---- headless runs: what goes wrong, said plainly --------------------------------


def test_a_failed_expect_exits_1_naming_the_step(tmp_path):
    result = headless("--script", scenario(tmp_path, [
        {"station": 1, "press": "ok"},
        {"expect": {"station": 2, "text": "Choose a card"}},
        {"expect": {"station": 2, "text": "Stack"}},
    ]))
    assert result.exit_code == 1
    assert "FAILED at step 3: station 2 does not show 'Stack'" in result.output
    assert "Station 2:\n  | Heist" in result.output  # what it showed instead


def test_a_hidden_card_stays_hidden_from_the_other_stations(tmp_path):
    result = headless("--script", scenario(tmp_path, [
        {"station": 1, "press": "ok"},  # Meow Heist, four players
        {"station": 2, "press": "down", "times": 3},
        {"station": 2, "press": "ok"},
        {"station": 2, "push": "ok"},
        {"expect": {"station": 2, "text": "You chose:"}},
        {"expect": {"station": 2, "text": "3", "row": 4}},
        {"expect": {"station": 1, "not": "You chose"}},
        {"expect": {"station": 1, "text": "Locked .2.."}},
        {"station": 2, "release": "ok"},
        {"expect": {"station": 2, "text": "Locked in"}},
        {"expect": {"station": 2, "not": "You chose"}},
    ]))
    assert result.exit_code == 0, result.output
    assert "no game has ended" in result.output


def test_a_step_the_table_cannot_do_is_refused_before_playing(tmp_path):
    result = headless("--script", scenario(tmp_path, [
        {"station": 1, "press": "ok"}, {"station": 5, "press": "ok"}]))
    assert result.exit_code == 1
    assert "scenario step 2" in result.output and "stations 1 to 4" in result.output
    result = headless("--script", scenario(tmp_path, [{"station": 1, "press": "left"}]))
    assert "buttons are up, down, ok, back, not 'left'" in result.output
    result = headless("--script", scenario(tmp_path, [{"tray": "collapse"}]))
    assert "how many \"cats\" fell" in result.output
    result = headless("--script", scenario(tmp_path, [{"tray": "remove"}]))
    assert result.exit_code == 1
    assert "step 1: no fallen cat lies on the tray" in result.output


def test_a_broken_scenario_file_says_where(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('[{"station": 1, "press": "ok"}')
    result = headless("--script", str(path))
    assert result.exit_code == 1
    assert "is not JSON" in result.output and "line 1" in result.output


def test_headless_needs_a_script(tmp_path):
    result = CliRunner().invoke(main, ["sim", "--headless"])
    assert result.exit_code == 2
    assert "catnip sim --script FILE --headless" in result.output


def test_an_unknown_board_lists_the_shipped_ones(tmp_path):
    result = headless("--script", scenario(tmp_path, []), "--board", "round")
    assert result.exit_code == 1
    assert "no board named 'round'" in result.output and "direct, mux" in result.output


def test_the_mux_board_seats_eight(tmp_path):
    # Meow Heist seats six of them; the Clowder takes all eight.
    result = headless("--board", "mux", "--script", scenario(tmp_path, [
        {"expect": {"station": 6, "text": "You: P6"}},
        {"expect": {"station": 8, "text": "Not playing"}},
        {"station": 1, "press": "up"}, {"station": 1, "press": "ok"},
        {"station": 1, "press": "down", "times": 4}, {"station": 1, "press": "ok", "times": 2},
        {"expect": {"station": 1, "text": "Mode: clowder"}},
        {"expect": {"station": 8, "text": "You: P8"}}]))
    assert result.exit_code == 0, result.output
    result = headless("--board", "mux", "--stations", "5", "--script", scenario(tmp_path, [
        {"expect": {"station": 5, "text": "You: P5"}}, {"station": 6, "press": "ok"}]))
    assert "scenario step 2" in result.output and "stations 1 to 5" in result.output


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_the_table_keeps_its_flash_in_a_per_user_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert sim.journal_dir() == tmp_path / "catnip" / "virtual-table"
    assert sim.journal_dir().is_dir()


# ---- the line protocol and the terminal ---------------------------------------------


# The firmware runs on the MicroPython unix port, or on CPython where the port
# is missing (devsim/cpython): the table must speak the same on both.
INTERPRETERS = ["micropython", "cpython"]


@pytest.fixture(params=INTERPRETERS)
def table(tmp_path, request, monkeypatch):
    monkeypatch.setenv("CATNIP_SIM_INTERPRETER", request.param)
    t = sim.Table(sim.command(sim.board_file("direct"), tmp_path, "fast", "t"))
    state = sim.TableState()
    t.wait_ready(state)
    yield t, state
    t.close()


def settle(t: sim.Table, state: sim.TableState, *commands: str) -> list[dict]:
    """Send the commands, then a marker wait, and apply everything up to it."""
    for c in commands:
        t.send(c)
    t.send("wait 10")
    t.send("serial hello")  # the app answers once everything before it is done
    t.send("wait 10")
    got = []
    end = time.monotonic() + 20
    while time.monotonic() < end:
        for m in t.drain(0.1):
            state.apply(m)
            got.append(m)
            if m.get("k") == "line" and m["m"].get("t") == "hello":
                return got
    raise AssertionError(f"the table did not answer: {got}")


def test_the_table_speaks_the_line_protocol(table):
    t, state = table
    got = settle(t, state)
    assert state.stations == 4 and state.board == "direct" and state.has_tray
    assert state.journal in ("memory", "flash")
    assert state.screens[3].rows[0].startswith("catnip setup  S3")
    hello = [m["m"] for m in got if m["k"] == "line"][-1]
    assert hello["t"] == "hello" and hello["app"] == "catnip" and hello["stations"] == 4

    settle(t, state, "tap 1 ok", "wait 300")
    assert state.screens[1].rows[3] == "Choose a card   "
    assert state.screens[1].attrs[0] == "i" * 16  # the title bar, dark on lit
    assert "i" in state.screens[1].attrs[4]  # the card under the cursor
    assert any(line.startswith("— heist: snapshot") for line in state.feed)
    assert any(line.startswith("— game 1: heist begins") for line in state.feed)

    # The base stands on the tray with its four wedged cats from the start.
    got = settle(t, state, "tray place", "tray place", "tray collapse 1")
    assert state.tray["tower"] == 5 and state.tray["tower"] + state.tray["loose"] <= 6
    got = settle(t, state, "tray collapse 9", "fly 1", "tap 9 ok", "tap 1 sideways")
    errors = [m["why"] for m in got if m["k"] == "error"]
    assert errors == ["the tower has 5 cats: a collapse fells 1 to 5, not 9",
                      "unknown command 'fly'; commands: " + sim_commands(),
                      "station 9: this table has stations 1 to 4",
                      "buttons are up, down, ok, back, not 'sideways'"]
    assert state.tray["tower"] == 5  # refused, so nothing changed

    t.send("quit")
    assert t.proc.wait(timeout=10) == 0
    assert [m for m in t.drain(1)][-1] == {"k": "bye"}


def sim_commands() -> str:
    return "tap, press, release, tray, serial, wait, screens, quit"


def test_four_stations_fit_an_80_by_24_terminal(table):
    t, state = table
    settle(t, state, "tap 1 ok", "wait 300", "tap 2 down", "wait 300")
    sent: list[str] = []
    ui = sim.Terminal(state, sent.append, lambda: (80, 24))
    console = Console(width=80, height=24, record=True, file=open(os.devnull, "w"))
    console.print(ui)
    text = console.export_text()
    lines = text.splitlines()
    assert len(lines) <= 24 and max(map(len, lines)) <= 80
    for s in (1, 2, 3, 4):
        assert f"P{s}" in lines[1]  # every station's title row, side by side
    assert lines[4].count("Choose a card") == 4
    assert "Enter OK" in text and "p place" in text and "q quit" in text
    assert "tray: 4 on the tower" in text  # the base and its wedged cats
    # It opens in the text view whatever the size; in the auto view, larger
    # terminals get the pixels: braille, then half blocks.
    ui.size = lambda: (270, 80)
    assert ui.current_view() == "text"
    ui.view = "auto"
    ui.size = lambda: (80, 24)
    assert ui.current_view() == "text"
    ui.size = lambda: (140, 80)
    assert ui.current_view() == "braille"
    ui.size = lambda: (270, 80)
    assert ui.current_view() == "pixels"


def test_keys_drive_the_focused_station_and_the_tray():
    state = sim.TableState(stations=8, has_tray=True)
    sent: list[str] = []
    ui = sim.Terminal(state, sent.append, lambda: (80, 24), settings=sim.Settings("auto"))
    for key in sim.parse_keys("\x1b[B\r\x7f3\x1b[Ao"):
        assert ui.key(key)
    assert sent == ["tap 1 down", "tap 1 ok", "tap 1 back", "tap 3 up", "tap 3 ok 1500"]
    sent.clear()
    for key in ["m", "p", "r", "h", "c", "4", "c", "x"]:
        ui.key(key)
    assert sent == ["tap 3 back 1000", "tray place", "tray remove", "tray hand",
                    "tray collapse 4"]
    assert "collapse: type how many cats fell, 1 to 9" in state.feed
    # Eight stations, four fit: Tab shows the next four, a digit picks one.
    assert ui.shown() == [1, 2, 3, 4]
    ui.key("tab")
    assert ui.shown() == [5, 6, 7, 8] and ui.focus == 5
    ui.key("tab")
    assert ui.shown() == [1, 2, 3, 4]
    ui.key("7")
    assert ui.shown() == [5, 6, 7, 8] and ui.focus == 7
    ui.key("9")  # no station 9: nothing changes
    assert ui.focus == 7
    assert ui.key("v") and ui.view == "text"
    assert not ui.key("q") and not ui.key("ctrl-c")


def test_keys_from_a_terminal():
    assert sim.parse_keys("\x1b[A\x1bOB\r\n\t\x7f\x08\x1b\x03a") == [
        "up", "down", "enter", "enter", "tab", "backspace", "backspace", "backspace",
        "ctrl-c", "a"]


def test_screens_drawn_with_blocks_braille_and_cells():
    image = bytearray(1024)
    image[0] = 0b11  # pixels (0,0) and (0,1)
    image[9] = 0b1  # pixel (9,0)
    screen = sim.Screen(bytes(image), 64, [" " * 16] * 8, ["g" + "." * 15] + ["." * 16] * 7)
    blocks = sim.half_blocks(screen)
    assert len(blocks) == 32 and len(blocks[0]) == 128
    assert blocks[0][0] == "█" and blocks[0][9] == "▀" and blocks[1][0] == " "
    dots = sim.braille(screen)
    assert len(dots) == 16 and len(dots[0]) == 64
    assert dots[0][0] == chr(0x2800 | 0x01 | 0x02) and dots[0][4] == chr(0x2800 | 0x08)
    assert sim.cell_text(screen).plain.splitlines()[0][0] == chr(0x2800 | 0x01)


def test_the_event_feed_reads_the_serial_line():
    assert sim.describe({"t": "say", "text": "Station 3 is back"}) == "Station 3 is back"
    assert sim.describe({"t": "act", "seq": 4, "gid": 1, "n": 7, "events": [
        {"type": "take", "player": 0, "card": 3, "loot": [1, 0, 0, 0]},
        {"type": "steal", "player": 1, "from": 0, "loot": [1, 0, 0, 0]}]}) == \
        "P1 reveals the 3 and takes 1 red from the safe\n" \
        "steal: from P1, loot 1/0/0/0, player P2"  # no card: said field by field
    assert sim.describe({"t": "begin", "gid": 2, "header": {"game": "stack"}}) == \
        "— game 2: stack begins"
    assert sim.describe({"t": "err", "why": "no"}) == "serial: no"
    assert sim.describe({"t": "games", "games": []}) is None


class Pty:
    """`catnip sim ARGS` in a pseudo-terminal of 80x24, as a person runs it."""

    def __init__(self, *args: str) -> None:
        import fcntl
        import struct
        import termios

        self.leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        catnip = Path(sys.executable).parent / "catnip"
        self.proc = subprocess.Popen([str(catnip), "sim", *args], stdin=follower,
                                     stdout=follower, stderr=follower,
                                     env=dict(os.environ, TERM="xterm-256color"))
        os.close(follower)
        self.seen = b""

    def read_until(self, text: bytes, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while text not in self.seen:
            assert time.monotonic() < end, f"never showed {text!r}:\n{self.seen[-2000:]!r}"
            if select.select([self.leader], [], [], 0.1)[0]:
                self.seen += os.read(self.leader, 65536)

    def type(self, keys: bytes) -> None:
        os.write(self.leader, keys)

    def quit(self) -> int:
        self.type(b"q")
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.leader)


needs_a_terminal = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a POSIX pty")


@needs_a_terminal
def test_make_sim_plays_in_a_terminal_and_quits_cleanly(tmp_path):
    term = Pty("--journal", str(tmp_path))
    term.read_until(b"catnip setup")
    term.type(b"\r")  # OK on station 1: Meow Heist with every station
    term.read_until(b"Choose a card")
    assert term.quit() == 0
    assert b"Traceback" not in term.seen
    assert (tmp_path / "setup.json").exists()  # the table's flash is the folder given


@needs_a_terminal
@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_scenario_plays_in_real_time_and_then_the_keys_work(tmp_path, interpreter,
                                                              monkeypatch):
    monkeypatch.setenv("CATNIP_SIM_INTERPRETER", interpreter)
    term = Pty("--script", scenario(tmp_path, [
        {"station": 1, "press": "ok"}, {"expect": {"station": 3, "text": "Choose a card"}},
        {"station": 3, "press": "ok"}, {"expect": {"station": 3, "text": "Locked in"}}]))
    term.read_until(b"scenario played: no game ended")
    term.type(b"2\r")  # station 2 locks its card too
    term.read_until(b"Locked .23.")
    assert term.quit() == 0

