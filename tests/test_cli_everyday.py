"""Everyday command-line manners: catnip --version, a monitor whose output
is a file writes as it goes, and a mistyped --store is said, not made."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from catnip_host.cli import main
from recordrig import engine_store


def test_version_says_the_installed_version():
    from importlib.metadata import version

    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0 and out.output.strip() == f"catnip {version('catnip-table')}"


def test_monitor_into_a_file_writes_as_it_goes(tmp_path):
    log = tmp_path / "monitor.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "catnip_host", "monitor", "--port",
                                 "loop://", "--store", str(tmp_path / "s.sqlite3")],
                                stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while "no answer to hello" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
            written = log.read_text()  # while it still runs
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
    assert "connected to loop://, storing in" in written, written
    assert "The laptop: no answer to hello yet" in written


@pytest.mark.parametrize("command", [["export"], ["stats"], ["players", "list"],
                                     ["sessions", "list"], ["sessions", "show", "1"],
                                     ["replay", "1"], ["players", "name", "1", "P1=Al"]])
def test_a_mistyped_store_is_said_and_not_created(tmp_path, command):
    engine_store(tmp_path / "sessions.sqlite3", [("heist", {"players": 2}, "s 1")], 1.78e9)
    typo = tmp_path / "sesions.sqlite3"
    out = CliRunner().invoke(main, [*command, "--store", str(typo)])
    assert out.exit_code == 1, out.output
    assert f"there is no session store at {typo}" in out.output
    assert "that folder has sessions.sqlite3" in out.output
    assert not typo.exists() and not os.path.exists(f"{typo}-wal")


def test_the_commands_that_record_start_a_new_store(tmp_path):
    fresh = tmp_path / "new" / "sessions.sqlite3"
    scenario = os.path.join(os.path.dirname(__file__), "scenarios", "heist-2p.json")
    out = CliRunner().invoke(main, ["sim", "--script", scenario, "--headless", "--store",
                                    str(fresh)])
    assert out.exit_code == 0 and fresh.is_file(), out.output


def test_a_journal_folder_that_is_not_there_is_refused_saying_why(tmp_path):
    scenario = os.path.join(os.path.dirname(__file__), "scenarios", "heist-2p.json")
    missing = tmp_path / "no-such-flash"
    out = CliRunner().invoke(main, ["sim", "--journal", str(missing), "--script", scenario,
                                    "--headless", "--no-store"])
    assert out.exit_code == 2 and "does not exist" in out.output, out.output
    assert not missing.exists()


def test_the_virtual_table_says_why_it_cannot_use_a_flash_folder(tmp_path):
    from catnip_host.sim import paths

    afile = tmp_path / "flash"
    afile.write_text("")
    board = paths.board_file("direct")
    for folder, why in ((tmp_path / "gone", "there is no such folder"),
                        (afile, "it is a file, not a folder")):
        proc = subprocess.run(paths.command(board, folder, "fast"), capture_output=True,
                              text=True, timeout=60, env=paths.environment())
        said = proc.stdout + proc.stderr
        assert proc.returncode != 0, said
        assert f"cannot use {folder} as the table's flash folder: {why}" in said, said
