# SSD1306 OLED over I2C: a panel that remembers what it shows and sends only
# what changed.
#
# One canvas, many panels. Drawing happens on a Canvas (a MicroPython
# FrameBuffer); take(canvas) copies into the panel's own frame what differs
# from what it shows and notes, per page, the first and last column that
# changed, and show() sends those columns. A table of seven stations draws
# them one after another on a single canvas, so each panel costs its 1 KB
# frame and two bytes a page: on the Pico every byte of heap counts.
#
# Change tracking. A viper loop compares canvas and frame word by word,
# copies what differs and widens the page's span to the changed bytes of the
# word (an unchanged frame: microseconds). show() allocates nothing.
#
# Windows. Each page's changed columns, from the first to the last, go out
# as one window (a 7-byte command transaction setting the columns and pages,
# horizontal addressing, datasheet 10.1.3-10.1.5) and one data transaction.
# A window is a whole number of _STEP columns (so the data views can be
# sliced once, at import), widened to the right or, at the panel's right
# edge, to the left: the extra columns carry what the panel already shows.
# Consecutive pages join one window while that costs fewer bytes than a
# window of their own: a one-character change costs some 20 bytes, not a
# page.
#
# The data leaves from one module-wide buffer whose control byte 0x40 sits
# just before the pixels, so a single writeto() carries it: rp2's I2C copies
# a multi-buffer writevto() into a fresh heap buffer, a single buffer it
# sends as is.
#
# Datasheet: Solomon Systech SSD1306 Rev 1.1, sections 8.1.5, 9, 10 and the
# software initialisation flow chart.
import framebuf
import micropython
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)  # the taller glass; a 32-row panel shows a canvas's top half
_STEP = const(8)  # a window's width is a multiple of this many columns
_NONE = const(0xFF)  # a page's first column when nothing in it changed
_WINDOW_COST = const(9)  # bytes a window of its own adds: its command and a data header
_CTRL_CMD = const(0x00)  # Co=0, D/C#=0: all following bytes are commands
_CTRL_DATA = const(0x40)  # Co=0, D/C#=1: all following bytes are GDDRAM data

_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_CHARGE_PUMP = const(0x8D)
_PUMP_ON = const(0x14)
_PUMP_OFF = const(0x10)

# The outgoing data: the control byte at 3, a page's pixels from 4.
# _OUT_VIEWS[n] is the transaction carrying n * _STEP columns, sliced once here.
_OUT = bytearray(4 + WIDTH)
_OUT[3] = _CTRL_DATA
_OUT_VIEWS = [memoryview(_OUT)[3:4 + n * _STEP] for n in range(WIDTH // _STEP + 1)]
# Commands leave from module-wide buffers too: every transfer is complete
# when writeto() returns, so the panels share them (no heap per panel).
_WINDOW = bytearray((_CTRL_CMD, 0x21, 0, 0, 0x22, 0, 0))  # columns, then pages
_CMD1 = bytearray((_CTRL_CMD, 0))  # a command alone
_CMD2 = bytearray((_CTRL_CMD, 0, 0))  # a command and its parameter


class Canvas(framebuf.FrameBuffer):
    """A 128x64 MONO_VLSB frame to draw on; panels take() from it."""

    def __init__(self):
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)

    def fill(self, c):
        # framebuf fills MONO_VLSB pixel by pixel: 0.8 ms a frame on the
        # Pico, against 0.05 ms for these word stores. Every screen starts so.
        if c:
            super().fill(c)
        else:
            _clear(self.buf, WIDTH * HEIGHT // 32)


@micropython.viper
def _clear(buf, words: int):
    p = ptr32(buf)
    i = 0
    while i < words:
        p[i] = 0
        p[i + 1] = 0
        p[i + 2] = 0
        p[i + 3] = 0
        i += 4


@micropython.viper
def _take(canvas, frame, spans, top: int, pages: int) -> int:
    # Copy into `frame` the words of `canvas` that differ, from page `top`
    # down, and widen each
    # page's span to the bytes that changed: spans[2 * page] is its first
    # changed column (_NONE: none yet), spans[2 * page + 1] its last.
    # Returns nonzero if anything changed.
    src = ptr32(canvas)
    dst = ptr32(frame)
    span = ptr8(spans)
    w = top * 32  # WIDTH // 4 words a page
    end = pages * 32
    changed = 0
    while w < end:
        if src[w] != dst[w]:
            diff = src[w] ^ dst[w]
            dst[w] = src[w]
            col = (w & 31) << 2  # the word's first column; little-endian bytes
            k = 0
            while not ((diff >> (k << 3)) & 0xFF):
                k += 1
            lo = col + k
            k = 3
            while not ((diff >> (k << 3)) & 0xFF):
                k -= 1
            hi = col + k
            at = (w >> 5) << 1
            if lo < span[at]:  # _NONE is past every column
                span[at] = lo
            if hi > span[at + 1]:
                span[at + 1] = hi
            changed = 1
        w += 1
    return changed


@micropython.viper
def _gather(frame, page: int, first: int, n: int):
    # Columns first..first+n-1 of `page` into _OUT, after its control byte.
    src = ptr8(frame)
    dst = ptr8(_OUT)
    s = page * WIDTH + first
    d = 4
    stop = d + n
    while d < stop:
        dst[d] = src[s]
        s += 1
        d += 1


@micropython.viper
def _forget(spans, pages: int):
    # Nothing left to send on any page.
    span = ptr8(spans)
    i = 0
    while i < pages * 2:
        span[i] = _NONE
        span[i + 1] = 0
        i += 2


class SSD1306:
    """128x64 or 128x32 SSD1306 at `addr` on `i2c`. take(canvas) what it
    should show, then show(). Any I2C failure raises OSError and the next
    show() resends the whole frame."""

    def __init__(self, i2c, addr=0x3C, height=64, flip=False, contrast=0xCF):
        if height not in (32, 64):
            raise ValueError("SSD1306 height is 64 or 32 rows, not %r" % (height,))
        self.i2c = i2c
        self.addr = addr
        self.width = WIDTH
        self.height = height
        self.pages = height // 8
        self.frame = bytearray(self.pages * WIDTH)  # what the panel is to show
        self._spans = bytearray(2 * self.pages)  # per page: first and last column not sent yet
        _forget(self._spans, self.pages)
        self._unsent = False  # some mark is set
        self._flipped = flip
        self._contrast = contrast
        self._resend = True
        self.init_display()

    def take(self, canvas, top=0):
        """Make the canvas (its top rows, on a 32-row panel) what the panel is
        to show, from page `top` down (the pages above stay as they were);
        True if that changes anything. Sends nothing."""
        if _take(canvas.buf, self.frame, self._spans, top, self.pages):
            self._unsent = True
            return True
        return False

    # ---- setup and panel settings ---------------------------------------

    def init_display(self):
        """Configure the panel (datasheet initialisation flow chart) and send the
        whole frame. Call again after the panel lost power."""
        tall = self.height == 64
        self.i2c.writeto(self.addr, bytes((
            _CTRL_CMD,
            _DISPLAY_OFF,
            0xA8, self.height - 1,  # multiplex ratio
            0xD3, 0x00,  # display offset
            0x40,  # display start line 0
            0xA0 if self._flipped else 0xA1,  # segment remap: column 0 at the left
            0xC0 if self._flipped else 0xC8,  # COM scan: page 0 at the top
            0xDA, 0x12 if tall else 0x02,  # COM pins: alternative on 64-row glass
            0x81, self._contrast,
            0xA4,  # show GDDRAM
            0xA6,  # not inverted
            0xD5, 0x80,  # oscillator: reset value
            0xD9, 0xF1,  # pre-charge suited to the internal charge pump
            0xDB, 0x30,  # VCOMH deselect level about 0.83 Vcc
            0x20, 0x00,  # horizontal addressing: windows stream page by page
            0x2E,  # no scrolling
            _CHARGE_PUMP, _PUMP_ON,  # the pump must run before display on
            _DISPLAY_ON,
        )))
        self._resend = True
        self.show()

    def _command(self, op, arg=-1):
        if arg < 0:
            buf = _CMD1
        else:
            buf = _CMD2
            buf[2] = arg
        buf[1] = op
        self.i2c.writeto(self.addr, buf)

    def contrast(self, value):
        """Brightness 0..255."""
        if not 0 <= value <= 255:
            raise ValueError("contrast is 0..255, not %r" % (value,))
        self._contrast = value
        self._command(0x81, value)

    def invert(self, on):
        """Light the pixels that are off and the other way round."""
        self._command(0xA7 if on else 0xA6)

    def flip(self, on):
        """Turn the picture by 180 degrees, for a panel mounted upside down.
        The segment remap only applies to data written after it, so the whole
        frame is sent again."""
        self._flipped = bool(on)
        self._command(0xA0 if on else 0xA1)
        self._command(0xC0 if on else 0xC8)
        self._resend = True
        self.show()

    def sleep(self, on):
        """Power save: display and charge pump off (GDDRAM is kept), or back on."""
        if on:
            self._command(_DISPLAY_OFF)
            self._command(_CHARGE_PUMP, _PUMP_OFF)
        else:
            self._command(_CHARGE_PUMP, _PUMP_ON)
            self._command(_DISPLAY_ON)

    # ---- sending the frame ------------------------------------------------

    def show(self, canvas=None):
        """Take `canvas` if given, then send the bands that changed."""
        if canvas is not None:
            self.take(canvas)
        full = self._resend
        if not full and not self._unsent:
            return  # nothing changed: the screen loop asks every panel often
        self._resend = True  # stays set if a transfer below fails
        spans = self._spans
        top = last = -1  # the pages top..last share the window first..end
        first = end = 0
        for page in range(self.pages):
            if full:
                lo, hi = 0, WIDTH - 1
            else:
                lo, hi = spans[2 * page], spans[2 * page + 1]
                if lo == _NONE:
                    continue
            if top >= 0 and page == last + 1:
                a, b = min(first, lo), max(end, hi)
                pages = page - top
                # One window for them all, or the group's and one of its own.
                if (pages + 1) * (b - a + 1) <= pages * (end - first + 1) + hi - lo + 1 + \
                        _WINDOW_COST:
                    first, end, last = a, b, page
                    continue
            if top >= 0:
                self._send(top, last, first, end)
            top = last = page
            first, end = lo, hi
        if top >= 0:
            self._send(top, last, first, end)
        _forget(spans, self.pages)
        self._unsent = self._resend = False

    def _send(self, top, last, first, end):
        # Columns first..end of pages top..last, as a window _STEP columns wide
        # or a multiple of that: widened to the right, at the edge to the left.
        n = (end - first + _STEP) // _STEP
        first = min(first, WIDTH - n * _STEP)
        window = _WINDOW
        window[2] = first
        window[3] = first + n * _STEP - 1
        window[5] = top
        window[6] = last
        i2c, addr = self.i2c, self.addr
        i2c.writeto(addr, window)
        for page in range(top, last + 1):
            _gather(self.frame, page, first, n * _STEP)
            i2c.writeto(addr, _OUT_VIEWS[n])
