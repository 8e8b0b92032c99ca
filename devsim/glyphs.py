# Reading back the text that framebuf.text() drew on a screen, so tests and
# the virtual table can ask what a station shows in words instead of pixels.
#
# framebuf draws printable ASCII from its built-in 8x8 font at any pixel
# position, lit on dark or (color 0 on a filled bar) dark on lit. The font is
# taken from framebuf itself, so this needs MicroPython, where the firmware
# draws anyway. Every 8x8 window of the image is looked up among the 94
# glyphs (space is left to the gaps) and their inverses; overlapping matches
# are settled in favour of the one with more ink, so a stroke of one letter
# is not read as a small glyph such as '.' or '-'. A glyph that is a bare
# line or dot ('_', '-', '|', '.', ...) counts only where its ink ends at the
# edge of its cell: the edge of a filled bar is not an underscore.
WIDTH = 128

_font = None


def _glyphs():
    """{8 column bytes: (character, inverted, ink, thin)} for every printable
    glyph; thin: its ink fits in two rows or two columns."""
    global _font
    if _font is None:
        try:
            import framebuf
        except ImportError:
            raise RuntimeError("reading text needs MicroPython's framebuf font; run under "
                               "the MicroPython unix port, or look at the picture instead")
        cell = bytearray(8)
        fb = framebuf.FrameBuffer(cell, 8, 8, framebuf.MONO_VLSB)
        font = {}
        for code in range(33, 127):
            fb.fill(0)
            fb.text(chr(code), 0, 0, 1)
            ink = sum(_ones(b) for b in cell)
            rows = 0
            for b in cell:
                rows |= b
            thin = _span(rows) <= 2 or _span(sum(1 << i for i in range(8) if cell[i])) <= 2
            font[bytes(cell)] = (chr(code), False, ink, thin)
            font[bytes(255 - b for b in cell)] = (chr(code), True, ink, thin)
        _font = font
    return _font


def _span(mask):
    """Distance from the lowest to the highest set bit, plus one."""
    low = 0
    while not mask >> low & 1:
        low += 1
    high = 7
    while not mask >> high & 1:
        high -= 1
    return high - low + 1


def _ones(b):
    n = 0
    while b:
        n += b & 1
        b >>= 1
    return n


def find(image, height):
    """Every glyph in a MONO_VLSB image (128 x height) as (y, x, character,
    inverted), top to bottom, then left to right."""
    font = _glyphs()
    hits = []
    for y in range(height - 7):
        band = _band(image, y)
        for x in range(WIDTH - 7):
            glyph = font.get(band[x:x + 8])
            if glyph is not None and (not glyph[3] or _bounded(image, height, x, y, glyph[1])):
                hits.append((-glyph[2], y, x, glyph[0], glyph[1]))
    hits.sort()
    kept = []
    for _, y, x, char, inverted in hits:
        if not any(abs(y - k[0]) < 8 and abs(x - k[1]) < 8 for k in kept):
            kept.append((y, x, char, inverted))
    kept.sort()
    return kept


def lines(image, height):
    """The text on the screen, one string per row of glyphs, top to bottom.
    Glyphs further apart than one character width are joined by spaces, one
    per 8 pixels of gap (at least one)."""
    out = []
    row_y = None
    text = ""
    end = 0
    for y, x, char, _ in find(image, height):
        if y != row_y:
            if row_y is not None:
                out.append(text)
            row_y, text = y, char
        else:
            gap = x - end
            text += " " * (max(1, (gap + 4) // 8) if gap > 0 else 0) + char
        end = x + 8
    if row_y is not None:
        out.append(text)
    return out


def _bounded(image, height, x, y, inverted):
    """True when no ink of the glyph at (x, y) runs on past its 8x8 cell."""
    ink = 0 if inverted else 1
    for i in range(8):
        for inside, outside in (((x + i, y), (x + i, y - 1)), ((x + i, y + 7), (x + i, y + 8)),
                                ((x, y + i), (x - 1, y + i)), ((x + 7, y + i), (x + 8, y + i))):
            if _pixel(image, height, *inside) == ink and _pixel(image, height, *outside) == ink:
                return False
    return True


def _pixel(image, height, x, y):
    if not (0 <= x < WIDTH and 0 <= y < height):
        return -1  # beyond the glass: neither lit nor dark ink
    return image[(y >> 3) * WIDTH + x] >> (y & 7) & 1


def _band(image, y):
    """Column bytes of rows y..y+7: bit i of byte x is pixel (x, y + i)."""
    page, shift = y >> 3, y & 7
    top = image[page * WIDTH:(page + 1) * WIDTH]
    if not shift:
        return bytes(top)
    below = image[(page + 1) * WIDTH:(page + 2) * WIDTH]
    return bytes(((top[x] >> shift) | (below[x] << (8 - shift))) & 255 for x in range(WIDTH))
