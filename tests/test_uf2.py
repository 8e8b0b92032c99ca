"""A UF2 is read and checked before it is written to a Pico: whole, numbered,
and made for the chip whose BOOTSEL drive will take it."""

from __future__ import annotations

import os

import pytest

from catnip_host import uf2
from uf2rig import INFO_RP2040, INFO_RP2350, block, image


def test_each_chip_takes_its_own_image():
    got = uf2.check(image(5), "RP2040")
    assert (got.blocks, got.chip, got.family_name) == (5, "RP2040", "rp2040")
    got = uf2.check(image(7, uf2.RP2350_ARM_S), "RP2350")  # the E10 block is not counted
    assert (got.blocks, got.chip, got.family_name) == (7, "RP2350", "rp2350-arm-s")
    assert uf2.check(image(3, uf2.RP2350_RISCV, e10=False), "RP2350").chip == "RP2350"


@pytest.mark.parametrize("data, chip, words", [
    (image(4, uf2.RP2350_ARM_S), "RP2040", "is for the RP2350 (UF2 family rp2350-arm-s), "
                                           "and this Pico is an RP2040"),
    (image(4), "RP2350", "is for the RP2040 (UF2 family rp2040), and this Pico is an RP2350"),
    (image(4, 0x12345678), "RP2040", "is for no chip catnip knows (UF2 family 0x12345678)"),
])
def test_an_image_for_another_chip_is_refused_by_name(data, chip, words):
    with pytest.raises(uf2.Uf2Error, match=words.replace("(", r"\(").replace(")", r"\)")):
        uf2.check(data, chip, "catnip.uf2")


@pytest.mark.parametrize("data, words", [
    (b"", "is not a UF2 image"),
    (os.urandom(4096), "is not a UF2 image"),
    (b"UF2\n" + bytes(1020), "is not a UF2 image"),
    (image(6)[:-100], "is cut short: 2,972 bytes is not a whole number of 512-byte UF2 blocks"),
    (image(6)[:-512], "is cut short: 5 of its 6 rp2040 blocks are there"),
    (image(6, uf2.RP2350_ARM_S)[:-1024], "is cut short: 4 of its 6 rp2350-arm-s blocks"),
    (image(3)[:512] + image(3)[1024:], "its rp2040 blocks are out of order"),
    (image(3)[:1020] + b"\0\0\0\0" + image(3)[1024:], "block 1 lacks the UF2 magic numbers"),
    (image(2) + block(0x10000200, 2, 3, uf2.RP2040, bytes(300)), "block 2 carries 300 bytes"),
    (block(0x10000000, 0, 1, uf2.RP2040, bytes(256), flags=0), "block 0 names no chip family"),
])
def test_a_file_that_is_not_a_whole_uf2_is_refused_by_name(data, words):
    with pytest.raises(uf2.Uf2Error, match=words):
        uf2.check(data, "RP2040", "catnip.uf2")


def test_a_lone_absolute_block_is_the_e10_block_only_when_it_is_picotools():
    # An absolute block carrying code is counted: alone it is one block of two.
    lone = block(0x10FFFF00, 0, 2, uf2.ABSOLUTE, b"\x01" * 256)
    with pytest.raises(uf2.Uf2Error, match="1 of its 2 absolute blocks"):
        uf2.read(lone + image(2, uf2.RP2350_ARM_S, e10=False))


def test_the_drive_names_its_chip():
    assert uf2.chip_of(INFO_RP2040) == "RP2040"
    assert uf2.chip_of(INFO_RP2350) == "RP2350"
    assert uf2.chip_of(INFO_RP2350.replace("RP2350\n", "RP2350-ACME\n")) == "RP2350"
    assert uf2.chip_of("Board-ID: SAMD21-ACME\n") is None
    assert uf2.chip_of("a USB stick") is None
