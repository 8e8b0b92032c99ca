"""`catnip flash`: the image onto a Pico in BOOTSEL mode (a folder standing in
for its RPI-RP2 drive, a script for picotool), then the table's hello
compared with this catnip's build (a board on the unix port, tests/deployrig)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import deployrig
import uf2rig
from catnip_host import bundle, tree
from catnip_host import image as images
from catnip_host.cli import main
from catnip_host.deploy import deploy
from catnip_host.flash import FlashError, Target, find_drives, find_target, wait_for_table
from catnip_host.image import agreement
from catnip_host.pico import Waits
from catnip_host.uf2 import RP2350_ARM_S
from uf2rig import INFO_RP2040, INFO_RP2350

QUICK = Waits(stop=1.0, repl=3.0, raw=1.0, tries=2, boot=20.0)


def drive(root: Path, name: str = "RPI-RP2", info: str = INFO_RP2040) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "INFO_UF2.TXT").write_text(info)
    (d / "INDEX.HTM").write_text("<html></html>")
    return d


@pytest.fixture()
def uf2(tmp_path) -> Path:
    path = tmp_path / "catnip-pico.uf2"
    path.write_bytes(uf2rig.image(8))
    return path


def test_the_image_is_copied_onto_the_bootsel_drive_found_among_the_mounts(tmp_path, uf2):
    media = tmp_path / "media"
    (media / "USBSTICK").mkdir(parents=True)
    d = drive(media)
    assert find_drives([media, tmp_path / "nothing"]) == [d]
    target = find_target(roots=[media], picotool="")
    assert target == Target("RP2040", d)
    assert target.write(uf2) == f"copied onto {d}"
    assert (d / uf2.name).read_bytes() == uf2.read_bytes()


def test_a_pico_2_drive_is_found_by_its_chip_and_takes_only_rp2350_images(tmp_path, uf2):
    d = drive(tmp_path, "RP2350", INFO_RP2350)
    assert find_target(roots=[tmp_path], picotool="") == Target("RP2350", d)
    with pytest.raises(FlashError, match="is for the RP2040 .* this Pico is an RP2350: it would "
                                         "not start; nothing was written"):
        Target("RP2350", d).write(uf2)
    assert uf2.name not in os.listdir(d)
    pico2 = tmp_path / "catnip-pico2.uf2"
    pico2.write_bytes(uf2rig.image(8, RP2350_ARM_S))
    assert Target("RP2350", d).write(pico2) == f"copied onto {d}"


def test_a_drive_that_is_not_a_pico_in_bootsel_is_refused_and_left_alone(tmp_path, uf2):
    stick = tmp_path / "USBSTICK"
    stick.mkdir()
    with pytest.raises(FlashError, match="not a Pico in BOOTSEL mode"):
        find_target(stick)
    other = drive(tmp_path, "SAMD21", INFO_RP2040.replace("RPI-RP2", "SAMD21-ACME"))
    with pytest.raises(FlashError, match="hold BOOTSEL while plugging"):
        find_target(other)
    assert sorted(p.name for p in stick.iterdir()) == []
    assert uf2.name not in os.listdir(other)


def test_no_drive_or_two_drives_say_what_to_do(tmp_path):
    with pytest.raises(FlashError, match="no Pico in BOOTSEL mode found"):
        find_target(roots=[tmp_path], picotool="")
    drive(tmp_path / "a")
    drive(tmp_path / "b", "RP2350", INFO_RP2350)
    with pytest.raises(FlashError, match="2 Picos are in BOOTSEL mode"):
        find_target(roots=[tmp_path / "a", tmp_path / "b"], picotool="")


def test_picotool_finds_the_chip_and_writes_it_when_installed(tmp_path, uf2):
    log = tmp_path / "picotool.log"
    tool = tmp_path / "picotool"
    tool.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n"
                    "[ \"$1\" = info ] && printf 'Device Information\\n type:   RP2040\\n'\n"
                    "exit 0\n")
    tool.chmod(0o755)
    target = find_target(roots=[], picotool=str(tool))
    assert target == Target("RP2040", tool=str(tool))
    assert target.write(uf2) == f"written with {tool} load -x"
    assert log.read_text().splitlines() == ["info -d", f"load -x {uf2}"]
    with pytest.raises(FlashError, match="is for the RP2040"):
        Target("RP2350", tool=str(tool)).write(uf2)
    assert len(log.read_text().splitlines()) == 2  # refused before picotool was asked
    tool.write_text("#!/bin/sh\necho 'ERROR: No accessible RP-series devices' >&2\nexit 1\n")
    with pytest.raises(FlashError, match="picotool found none .ERROR: No accessible RP-series devices"):
        find_target(roots=[], picotool=str(tool))
    with pytest.raises(FlashError, match="picotool could not write catnip-pico.uf2: ERROR: No"):
        target.write(uf2)


def test_flash_writes_the_given_image_and_says_where(tmp_path, uf2):
    d = drive(tmp_path)
    result = CliRunner().invoke(main, ["flash", "--uf2", str(uf2), "--drive", str(d),
                                       "--wait", "0"])
    assert result.exit_code == 0, result.output
    assert f"catnip-pico.uf2: copied onto {d}" in result.output
    result = CliRunner().invoke(main, ["flash", "--uf2", str(uf2), "--drive", str(tmp_path),
                                       "--wait", "0"])
    assert result.exit_code == 1 and "not a Pico in BOOTSEL mode" in result.output


@pytest.mark.parametrize("data, words", [
    (os.urandom(8 * 512), "random.uf2 is not a UF2 image"),
    (uf2rig.image(8)[:-512], "random.uf2 is cut short: 7 of its 8 rp2040 blocks"),
    (uf2rig.image(8, RP2350_ARM_S), "random.uf2 is for the RP2350"),
])
def test_flash_refuses_anything_but_a_whole_image_for_the_drives_chip(tmp_path, data, words):
    d = drive(tmp_path)
    bad = tmp_path / "random.uf2"
    bad.write_bytes(data)
    result = CliRunner().invoke(main, ["flash", "--uf2", str(bad), "--drive", str(d),
                                       "--wait", "0"])
    assert result.exit_code == 1 and words in result.output, result.output
    assert "nothing was written" in result.output
    assert sorted(os.listdir(d)) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_an_installed_catnip_flashes_the_image_it_carries_of_its_own_sources(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setattr(tree, "ROOT", tree.INSTALLED)
    monkeypatch.setattr(images, "SHIPPED", tmp_path)
    with pytest.raises(images.ImageError, match="carries no catnip-pico2.uf2 of its own"):
        images.current("RP2350")
    (tmp_path / "catnip-pico2.uf2").write_bytes(uf2rig.image(3, RP2350_ARM_S))
    info = {"version": bundle.VERSION, "digest": bundle.digest(), "made": images.made_digest(),
            "size": 768, "modules": ["catnip/boot.py"], "board": "RPI_PICO2"}
    (tmp_path / "catnip-pico2.json").write_text(json.dumps(info))
    got = images.current("RP2350")
    assert (got.uf2, got.board, got.digest) == (tmp_path / "catnip-pico2.uf2", images.PICO2,
                                                bundle.digest())
    for other in ({"digest": "0" * 12}, {"made": "0" * 12}):  # other sources, or made otherwise
        (tmp_path / "catnip-pico2.json").write_text(json.dumps(info | other))
        with pytest.raises(images.ImageError, match="carries no catnip-pico2.uf2"):
            images.current("RP2350")


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
