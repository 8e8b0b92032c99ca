"""`catnip deploy` against a board on the MicroPython unix port (tests/deployboard.py):
its USB serial is a pty, its REPL speaks the raw REPL and raw-paste mode byte
for byte, and its main.py is the deployed firmware's, running the real app on
the simulated table. mpremote's own transport does the talking.

Not covered here: the Pico's USB stack turning 0x03 into KeyboardInterrupt (the
Ctrl-C test's main.py does that itself), littlefs (the folder is a plain
directory), a soft reboot freeing the heap, and a real USB port appearing and
disappearing. The pico tier (tests/pico) deploys through the same code onto
the real rp2 build over socket://, without the restart its emulator cannot do.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
import serial
from click.testing import CliRunner

import deployrig
import mpunix
from catnip import wire
from catnip.flash.journal import Journal
from catnip_host import bundle, ports
from catnip_host.cli import main
from catnip_host.deploy import MANIFEST, DeployError, deploy
from catnip_host.pico import Waits

DIRECT = bundle.FIRMWARE / "boards" / "direct.json"
QUICK = Waits(stop=1.0, repl=3.0, raw=1.0, tries=2, boot=20.0)
WEDGED = Waits(stop=0.5, repl=0.5, raw=0.5, tries=2, boot=2.0)


@pytest.fixture()
def board(tmp_path):
    with deployrig.PtyBoard(tmp_path / "flash") as b:
        yield b


def deployed(board, firmware: Path = bundle.FIRMWARE, **kw):
    kw.setdefault("waits", QUICK)
    return deploy(board.port, kw.pop("board_file", DIRECT), firmware=firmware, **kw)


def words(output: str) -> str:
    """What the tool said, as one line: wherever the terminal wrapped it."""
    return " ".join(output.split())


def test_a_first_deploy_writes_the_compiled_firmware_and_the_app_starts(board):
    out = deployed(board)
    assert out.how == "found it at the REPL"
    items = bundle.firmware("x64")  # the unix port's processor, as the board reported it
    assert {c.action for c in out.plan.changes} == {"add"}
    assert sorted(c.path for c in out.plan.changes) == sorted(
        [i.path for i in items] + ["board.json"])
    flash = deployrig.held(board.flash)
    for item in items:
        assert flash[item.path] == item.data, item.path
    assert flash["board.json"] == DIRECT.read_bytes()
    assert not (board.flash / "catnip" / "table" / "app.py").exists()  # compiled: .mpy only
    manifest = json.loads(flash[MANIFEST])
    assert manifest["files"] == {i.path: i.sha[:16] for i in items}
    assert out.hello["fw"] == bundle.VERSION and out.hello["board"] == "direct"
    assert out.hello["stations"] == 4


def test_one_changed_file_is_the_only_one_sent_and_the_app_is_stopped_first(board, tmp_path):
    fw = deployrig.firmware_copy(tmp_path / "fw")
    whole = deployed(board, fw)
    remote = fw / "catnip" / "link" / "remote.py"
    remote.write_text(remote.read_text().replace("PULL_PAGE = 24", "PULL_PAGE = 20"))
    before = deployrig.held(board.flash)
    out = deployed(board, fw)
    assert out.how.startswith("stopped the app")
    # The module, and the release note with the new sources' digest.
    assert [(c.action, c.path) for c in out.plan.changes] == [
        ("change", "catnip/link/remote.mpy"), ("change", bundle.RELEASE[:-3] + ".mpy")]
    after = deployrig.held(board.flash)
    assert {p for p in after if after[p] != before.get(p)} == {
        "catnip/link/remote.mpy", "catnip/release.mpy", MANIFEST}
    size = sum(c.size for c in out.plan.changes)
    assert out.sent < 2 * size + 8000, (out.sent, size)  # base64 and the steps around it
    assert out.sent * 20 < whole.sent
    assert out.hello["src"] == bundle.digest(fw) and out.hello["build"] == "files"
    # A change that compiles to the same bytes (a comment) sends only the new digest.
    remote.write_text(remote.read_text() + "# a note\n")
    assert [c.path for c in deployed(board, fw).plan.changes] == ["catnip/release.mpy"]


def test_dry_run_lists_added_changed_and_removed_with_their_bytes_and_writes_nothing(board,
                                                                                  tmp_path):
    fw = deployrig.firmware_copy(tmp_path / "fw")
    deployed(board, fw)
    sound = fw / "catnip" / "parts" / "sound.py"
    sound.write_text(sound.read_text() + "X = 1\n")
    (fw / "catnip" / "extra.py").write_text("WORD = 'new'\n")
    (fw / "catnip" / "flash" / "highscores.py").unlink()
    before = deployrig.held(board.flash)
    result = CliRunner().invoke(main, ["deploy", "--port", board.port, "--dry-run",
                                       "--firmware", str(fw)], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert deployrig.held(board.flash) == before
    sizes = {i.path: len(i.data) for i in bundle.firmware("x64", fw)}
    removed = len(before["catnip/flash/highscores.mpy"])
    for mark, path, size in (("+", "catnip/extra.mpy", sizes["catnip/extra.mpy"]),
                             ("~", "catnip/parts/sound.mpy", sizes["catnip/parts/sound.mpy"]),
                             ("-", "catnip/flash/highscores.mpy", removed)):
        assert any(line.split()[:5] == ["│", mark, "│", path, "│"] and f"{size:,}" in line
                   for line in result.output.splitlines()), (path, result.output)
    said = words(result.output)
    assert "1 added, 2 changed, 1 removed" in said  # and the sources' new digest
    total = sizes["catnip/extra.mpy"] + sizes["catnip/parts/sound.mpy"] + sizes["catnip/release.mpy"]
    assert f"{total:,} bytes to send" in said
    assert "the table is up: firmware 0.1.0, board direct, 4 stations" in said


def test_files_no_longer_shipped_and_sources_shadowing_modules_are_removed(board, tmp_path):
    fw = deployrig.firmware_copy(tmp_path / "fw")
    (fw / "catnip" / "extra").mkdir()
    (fw / "catnip" / "extra" / "__init__.py").write_text("")
    (fw / "catnip" / "extra" / "more.py").write_text("N = 2\n")
    deployed(board, fw)
    assert (board.flash / "catnip" / "extra" / "more.mpy").exists()
    # What a mip install or a hand copy leaves: a source the Pico would import
    # instead of its .mpy, and a module no deploy shipped.
    (board.flash / "catnip" / "table" / "app.py").write_text("raise ImportError('stale')\n")
    (board.flash / "catnip" / "gone.py").write_text("")
    (board.flash / "main.py.part").write_text("import cat")  # a write cut short
    (board.flash / "setup.json").write_text("{}")
    (fw / "catnip" / "extra" / "more.py").unlink()
    (fw / "catnip" / "extra" / "__init__.py").unlink()
    (fw / "catnip" / "extra").rmdir()
    out = deployed(board, fw)
    assert sorted(c.path for c in out.plan.changes if c.action == "remove") == [
        "catnip/extra/__init__.mpy", "catnip/extra/more.mpy", "catnip/gone.py",
        "catnip/table/app.py", "main.py.part"]
    assert not (board.flash / "catnip" / "extra").exists()
    assert not (board.flash / "catnip" / "table" / "app.py").exists()
    assert (board.flash / "setup.json").read_text() == "{}"  # the table's own files stay
    assert (board.flash / "journal").is_dir()
    assert out.hello["fw"] == bundle.VERSION  # the app imports its .mpy again


def test_a_game_in_play_is_stopped_cleanly_kept_in_the_journal_and_offered_after(board,
                                                                                 tmp_path):
    deployed(board)
    with serial.Serial(board.port, timeout=0.2) as port:
        port.write(wire.encode("start", 1, {"game": "heist", "config": {}, "seats": [0, 1]},
                               mark=wire.LAPTOP))
        started = _frame(port, "started")
    assert started["gid"] >= 1
    out = deployed(board, board_file=None, resend=True)  # everything again, mid-game
    assert out.how.startswith("stopped the app")
    assert "catnip: app stopped (stopped from the laptop); the REPL is yours" in out.heard
    journal = Journal(str(board.flash / "journal"))
    assert journal.resumable()[0] == started["gid"]  # offered first at the next power-up
    assert dict(journal.games())[started["gid"]] not in ("finished", "abandoned")


def _frame(port: serial.Serial, kind: str, seconds: float = 20) -> dict:
    reader = wire.Reader()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for item in reader.feed(port.read(256)):
            if item[0] == "frame" and item[2] == kind:
                return item[3]
            assert not (item[0] == "frame" and item[2] == "err"), item
    raise AssertionError(f"no {kind} frame")


def test_an_app_deaf_to_the_wire_is_interrupted_with_ctrl_c(board):
    # The Pico's USB stack raises KeyboardInterrupt on 0x03 while Ctrl-C is on;
    # this main.py does so itself.
    (board.flash / "main.py").write_text(
        "import sys\nwhile sys.stdin.buffer.read(1) != b'\\x03':\n    pass\n"
        "raise KeyboardInterrupt\n")
    board.close()
    with deployrig.PtyBoard(board.flash) as again:
        out = deployed(again)
        assert out.how == "interrupted the app with Ctrl-C"
        assert out.hello["board"] == "direct"


def test_a_wedged_app_gets_the_back_at_power_up_recovery_and_nothing_changes(board):
    stuck = "import micropython, time\nmicropython.kbd_intr(-1)\nwhile True:\n    time.sleep(1)\n"
    (board.flash / "main.py").write_text(stuck)
    board.close()
    with deployrig.PtyBoard(board.flash) as again:
        with pytest.raises(DeployError) as e:
            deployed(again, waits=WEDGED)
    assert "hold BACK on any station while you plug it back in" in str(e.value)
    assert sorted(os.listdir(board.flash)) == ["main.py"]
    assert (board.flash / "main.py").read_text() == stuck


def test_a_bad_board_file_is_refused_before_the_port_is_opened(tmp_path):
    bad = tmp_path / "board.json"
    data = json.loads(DIRECT.read_text())
    data["stations"][0]["oled"]["addr"] = "0x99"
    bad.write_text(json.dumps(data))
    with pytest.raises(DeployError) as e:
        deploy(str(tmp_path / "no-such-port"), bad)
    assert "has problems, so nothing was deployed" in str(e.value)
    assert "stations[0].oled" in str(e.value)


def test_a_bad_calibration_is_refused(tmp_path):
    cal = tmp_path / "calibration.json"
    cal.write_text(json.dumps({"version": 1}))
    with pytest.raises(DeployError, match="is not a tray calibration"):
        deploy(str(tmp_path / "no-such-port"), DIRECT, cal)


def test_a_calibration_is_written_when_it_differs_and_kept_otherwise(board, tmp_path):
    from catnip.tray import Calibration

    cal = tmp_path / "calibration.json"
    cal.write_text(json.dumps(Calibration(80, [100000], [1], 4000, 100, 40, 5).to_dict()))
    out = deployed(board, calibration=cal)
    assert ("add", "calibration.json") in [(c.action, c.path) for c in out.plan.changes]
    assert (board.flash / "calibration.json").read_bytes() == cal.read_bytes()
    again = deployed(board, calibration=cal)
    assert again.plan.changes == []
    out = deployed(board, board_file=None)
    assert (board.flash / "calibration.json").read_bytes() == cal.read_bytes()


def test_a_fresh_board_without_a_chosen_board_file_says_how_to_choose(board):
    with pytest.raises(DeployError, match="--board direct, --board mux"):
        deployed(board, board_file=None)
    assert sorted(os.listdir(board.flash)) == []


def test_no_pico_two_picos_and_a_busy_port_are_named(monkeypatch, tmp_path, board):
    class Port:
        def __init__(self, device):
            self.device, self.vid, self.pid = device, ports.PICO_VID, ports.PICO_PID

    monkeypatch.setattr(ports.list_ports, "comports", lambda: [])
    with pytest.raises(ports.PortError, match="no Pico found on USB"):
        deploy(None, DIRECT)
    monkeypatch.setattr(ports.list_ports, "comports",
                        lambda: [Port("/dev/ttyACM0"), Port("/dev/ttyACM1")])
    with pytest.raises(ports.PortError, match="2 Picos are plugged in"):
        deploy(None, DIRECT)
    with serial.Serial(board.port, exclusive=True):
        result = CliRunner().invoke(main, ["deploy", "--port", board.port, "--board", "direct"])
    assert result.exit_code == 1
    assert f"{board.port} is busy: another program has it open" in words(result.output)
    assert os.listdir(board.flash) == []


def test_a_refusal_after_stopping_the_app_gives_the_table_back(board, monkeypatch):
    deployed(board)
    monkeypatch.setattr(bundle, "MPY_VERSION", (6, 2))  # as if the Pico ran an older build
    with pytest.raises(DeployError, match="install MicroPython 1.23 or newer"):
        deployed(board)
    with serial.Serial(board.port, timeout=0.2) as port:
        port.write(wire.encode("hello", 1, {}, mark=wire.LAPTOP))
        assert _frame(port, "hello")["board"] == "direct"  # the app runs again


def test_the_board_must_load_what_this_compiler_writes():
    assert bundle.arch_of(4 << 10 | 3 << 8 | 6) == "armv6m"  # the RPI_PICO build
    assert bundle.arch_of(7 << 10 | 3 << 8 | 6) == "armv7emsp"  # a Pico 2
    with pytest.raises(bundle.BundleError, match="loads .mpy v5.0.*install MicroPython"):
        bundle.arch_of(4 << 10 | 5)
    with pytest.raises(bundle.BundleError, match="no processor for native code"):
        bundle.arch_of(3 << 8 | 6)


def test_the_mip_package_lists_exactly_the_shipped_files():
    written = (bundle.FIRMWARE / "package.json").read_text()
    assert written == bundle.package_json(), \
        "firmware/package.json is out of date: run `python -m catnip_host.bundle`"
    package = json.loads(written)
    assert package["version"] == bundle.VERSION
    shipped = [p.as_posix() for p in bundle.sources()]
    assert [dest for dest, _ in package["urls"]] == shipped
    for dest, source in package["urls"]:
        assert (bundle.FIRMWARE / source).is_file() and dest == source
    assert "main.py" in shipped and not any(p.startswith("boards/") for p in shipped)


def test_a_mip_install_of_the_package_boots_and_a_deploy_replaces_its_sources(board):
    mpremote = [mpunix.tool("mpremote"), "connect", board.port, "resume"]
    # --target .: the board's folder here; on a Pico, --target / (README).
    subprocess.run(mpremote + ["mip", "install", "--target", ".",
                               str(bundle.FIRMWARE / "package.json")], check=True,
                   capture_output=True, timeout=120)
    subprocess.run(mpremote + ["cp", str(DIRECT), ":board.json"], check=True,
                   capture_output=True, timeout=60)
    assert (board.flash / "catnip" / "table" / "app.py").read_bytes() == \
        (bundle.FIRMWARE / "catnip" / "table" / "app.py").read_bytes()
    out = deployed(board, board_file=None)
    assert out.how == "found it at the REPL"  # mip leaves the REPL; nothing restarted it
    removed = sorted(c.path for c in out.plan.changes if c.action == "remove")
    assert removed == sorted(p.as_posix() for p in bundle.sources()
                             if p.suffix == ".py" and p.as_posix() != "main.py")
    assert not list(board.flash.rglob("catnip/**/*.py"))
    assert out.hello["board"] == "direct"


def test_deploy_help_names_every_option():
    out = CliRunner().invoke(main, ["deploy", "--help"]).output
    for option in ("--port", "--board", "--calibration", "--dry-run", "--all", "--no-restart",
                   "--firmware"):
        assert option in out


def test_a_dry_run_on_a_fresh_board_lists_everything_and_leaves_it_at_its_repl(board):
    result = CliRunner().invoke(main, ["deploy", "--port", board.port, "--board", "direct",
                                       "--dry-run"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert os.listdir(board.flash) == []
    added = len(bundle.firmware("x64")) + 1  # and board.json
    assert f"{added} added, 0 changed, 0 removed" in words(result.output)
    assert "the table is up" not in result.output  # nothing there to start
    with serial.Serial(board.port, timeout=0.5) as port:
        port.write(b"\r")
        assert port.read(64).endswith(b">>> ")  # the friendly REPL, as it was found


def test_mpremote_is_pinned_to_the_release_whose_serial_transport_pico_uses():
    """pico.py drives mpremote's SerialTransport (read_until, exec_raw,
    in_raw_repl), which is not a public API: the next release may change it."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.version import Version

    root = bundle.FIRMWARE.parent
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    spec = next(Requirement(d) for d in deps if Requirement(d).name == "mpremote").specifier
    pinned = next(line for line in (root / "requirements-dev.txt").read_text().splitlines()
                  if line.startswith("mpremote=="))
    assert Version(version("mpremote")) in spec
    assert Version(pinned.split("==")[1]) in spec
    assert Version("1.30.0") not in spec and Version("1.28.0") not in spec
