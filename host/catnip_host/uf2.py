"""UF2 images, checked before one is written to a Pico: that the file is a
whole UF2 and that it is for the chip whose BOOTSEL drive will take it.

The format (github.com/microsoft/uf2, README "File format"): 512-byte blocks,
each with the magic numbers 0x0A324655, 0x9E5D5157 at its start and
0x0AB16F30 at its end, its flags, target address, payload size (at most 476
bytes), its number and the number of blocks, and, with flag 0x2000, a family
ID naming the chip the payload is for. Raspberry Pi's boot ROMs take 256-byte
payloads only (RP2040 datasheet 2.8.4.2, "UF2 Format Details").

The family IDs are pico-sdk's (src/common/boot_uf2_headers/include/boot/uf2.h,
pico-sdk 2.2.0). An RP2040 takes its own family; an RP2350 takes its Arm
(secure) and RISC-V images, the "absolute" family (a block written at its
flash address whatever the partitions) and the "data" family (RP2350
datasheet 5.5.3, "UF2 Targeting Rules"). picotool starts an RP2350 image with
one absolute block that the boot ROM ignores, numbered 0 of 2, to work around
the chip's erratum RP2350-E10 (picotool, elf2uf2/elf2uf2.cpp check_abs_block).

Each drive names its chip in INFO_UF2.TXT: "Board-ID: RPI-RP2" for an
RP2040 (RP2040 datasheet 2.8.4.1), "Board-ID: RP2350" by default for an
RP2350 (RP2350 datasheet 5.5.3; a board maker may white-label it in OTP).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

BLOCK = 512
MAGIC_START = (0x0A324655, 0x9E5D5157)
MAGIC_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000
FLAG_EXTENSIONS = 0x00008000
PAGE = 256  # the payload of every block the RP-series boot ROMs take
MAX_PAYLOAD = 476

RP2040 = 0xE48BFF56
ABSOLUTE = 0xE48BFF57
DATA = 0xE48BFF58
RP2350_ARM_S = 0xE48BFF59
RP2350_RISCV = 0xE48BFF5A
FAMILIES = {RP2040: "rp2040", ABSOLUTE: "absolute", DATA: "data",
            RP2350_ARM_S: "rp2350-arm-s", RP2350_RISCV: "rp2350-riscv"}
# The chip behind a BOOTSEL drive (the start of its Board-ID) and the families it takes.
CHIPS = {"RP2040": ("RPI-RP2", {RP2040}),
         "RP2350": ("RP2350", {RP2350_ARM_S, RP2350_RISCV, ABSOLUTE, DATA})}
# The families an image of each chip's own code is in (data and absolute blocks are not).
CODE = {RP2040: "RP2040", RP2350_ARM_S: "RP2350", RP2350_RISCV: "RP2350"}


class Uf2Error(Exception):
    """The file is not a UF2 this drive takes; the message says what is wrong."""


@dataclass(frozen=True)
class Image:
    """What a UF2's blocks say about it."""

    blocks: int
    family: int  # the family of most of its blocks

    @property
    def chip(self) -> str | None:
        return CODE.get(self.family)

    @property
    def family_name(self) -> str:
        return FAMILIES.get(self.family, f"{self.family:#010x}")


def chip_of(info: str) -> str | None:
    """The chip a drive's INFO_UF2.TXT names, or None if it names none catnip knows."""
    for line in info.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Board-ID":
            return next((chip for chip, (board_id, _) in CHIPS.items()
                         if value.strip().startswith(board_id)), None)
    return None


def read(data: bytes, name: str = "the image") -> Image:
    """The image in `data` once every block is whole and numbered: Uf2Error names what is not."""
    if not data or data[:8] != struct.pack("<2I", *MAGIC_START):
        raise Uf2Error(f"{name} is not a UF2 image (it does not start with a UF2 block)")
    if len(data) % BLOCK:
        raise Uf2Error(f"{name} is cut short: {len(data):,} bytes is not a whole number of "
                       f"{BLOCK}-byte UF2 blocks")
    runs: dict[int, list[tuple[int, int]]] = {}  # family: [(number, of), ...] in file order
    for index in range(len(data) // BLOCK):
        block = data[index * BLOCK:(index + 1) * BLOCK]
        start0, start1, flags, _, size, number, of, family = struct.unpack_from("<8I", block)
        if (start0, start1) != MAGIC_START or struct.unpack_from("<I", block, 508)[0] != MAGIC_END:
            raise Uf2Error(f"{name} is damaged: block {index} lacks the UF2 magic numbers")
        if size != PAGE:
            raise Uf2Error(f"{name} block {index} carries {size} bytes: a Pico's boot ROM takes "
                           f"{PAGE}-byte blocks (at most {MAX_PAYLOAD} in any UF2)")
        if not flags & FLAG_FAMILY:
            raise Uf2Error(f"{name} block {index} names no chip family: catnip writes only "
                           "images made for a Pico's chip")
        if _skipped(block, flags, number, of, family):
            continue
        runs.setdefault(family, []).append((number, of))
    for family, numbered in runs.items():
        of = numbered[0][1]
        if [n for n, _ in numbered] != list(range(len(numbered))) or \
                any(o != of for _, o in numbered):
            raise Uf2Error(f"{name} is damaged: its {FAMILIES.get(family, hex(family))} blocks "
                           "are out of order")
        if len(numbered) != of:
            raise Uf2Error(f"{name} is cut short: {len(numbered):,} of its {of:,} "
                           f"{FAMILIES.get(family, hex(family))} blocks are there")
    if not runs:
        raise Uf2Error(f"{name} holds no blocks to write")
    family = max(runs, key=lambda f: len(runs[f]))
    return Image(sum(len(r) for r in runs.values()), family)


def check(data: bytes, chip: str, name: str = "the image") -> Image:
    """The image in `data` once it is whole and made for `chip` (a key of CHIPS)."""
    image = read(data, name)
    if image.family not in CHIPS[chip][1] or image.chip not in (None, chip):
        made_for = f"the {image.chip}" if image.chip else "no chip catnip knows"
        raise Uf2Error(f"{name} is for {made_for} (UF2 family {image.family_name}), and this "
                       f"Pico is an {chip}: it would not start")
    return image


def _skipped(block: bytes, flags: int, number: int, of: int, family: int) -> bool:
    """Whether a block is picotool's RP2350-E10 absolute block, which the boot
    ROM ignores and which is numbered 0 of 2 though it comes alone."""
    return (family == ABSOLUTE and (number, of) == (0, 2)
            and flags & ~FLAG_EXTENSIONS == FLAG_FAMILY
            and block[32:32 + PAGE] == b"\xef" * PAGE)
