"""UF2 images made in the test, laid out as pico-sdk's tools lay them out:
256-byte pages from the flash's start, one family, numbered 0..n-1 of n, and
for the RP2350 picotool's RP2350-E10 absolute block first."""

from __future__ import annotations

import struct

from catnip_host import uf2

FLASH = 0x10000000
INFO_RP2040 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
INFO_RP2350 = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"
INFO = {"RP2040": INFO_RP2040, "RP2350": INFO_RP2350}


def block(address: int, number: int, of: int, family: int, page: bytes,
          flags: int = uf2.FLAG_FAMILY) -> bytes:
    head = struct.pack("<8I", *uf2.MAGIC_START, flags, address, len(page), number, of, family)
    return head + page.ljust(476, b"\0") + struct.pack("<I", uf2.MAGIC_END)


def image(pages: int, family: int = uf2.RP2040, e10: bool | None = None) -> bytes:
    """A UF2 of `pages` pages for `family` (with the E10 block by default for an RP2350)."""
    e10 = family in (uf2.RP2350_ARM_S, uf2.RP2350_RISCV) if e10 is None else e10
    out = block(0x10FFFF00, 0, 2, uf2.ABSOLUTE, b"\xef" * 256) if e10 else b""
    for k in range(pages):
        out += block(FLASH + 256 * k, k, pages, family, bytes([k & 0xFF]) * 256)
    return out
