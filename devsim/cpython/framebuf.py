# framebuf for CPython: the part of MicroPython's built-in module the firmware
# draws with (MONO_VLSB: fill, fill_rect, hline, vline, rect, pixel, text),
# pixel for pixel as MicroPython draws it, so the virtual table runs the same
# firmware on a laptop whose platform has no MicroPython unix port
# (devsim/cpython/run.py). tests/test_sim_cpython.py draws the same pictures
# with both and compares the bytes.
#
# The glyphs are MicroPython's 8x8 font (extmod/font_petme128_8x8.h in the
# MicroPython sources, MIT licence), as its framebuf.text() draws them: 8
# column bytes per character, bit 0 the top row, for codes 32 to 127. text()
# draws every byte of the string's UTF-8 outside 32..127 as glyph 127, and
# stops at a NUL, as MicroPython's does.
from binascii import unhexlify

MONO_VLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_FONT = unhexlify(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"  # ' ' '!' '"' '#'
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"  # '$' '%' '&' "'"
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"  # '(' ')' '*' '+'
    "000080e0600000000008080808080800000000606000000000406030180c0602"  # ',' '-' '.' '/'
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"  # '0' '1' '2' '3'
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"  # '4' '5' '6' '7'
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"  # '8' '9' ':' ';'
    "00081c3663414100001414141414140000414163361c080000020351590f0600"  # '<' '=' '>' '?'
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"  # '@' 'A' 'B' 'C'
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"  # 'D' 'E' 'F' 'G'
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"  # 'H' 'I' 'J' 'K'
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"  # 'L' 'M' 'N' 'O'
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"  # 'P' 'Q' 'R' 'S'
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"  # 'T' 'U' 'V' 'W'
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"  # 'X' 'Y' 'Z' '['
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"  # '\\' ']' '^' '_'
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"  # '`' 'a' 'b' 'c'
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"  # 'd' 'e' 'f' 'g'
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"  # 'h' 'i' 'j' 'k'
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"  # 'l' 'm' 'n' 'o'
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"  # 'p' 'q' 'r' 's'
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"  # 't' 'u' 'v' 'w'
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"  # 'x' 'y' 'z' '{'
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"  # '|' '}' '~' DEL
)
_FIRST, _LAST = 32, 127


class FrameBuffer:
    """A MONO_VLSB frame over `buffer`: byte (y // 8) * stride + x holds
    column x of rows y & ~7 .. (y & ~7) + 7, bit 0 the top one."""

    def __init__(self, buffer, width, height, format, stride=None):
        if format != MONO_VLSB:
            raise ValueError("this framebuf draws MONO_VLSB only, the SSD1306's format")
        stride = width if stride is None else stride
        if width < 1 or height < 1 or stride < width:
            raise ValueError("invalid framebuffer size")
        if len(buffer) < stride * ((height + 7) // 8):
            raise ValueError("buffer too small")
        self._fb = buffer
        self._fb_size = (width, height, stride)

    def fill(self, c):
        width, height, _ = self._fb_size
        self.fill_rect(0, 0, width, height, c)

    def pixel(self, x, y, c=None):
        width, height, stride = self._fb_size
        if not (0 <= x < width and 0 <= y < height):
            return None
        i = (y >> 3) * stride + x
        if c is None:
            return self._fb[i] >> (y & 7) & 1
        self._column(x, y, 1, c)
        return None

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def fill_rect(self, x, y, w, h, c):
        width, height, _ = self._fb_size
        if w < 1 or h < 1 or x + w <= 0 or y + h <= 0 or x >= width or y >= height:
            return
        top = max(y, 0)
        bits = (1 << (min(height, y + h) - top)) - 1
        for col in range(max(x, 0), min(width, x + w)):
            self._column(col, top, bits, c)

    def text(self, s, x, y, c=1):
        width, height, _ = self._fb_size
        for code in s.encode() if isinstance(s, str) else bytes(s):
            if code == 0:
                break
            if not _FIRST <= code <= _LAST:
                code = _LAST
            at = (code - _FIRST) * 8
            for j in range(8):
                col = x + j
                if 0 <= col < width:
                    bits, top = _FONT[at + j], y
                    if top < 0:
                        bits, top = bits >> -top, 0
                    if bits and top < height:
                        self._column(col, top, bits, c)
            x += 8

    def _column(self, x, y, bits, c):
        """Rows y, y+1, ... of column x as `bits` says (bit 0: row y) set to
        c; rows past the frame's height are left alone."""
        width, height, stride = self._fb_size
        bits &= (1 << (height - y)) - 1
        bits <<= y & 7
        i = (y >> 3) * stride + x
        buf = self._fb
        while bits:
            if c:
                buf[i] |= bits & 0xFF
            else:
                buf[i] &= ~bits & 0xFF
            bits >>= 8
            i += stride
