"""Pictures of SSD1306 screens: any MONO_VLSB image (what the panel model's
screen() returns) as a PNG file, drawn as lit pixels on dark glass."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

WIDTH = 128
LIT = (0x9F, 0xE8, 0xFF)  # a blue-white OLED pixel
DARK = (0x06, 0x08, 0x0C)


def png_bytes(image: bytes | bytearray, height: int, scale: int = 4) -> bytes:
    """An RGB PNG of a 128 x height MONO_VLSB image, each pixel scale x scale."""
    if len(image) != WIDTH * height // 8:
        raise ValueError(f"a 128x{height} image has {WIDTH * height // 8} bytes, not {len(image)}")
    if scale < 1:
        raise ValueError("scale must be 1 or more")
    rows = bytearray()
    for y in range(height):
        line = bytearray()
        for x in range(WIDTH):
            on = (image[(y >> 3) * WIDTH + x] >> (y & 7)) & 1
            line += bytes(LIT if on else DARK) * scale
        rows += (b"\x00" + bytes(line)) * scale  # filter type 0 per scanline
    header = struct.pack(">IIBBBBB", WIDTH * scale, height * scale, 8, 2, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     _chunk(b"IDAT", zlib.compress(bytes(rows), 9)), _chunk(b"IEND", b"")))


def save_png(image: bytes | bytearray, height: int, path: str | Path, scale: int = 4) -> Path:
    path = Path(path)
    path.write_bytes(png_bytes(image, height, scale))
    return path


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
