"""`catnip flash`: the image onto a Pico in BOOTSEL mode (a folder standing in
for its RPI-RP2 drive, a script for picotool), then the table's hello
compared with this catnip's build (a board on the unix port, tests/deployrig)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import deployrig
from catnip_host import bundle
from catnip_host.cli import main
from catnip_host.deploy import deploy
from catnip_host.flash import FlashError, find_drives, wait_for_table, write
from catnip_host.image import agreement
from catnip_host.pico import Waits

INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
QUICK = Waits(stop=1.0, repl=3.0, raw=1.0, tries=2, boot=20.0)


def drive(root: Path, name: str = "RPI-RP2", info: str = INFO) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "INFO_UF2.TXT").write_text(info)
    (d / "INDEX.HTM").write_text("<html></html>")
    return d


@pytest.fixture()
def uf2(tmp_path) -> Path:
    path = tmp_path / "catnip-pico.uf2"
    path.write_bytes(os.urandom(4 * 512))
    return path


def test_the_image_is_copied_onto_the_rpi_rp2_drive_found_among_the_mounts(tmp_path, uf2):
    media = tmp_path / "media"
    (media / "USBSTICK").mkdir(parents=True)
    d = drive(media)
    assert find_drives([media, tmp_path / "nothing"]) == [d]
    assert write(uf2, roots=[media], picotool="") == f"copied onto {d}"
    assert (d / uf2.name).read_bytes() == uf2.read_bytes()


def test_a_drive_that_is_not_a_pico_in_bootsel_is_refused_and_left_alone(tmp_path, uf2):
    stick = tmp_path / "USBSTICK"
    stick.mkdir()
    with pytest.raises(FlashError, match="not a Pico in BOOTSEL mode"):
        write(uf2, stick)
    other = drive(tmp_path, "RP2350", INFO.replace("RPI-RP2", "RP2350"))
    with pytest.raises(FlashError, match="hold BOOTSEL while plugging"):
        write(uf2, other)
    assert sorted(p.name for p in stick.iterdir()) == []
    assert uf2.name not in os.listdir(other)


def test_no_drive_or_two_drives_say_what_to_do(tmp_path, uf2):
    with pytest.raises(FlashError, match="no Pico in BOOTSEL mode found"):
        write(uf2, roots=[tmp_path], picotool="")
    drive(tmp_path / "a")
    drive(tmp_path / "b")
    with pytest.raises(FlashError, match="2 Picos are in BOOTSEL mode"):
        write(uf2, roots=[tmp_path / "a", tmp_path / "b"], picotool="")


def test_picotool_writes_it_when_installed(tmp_path, uf2):
    log = tmp_path / "picotool.log"
    tool = tmp_path / "picotool"
    tool.write_text(f"#!/bin/sh\necho \"$@\" > {log}\n")
    tool.chmod(0o755)
    assert write(uf2, roots=[], picotool=str(tool)) == f"written with {tool} load -x"
    assert log.read_text().split() == ["load", "-x", str(uf2)]
    tool.write_text("#!/bin/sh\necho 'ERROR: No accessible RP-series devices' >&2\nexit 1\n")
    with pytest.raises(FlashError, match="No accessible RP-series devices"):
        write(uf2, roots=[], picotool=str(tool))


def test_flash_writes_the_given_image_and_says_where(tmp_path, uf2):
    d = drive(tmp_path)
    result = CliRunner().invoke(main, ["flash", "--uf2", str(uf2), "--drive", str(d),
                                       "--wait", "0"])
    assert result.exit_code == 0, result.output
    assert f"catnip-pico.uf2: copied onto {d}" in result.output
    result = CliRunner().invoke(main, ["flash", "--uf2", str(uf2), "--drive", str(tmp_path),
                                       "--wait", "0"])
    assert result.exit_code == 1 and "not a Pico in BOOTSEL mode" in result.output


def test_the_table_that_comes_up_is_compared_with_this_catnips_build(tmp_path):
    fw = deployrig.firmware_copy(tmp_path / "fw")
    with deployrig.PtyBoard(tmp_path / "flash") as board:
        deploy(board.port, bundle.FIRMWARE / "boards" / "direct.json", firmware=fw, waits=QUICK)
        hello = wait_for_table(board.port, 20)
    assert isinstance(hello, dict), hello
    assert hello["src"] == bundle.digest(fw) == bundle.digest() and hello["build"] == "files"
    same, sentence = agreement(hello)
    assert same and sentence.endswith("from .mpy files on its flash, sources "
                                      f"{bundle.digest()}: the same as this catnip's")
    sound = fw / "catnip" / "parts" / "sound.py"
    sound.write_text(sound.read_text() + "X = 1\n")
    same, sentence = agreement(hello, fw)
    assert not same
    assert f"but this catnip is {bundle.VERSION} with sources {bundle.digest(fw)}" in sentence
    assert "`catnip deploy` to keep stock MicroPython" in sentence
