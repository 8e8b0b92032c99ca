"""Every standard tool reaches the REPL of a running table: the app reads a
Ctrl-C (0x03) as a byte and stops for it between two commands of its line,
so `mpremote ls`, `cp`, `exec` and Thonny's Stop work mid-game, nothing
accepted is lost and the game is offered at the next power-up. The laptop's
own frames never carry 0x01-0x05, so catnip's wire never stops the app.

Against tests/deployboard.py (the real app on the unix port behind a pty,
MicroPython's REPL byte for byte) with the real mpremote, which soft-resets
in the raw REPL first (main.py does not run then, as on the Pico). The pico
tier (tests/pico/test_pico_repl.py) does the same on the real rp2 build with
moves in play and a journal write under way."""

from __future__ import annotations

import os
import select
import subprocess
import time

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

import deployrig
import mpunix
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from test_deploy import _frame, deployed

texts = st.text(max_size=30)
fields = st.dictionaries(texts, st.one_of(texts, st.integers(), st.lists(texts, max_size=3)),
                         max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(wire.COMMANDS)), st.integers(0, wire.MAX_SEQ), fields)
def test_no_laptop_frame_carries_a_byte_the_repl_acts_on(kind, seq, fields):
    frame = wire.encode(kind, seq, fields, mark=wire.LAPTOP)
    assert not set(frame) & {1, 2, 3, 4, 5}, frame


def test_the_line_stops_at_ctrl_c_and_leaves_what_follows_to_the_repl():
    r, w = os.pipe()
    try:
        got = []
        line = Line(os.fdopen(r, "rb", buffering=0), open(os.devnull, "wb"),
                    lambda word, fields: got.append(word))
        os.write(w, wire.encode("hello", 1, {}, mark=wire.LAPTOP) + b"\r\x03\r\x01")
        with pytest.raises(KeyboardInterrupt):
            line.poll(budget=4096)
        assert got == ["hello"]  # the command before it was carried out
        assert select.select([r], [], [], 0)[0] and os.read(r, 16) == b"\r\x01"  # the REPL's
    finally:
        os.close(w)


def _mpremote(board, *args: str, timeout: float = 30) -> tuple[str, float]:
    """The real mpremote against the board: its output and how long it took."""
    t = time.monotonic()
    out = subprocess.run([mpunix.tool("mpremote"), "connect", board.port, *args],
                         capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout, time.monotonic() - t


def _playing(board) -> int:
    deployed(board)
    with serial.Serial(board.port, timeout=0.2) as port:
        port.write(wire.encode("start", 1, {"game": "heist", "config": {}, "seats": [0, 1]},
                               mark=wire.LAPTOP))
        return _frame(port, "started")["gid"]


@pytest.fixture()
def board(tmp_path):
    with deployrig.PtyBoard(tmp_path / "flash") as b:
        yield b


def test_mpremote_ls_cp_and_exec_reach_a_table_mid_game(board, tmp_path):
    gid = _playing(board)
    listed, took = _mpremote(board, "ls")
    assert "board.json" in listed and took < 3, (listed, took)
    note = tmp_path / "note.txt"
    note.write_text("from the laptop\n")
    _mpremote(board, "cp", str(note), ":note.txt")
    assert (board.flash / "note.txt").read_text() == "from the laptop\n"
    said, _ = _mpremote(board, "exec", "print(6 * 7)")
    assert said.strip() == "42"
    log = (board.flash.parent / "flash.log")
    assert "Traceback" not in log.read_text()
    journal = Journal(str(board.flash / "journal"))
    assert journal.resumable()[0] == gid  # offered at the next power-up
    assert dict(journal.games())[gid] == "playing"


def test_thonny_stop_gives_the_repl_and_a_soft_reboot_starts_the_app_again(board):
    gid = _playing(board)
    with serial.Serial(board.port, timeout=0.2) as port:
        port.write(b"\x03")  # Thonny's Stop, or Ctrl-C in any terminal
        heard = _until(port, b">>> ")
        assert b"catnip: app stopped (Ctrl-C); the REPL is yours" in heard, heard
        port.write(b"print(6 * 7)\r")
        assert b"42" in _until(port, b">>> ")
        port.write(b"\x04")  # Ctrl-D at the friendly REPL: a soft reboot runs main.py
        _until(port, b"MPY: soft reboot")
        port.write(wire.encode("hello", 2, {}, mark=wire.LAPTOP))
        hello = _frame(port, "hello")
    assert hello["board"] == "direct" and hello["game"] is None  # setup offers the game
    assert Journal(str(board.flash / "journal")).resumable()[0] == gid


def _until(port: serial.Serial, text: bytes, seconds: float = 20) -> bytes:
    heard = b""
    deadline = time.monotonic() + seconds
    while text not in heard:
        assert time.monotonic() < deadline, heard[-500:]
        heard += port.read(256)
    return heard



def test_mip_install_reaches_a_table_mid_game(board, tmp_path):
    gid = _playing(board)
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "hello.py").write_text("WORD = 'meow'\n")
    (package / "package.json").write_text('{"urls": [["hello.py", "hello.py"]], "version": "1"}')
    # --target .: the board's folder here; on a Pico, --target /lib or /
    _mpremote(board, "mip", "install", "--target", ".", str(package / "package.json"))
    assert (board.flash / "hello.py").read_text() == "WORD = 'meow'\n"
    said, _ = _mpremote(board, "exec", "import hello; print(hello.WORD)")
    assert said.strip() == "meow"
    assert Journal(str(board.flash / "journal")).resumable()[0] == gid
