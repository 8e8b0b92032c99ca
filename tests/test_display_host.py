"""Host-side display tools: PNG pictures of screens."""

from __future__ import annotations

import struct
import zlib

import pytest

from catnip_host.screens import DARK, LIT, png_bytes



def _decode(png: bytes) -> tuple[int, int, bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", png[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + data)
        chunks[kind] = chunks.get(kind, b"") + data
        pos += 12 + n
    w, h, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, color) == (8, 2)
    return w, h, zlib.decompress(chunks[b"IDAT"])


def test_png_shows_each_pixel_as_a_square():
    image = bytearray(512)
    image[0] = 0b1  # (0, 0)
    image[128 + 5] = 0b100  # (5, 10)
    w, h, raw = _decode(png_bytes(image, 32, scale=2))
    assert (w, h) == (256, 64)
    stride = 1 + w * 3

    def color(x: int, y: int) -> tuple[int, ...]:
        at = y * stride + 1 + x * 3
        return tuple(raw[at:at + 3])

    for x, y in ((0, 0), (1, 1), (10, 20), (11, 21)):
        assert color(x, y) == LIT
    for x, y in ((2, 0), (0, 2), (12, 20), (255, 63)):
        assert color(x, y) == DARK
    with pytest.raises(ValueError, match="128x64 image has 1024 bytes"):
        png_bytes(image, 64)
