"""What can be checked here of catnip on a Windows laptop: COM port names in
help and messages, port discovery through pyserial's list_ports, folders
with spaces and a user name that is not ASCII, and consoles whose code page
(cp1252, cp437) lacks characters catnip prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
import serial

from catnip_host import ports
from catnip_host.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "heist-2p.json"
CATNIP = Path(sys.executable).parent / "catnip"
USER = "Zoë Ñandú 李"  # a user folder with spaces and letters beyond ASCII


def commands(group: click.Group, prefix: str = ""):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_every_port_option_names_a_windows_and_a_linux_port():
    with_port = {name: opt for name, command in commands(main) for opt in command.params
                 if "--port" in opt.opts and name != "serve"}  # serve's is the web port
    assert {"monitor", "calibrate", "deploy", "flash", "names", "sessions pull"} <= set(with_port)
    for name, option in with_port.items():
        assert "COM3" in option.help and "/dev/ttyACM0" in option.help, name


def _comports(*devices):
    return lambda: [SimpleNamespace(device=d, vid=v, pid=p) for d, v, p in devices]


def test_a_windows_pico_is_found_by_its_usb_ids_and_named_by_its_com_port(monkeypatch):
    monkeypatch.setattr(ports.sys, "platform", "win32")
    monkeypatch.setattr(ports.list_ports, "comports",
                        _comports(("COM1", None, None), ("COM7", 0x2E8A, 0x0005)))
    assert ports.find_pico() == "COM7"
    monkeypatch.setattr(ports.list_ports, "comports", _comports(("COM1", None, None)))
    with pytest.raises(ports.PortError, match=r"serial ports here: COM1\).*--port COM3"):
        ports.find_pico()


@pytest.mark.parametrize(("platform", "example"), [("linux", "/dev/ttyACM0"),
                                                   ("darwin", "/dev/cu.usbmodem"),
                                                   ("win32", "COM3")])
def test_a_missing_port_is_named_as_this_system_names_ports(monkeypatch, platform, example):
    monkeypatch.setattr(ports.sys, "platform", platform)
    monkeypatch.setattr(ports.list_ports, "comports", _comports())
    with pytest.raises(ports.PortError, match=f"--port {example}"):
        ports.find_pico()


def test_windows_port_errors_say_what_to_do(monkeypatch):
    """pyserial's own words on Windows: a port another program holds is
    'Access is denied' (busy, not a permission), a missing one
    FileNotFoundError."""
    monkeypatch.setattr(ports.sys, "platform", "win32")
    held = serial.SerialException("could not open port 'COM3': PermissionError(13, "
                                  "'Access is denied.', None, 5)")
    said = ports.explain("COM3", held)
    assert said.startswith("COM3 is busy: another program has it open (Thonny, mpremote")
    missing = serial.SerialException("could not open port 'COM9': FileNotFoundError(2, 'The "
                                     "system cannot find the file specified.', None, 2)")
    said = ports.explain("COM9", missing)
    assert said.startswith("COM9 does not exist: is the table plugged in?") and "COM3" in said


# ---- folders and consoles, as a person's commands meet them ---------------------------


def catnip(args: list[str], home: Path, encoding: str | None = None,
           interpreter: str | None = None) -> subprocess.CompletedProcess:
    """`catnip ARGS` with its per-user folders in `home`, on a console of
    `encoding` (PYTHONIOENCODING, as a legacy Windows code page)."""
    env = {k: v for k, v in os.environ.items() if k != "CATNIP_SIM_INTERPRETER"}
    env.update(XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    if encoding is not None:
        env["PYTHONIOENCODING"] = encoding
    if interpreter is not None:
        env["CATNIP_SIM_INTERPRETER"] = interpreter
    return subprocess.run([str(CATNIP), *args], capture_output=True, env=env, timeout=600,
                          cwd=home)


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_the_virtual_table_plays_in_folders_with_spaces_and_a_non_ascii_name(tmp_path,
                                                                             interpreter):
    home = tmp_path / USER
    flash = home / "My Table"
    store = home / "catnip games" / "évening.sqlite3"
    store.parent.mkdir(parents=True)
    flash.mkdir()
    out = catnip(["sim", "--script", str(SCENARIO), "--headless", "--journal", str(flash),
                  "--store", str(store)], home, interpreter=interpreter)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().startswith("Standings")
    assert (flash / "setup.json").is_file() and (flash / "journal").is_dir()
    listed = catnip(["sessions", "list", "--store", str(store)], home)
    assert listed.returncode == 0 and b"direct" in listed.stdout, listed.stderr.decode()


def test_the_per_user_store_lives_under_a_non_ascii_home(tmp_path):
    home = tmp_path / USER
    home.mkdir()
    out = catnip(["sim", "--script", str(SCENARIO), "--headless"], home)
    assert out.returncode == 0, out.stderr.decode()
    assert (home / "data" / "catnip" / "sessions.sqlite3").is_file()
    listed = catnip(["sessions", "list"], home)
    assert listed.returncode == 0 and b"direct" in listed.stdout, listed.stderr.decode()


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Path:
    """A home whose default store holds a game of two players named beyond
    what cp1252 and cp437 can show."""
    home = tmp_path_factory.mktemp("evening") / USER
    home.mkdir()
    assert catnip(["sim", "--script", str(SCENARIO), "--headless"], home).returncode == 0
    named = catnip(["players", "name", "1", "P1=李明", "P2=Zoë → Ana"], home)
    assert named.returncode == 0, named.stderr.decode()
    return home


@pytest.mark.parametrize("encoding", ["cp1252", "cp437"])
@pytest.mark.parametrize("args", [["--help"], ["sim", "--help"], ["players", "list"],
                                  ["stats"], ["sessions", "list"], ["replay", "1"],
                                  ["check-board", "direct"], ["export", "--format", "csv"],
                                  ["sim", "--script", str(SCENARIO), "--headless", "--no-store"]],
                         ids=lambda a: " ".join(a[:2]))
def test_a_legacy_console_shows_what_it_can_and_never_stops_a_command(evening, encoding, args):
    out = catnip(args, evening, encoding)
    assert out.returncode == 0, out.stderr.decode(encoding, "replace")
    assert b"Traceback" not in out.stderr
    if args[0] != "export":  # records go out as UTF-8 bytes (below), not console text
        out.stdout.decode(encoding)  # every byte a character of that code page
    if args[0] in ("players", "stats"):
        text = out.stdout.decode(encoding)
        assert "Zo" in text and "?" in text  # the arrow and the Chinese name could not show


def test_export_keeps_every_name_whatever_the_console(evening):
    """Records are bytes in UTF-8, not console text: nothing is replaced."""
    out = catnip(["export", "--format", "csv"], evening, "cp1252")
    assert "李明" in out.stdout.decode("utf-8-sig") and "Zoë → Ana" in out.stdout.decode("utf-8-sig")
