# A station's screen as text: the canvas a phone seat's screen is drawn on
# (catnip.table.phones). It takes the framebuf calls catnip.ui.draw makes
# and keeps what a station would show in words: the 8 rows of 16 characters
# and which cells are lit (inverse: the title bar, a cursor). What text
# cannot say is left out, but for a list's scroll marks, shown as ^ and v.
# One buffer, written in place: drawing a screen keeps nothing on the heap
# (a text is read through a memoryview of its bytes, dropped at once).
from binascii import crc32

from catnip.ui.draw import COLS, ROWS
from catnip.wire import utf8

CELLS = COLS * ROWS
SIZE = CELLS + 2 * ROWS  # the characters, then 16 bits of lit cells a row
_SPACES = b" " * COLS  # a row cleared


class Recorder:
    def __init__(self):
        self.buf = bytearray(SIZE)
        self.fill(0)

    def begin(self):
        """A new picture (as a panel's canvas)."""

    def fill(self, c):
        buf = self.buf
        for at in range(0, CELLS, COLS):
            buf[at:at + COLS] = _SPACES
        bits = 0xFF if c else 0
        for k in range(CELLS, SIZE):
            buf[k] = bits

    def fill_rect(self, x, y, w, h, c):
        # A cell counts as covered when the rectangle covers its middle pixel:
        # an announcement's one-pixel rim above it lights no row of text.
        buf = self.buf
        c0, c1 = max(0, (x + 3) // 8), min(COLS, (x + w + 3) // 8)
        if c0 >= c1:
            return
        mask = ((1 << (c1 - c0)) - 1) << c0
        for r in range(max(0, (y + 3) // 8), min(ROWS, (y + h + 3) // 8)):
            at = r * COLS
            for col in range(at + c0, at + c1):
                buf[col] = 32  # filled over: the text under it is gone
            bits = buf[CELLS + 2 * r] << 8 | buf[CELLS + 2 * r + 1]
            bits = bits | mask if c else bits & ~mask
            buf[CELLS + 2 * r] = bits >> 8
            buf[CELLS + 2 * r + 1] = bits & 0xFF

    def text(self, s, x, y, c=1):
        r = (y + 4) // 8
        if not 0 <= r < ROWS:
            return
        col, buf = x // 8, self.buf
        # Byte by byte, as the panel's framebuf draws (a character past ASCII
        # takes a cell per byte there too). A str iterated would give each
        # character as a string of its own, interned: heap kept for good.
        for n in utf8(s):
            if 0 <= col < COLS:
                buf[r * COLS + col] = n if 32 <= n < 127 else 63  # "?": the panel's font has none
            col += 1

    def hline(self, x, y, w, c):
        # catnip.ui.draw.mark: a scroll mark's tip is a one-pixel line, at
        # the top of its row for "more above", lower down for "more below".
        if w == 1 and x >= (COLS - 1) * 8:
            r = y // 8
            if 0 <= r < ROWS and self.buf[r * COLS + COLS - 1] == 32:
                self.buf[r * COLS + COLS - 1] = 94 if y % 8 < 3 else 118  # ^ or v

    def vline(self, x, y, h, c):
        pass  # a gauge's cross: nothing to say in text

    def rect(self, x, y, w, h, c):
        pass  # a gauge's box: nothing to say in text

    def digest(self):
        """A 32-bit digest of the picture: a view is sent when it changes
        (kept instead of a copy, as a panel keeps its bands' digests)."""
        return crc32(self.buf)

    def rows(self):
        """The 8 rows as text, their trailing spaces cut."""
        buf = self.buf
        return [bytes(buf[r * COLS:(r + 1) * COLS]).decode().rstrip() for r in range(ROWS)]

    def lit(self):
        """The lit spans: [row, col, length], row by row from the left."""
        buf, spans = self.buf, []
        for r in range(ROWS):
            bits = buf[CELLS + 2 * r] << 8 | buf[CELLS + 2 * r + 1]
            col = 0
            while col < COLS:
                if bits >> col & 1:
                    start = col
                    while col < COLS and bits >> col & 1:
                        col += 1
                    spans.append([r, start, col - start])
                else:
                    col += 1
        return spans
