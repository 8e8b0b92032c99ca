"""The catnip images, one per board (catnip_host.image: MicroPython af47daf3
with catnip frozen in, built from the current sources by ../shared/mpbuild,
or the build of these sources already in build/firmware): the firmware's
bytes in flash, its share of the flash before littlefs begins, the UF2 a
maker copies (what a wheel from `make dist` carries) and the frozen catnip
modules, and the SRAM the linker leaves MicroPython's heap. Sizes of the
real builds; nothing here runs on a chip. Builds what
is missing first: about 5 minutes per board on two cores."""

from __future__ import annotations

from collections.abc import Iterator

import bench
from catnip_host import image as images

Row = tuple[str, str, float | int | str, str, str]


def rows() -> Iterator[Row]:
    for board in images.BOARDS:
        area = f"image {board.name}"
        try:  # the default bench reads an image already built (make firmware)
            image = images.build(quiet=True, board=board) if bench.full() else \
                images.cached(board=board)
        except images.ImageError as e:
            yield area, "firmware size", "not built", "", str(e)
            continue
        if image is None:
            yield area, "firmware size", "not built", "", \
                "no image of these sources: make firmware, or the full bench builds it"
            continue
        note = f"real {board.chip} build, sources {image.digest}"
        yield area, "firmware size (firmware.bin)", image.size, "B", note
        yield (area, "share of the flash before littlefs", round(100 * image.size
                                                                  / board.fs_offset, 1),
               "%", f"littlefs from {board.fs_offset:#x} of {board.flash_kb // 1024} MB")
        yield area, "UF2 size", image.uf2.stat().st_size, "B", "what `catnip flash` writes"
        yield area, "frozen catnip modules", len(image.modules), "", "plus main.py and 2 made"
        if image.heap is not None:
            yield (area, "MicroPython heap (linked)", image.heap, "B",
                   f"__GcHeapEnd - __GcHeapStart of the {board.chip} build's ELF; "
                   "what the app leaves free is measured on the emulated RP2040 only")
