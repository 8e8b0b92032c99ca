# SSD1306 OLED over I2C: a panel that sends only what changed, without a
# copy of what it shows.
#
# One canvas, many panels. Drawing happens on a Canvas (a MicroPython
# FrameBuffer) shared by every panel; take(canvas) notes which bands of the
# picture differ from what the panel shows, and show() sends those bands
# from the canvas. A band is 16 columns of one page (8 rows); the panel
# keeps a 32-bit digest of each band it shows (256 B for 64 rows), not the
# pixels: seven stations' copies would cost 7 KB of the Pico's heap. How
# bands are digested and which columns go out: catnip.drivers.bands.
#
# The canvas must still hold the picture when show() sends it. Whoever
# draws calls canvas.begin() first: a panel that took the picture before and
# has not sent it can no longer send from it (catnip.ui.frame draws such a
# panel again). A panel whose bands are due and that has no picture to send
# them from wants_picture() until it is given one.
#
# Windows. Each page's columns to send go out as one window (a 7-byte
# command transaction setting the columns and pages, horizontal addressing,
# datasheet 10.1.3-10.1.5) and one data transaction, a whole number of 8
# columns wide: widened to the right or, at the panel's right edge, to the
# left (the extra columns carry what the panel already shows). Consecutive
# pages join one window while that costs fewer bytes than a window of their
# own.
#
# The data leaves from one module-wide buffer whose control byte 0x40 sits
# just before the pixels, so a single writeto() carries it: rp2's I2C copies
# a multi-buffer writevto() into a fresh heap buffer, a single buffer it
# sends as is.
#
# Other controllers: a driver over the same bookkeeping overrides how the
# panel is configured (_configure), put to sleep (sleep) and how columns
# reach its RAM (_write); catnip.drivers.sh1106 is one.
#
# Datasheet: Solomon Systech SSD1306 Rev 1.1, sections 8.1.5, 9, 10 and the
# software initialisation flow chart.
import framebuf
import micropython
from micropython import const

from catnip.drivers.bands import SPANS, digest, spans

WIDTH = const(128)
HEIGHT = const(64)  # the taller glass; a 32-row panel shows a canvas's top half
_STEP = const(8)  # a window's width is a multiple of this many columns
_BANDS = const(8)  # bands in a page (catnip.drivers.bands)
_EMPTY = const(0xFF)  # a page's first lit column when none is
_WINDOW_COST = const(9)  # bytes a window of its own adds: its command and a data header
_CTRL_CMD = const(0x00)  # Co=0, D/C#=0: all following bytes are commands
_CTRL_DATA = const(0x40)  # Co=0, D/C#=1: all following bytes are GDDRAM data
# A panel's _due: what show() has to do.
_CHANGED = const(1)  # some band is due
_WHOLE = const(2)  # every band is due (a transfer failed, or the panel restarted)
_PICTURE = const(4)  # the panel shows less than its picture: take() it again

_STATUS_OFF = const(0x40)  # status byte D6: display off (datasheet 8.1.5, command table)
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
_STATUS = bytearray(1)  # the status byte read by is_off()


class Canvas(framebuf.FrameBuffer):
    """A 128x64 MONO_VLSB frame to draw on; panels take() from it. Call
    begin() before drawing a new picture."""

    def __init__(self):
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        self.epoch = 0  # counts begin(): a panel's taken picture is this one's while it matches
        super().__init__(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)

    def begin(self):
        """A new picture is about to be drawn: what panels took and did not
        send is gone (they will want it again)."""
        self.epoch = (self.epoch + 1) & 0x3FFFFFFF

    def fill(self, c):
        # framebuf fills MONO_VLSB pixel by pixel: 0.8 ms a frame on the
        # Pico, against 0.05 ms for these word stores. Every screen starts so.
        if c:
            super().fill(c)
        else:
            _clear(self.buf, WIDTH * HEIGHT // 32)


def _due_below(masks, end, pages):
    # Whether a page from `end` down has bands due: the canvas holds no
    # picture of them (a take of some rows only).
    for page in range(end, pages):
        if masks[page]:
            return True
    return False


@micropython.viper
def _clear(buf, words: int):
    # `words` a multiple of four.
    p = ptr32(buf)
    i = 0
    while i < words:
        p[i] = 0
        p[i + 1] = 0
        p[i + 2] = 0
        p[i + 3] = 0
        i += 4


@micropython.viper
def _gather(canvas, page: int, first: int, n: int):
    # Columns first..first+n-1 of `page` into _OUT, after its control byte.
    src = ptr8(canvas)
    dst = ptr8(_OUT)
    s = page * WIDTH + first
    d = 4
    stop = d + n
    while d < stop:
        dst[d] = src[s]
        s += 1
        d += 1


@micropython.viper
def _blank_out():
    # _OUT's pixels all dark.
    p = ptr32(_OUT)
    i = 1
    while i <= WIDTH // 4:
        p[i] = 0
        i += 1


class SSD1306:
    """128x64 or 128x32 SSD1306 at `addr` on `i2c`. take(canvas) what it
    should show, then show(). Any I2C failure raises OSError and the next
    show() resends every band (from a picture taken again, if the canvas
    has begun another since). start=False builds it without a word on the
    bus: init_display() configures it later."""

    # What every panel shares unless it is built otherwise: seven stations'
    # instance dicts stay small (each attribute is a slot on the heap).
    width = WIDTH
    _flipped = False
    _contrast = 0xCF
    _canvas = None  # the canvas last taken, while its picture may be sent
    _epoch = 0  # the canvas's epoch at that take
    _top = 0  # the first page that take covered
    _end = 0  # the page after the last it covered (0: the bottom)
    _window_cost = _WINDOW_COST  # bytes a page's window of its own adds, in show()

    def __init__(self, i2c, addr=0x3C, height=64, flip=False, contrast=0xCF, start=True):
        if height not in (32, 64):
            raise ValueError("SSD1306 height is 64 or 32 rows, not %r" % (height,))
        self.i2c = i2c
        self.addr = addr
        self.height = height
        self.pages = height // 8
        self._digests = bytearray(4 * _BANDS * self.pages)  # per band, what the panel shows
        # Per page: a bit per band not sent yet; then, of what the panel
        # shows, the first and the last lit column (_EMPTY, 0: none).
        self._masks = bytearray(3 * self.pages)
        self._due = 0  # what show() has to do: _CHANGED, _WHOLE, _PICTURE
        if flip:
            self._flipped = True
        if contrast != SSD1306._contrast:
            self._contrast = contrast
        if start:
            self.init_display()

    def take(self, canvas, top=0, end=0):
        """Make the canvas (its top rows, on a 32-row panel) what the panel is
        to show, from page `top` down to page `end` (0: the bottom; the pages
        outside stay as they were); True if that changes anything. Sends
        nothing: the canvas must hold the picture until show() (see
        Canvas.begin)."""
        self._canvas = canvas
        self._epoch = canvas.epoch
        self._top = top
        self._end = end if end < self.pages else 0
        if top == 0 and not self._end:
            self._due &= ~_PICTURE
        if digest(canvas.buf, self._digests, self._masks, top, end or self.pages):
            self._due |= _CHANGED
            return True
        return False

    def holds(self, canvas):
        """True if the panel took `canvas`'s picture and has yet to send it."""
        return self._canvas is canvas and self._epoch == canvas.epoch and \
            bool(self._due & (_CHANGED | _WHOLE))

    def wants_picture(self):
        """True if the panel shows less than what it was last given (it was
        cleared after a restart, or bands are due with no picture to send
        them from): take() a whole picture again."""
        return bool(self._due & _PICTURE)

    def _picture(self):
        # The canvas last taken, if it still holds that picture.
        canvas = self._canvas
        if canvas is not None and self._epoch == canvas.epoch:
            return canvas
        return None

    # ---- setup and panel settings ---------------------------------------

    def init_display(self):
        """Configure the panel (datasheet initialisation flow chart), then
        send the whole picture taken last, if the canvas still holds it, or
        clear the panel (its GDDRAM holds noise after power-up) and want a
        picture. Call again after the panel lost power."""
        self._configure()
        if self._picture() is not None and self._top == 0 and not self._end:
            self._due |= _WHOLE
            self.show()
        else:
            self._blank()

    def _configure(self):
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

    def _blank(self):
        # Every pixel dark, and known to be: a band of zeros digests to 0.
        self._due = _WHOLE  # stays so if a transfer below fails
        _blank_out()
        self._write(None, 0, self.pages - 1, 0, WIDTH, _OUT_VIEWS[WIDTH // _STEP])
        _clear(self._digests, _BANDS * self.pages)
        masks, pages = self._masks, self.pages
        for page in range(pages):
            masks[page] = 0
            masks[pages + page] = _EMPTY
            masks[2 * pages + page] = 0
        self._canvas = None
        self._due = _PICTURE

    def _command(self, op, arg=-1):
        if arg < 0:
            buf = _CMD1
        else:
            buf = _CMD2
            buf[2] = arg
        buf[1] = op
        self.i2c.writeto(self.addr, buf)

    def is_off(self):
        """Read the status byte: True if the panel says its display is off
        (as one that lost power and came back does)."""
        self.i2c.readfrom_into(self.addr, _STATUS)
        return bool(_STATUS[0] & _STATUS_OFF)

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
        The segment remap only applies to data written after it, so every
        band is sent again (from the picture taken last, or the next)."""
        self._flipped = bool(on)
        self._command(0xA0 if on else 0xA1)
        self._command(0xC0 if on else 0xC8)
        self._due |= _WHOLE
        self.show()

    def sleep(self, on):
        """Power save: display and charge pump off (GDDRAM is kept), or back on."""
        if on:
            self._command(_DISPLAY_OFF)
            self._command(_CHARGE_PUMP, _PUMP_OFF)
        else:
            self._command(_CHARGE_PUMP, _PUMP_ON)
            self._command(_DISPLAY_ON)

    # ---- sending the picture ----------------------------------------------

    def show(self, canvas=None):
        """Take `canvas` if given, then send the bands that changed."""
        if canvas is not None:
            self.take(canvas)
        due = self._due
        if not due & (_CHANGED | _WHOLE):
            return  # nothing changed: the screen loop asks every panel often
        masks, pages = self._masks, self.pages
        if due & _WHOLE:  # what the panel shows is unknown: every column goes
            for page in range(pages):
                masks[page] = 0xFF
                masks[pages + page] = 0
                masks[2 * pages + page] = WIDTH - 1
        canvas = self._picture()
        if canvas is None or self._end and _due_below(masks, self._end, pages):
            self._due = _PICTURE | _CHANGED  # nothing to send them from
            return
        self._due = _WHOLE  # stays so if a transfer below fails
        spans(canvas.buf, masks, self._top, pages)
        top = last = -1  # the pages top..last share the window first..end
        first = end = 0
        for page in range(self._top, pages):
            lo, hi = SPANS[2 * page], SPANS[2 * page + 1]
            if lo > hi:
                continue
            if top >= 0 and page == last + 1:
                a, b = min(first, lo), max(end, hi)
                n = page - top
                # One window for them all, or the group's and one of its own.
                if (n + 1) * (b - a + 1) <= n * (end - first + 1) + hi - lo + 1 + self._window_cost:
                    first, end, last = a, b, page
                    continue
            if top >= 0:
                self._send(canvas, top, last, first, end)
            top = last = page
            first, end = lo, hi
        if top >= 0:
            self._send(canvas, top, last, first, end)
        self._due = 0
        for page in range(self._top):
            if masks[page]:
                self._due = _PICTURE | _CHANGED  # due above the picture taken
                break

    def _send(self, canvas, top, last, first, end):
        # Columns first..end of pages top..last, as a window _STEP columns wide
        # or a multiple of that: widened to the right, at the edge to the left.
        n = (end - first + _STEP) // _STEP
        first = min(first, WIDTH - n * _STEP)
        self._write(canvas, top, last, first, n * _STEP, _OUT_VIEWS[n])

    def _write(self, canvas, top, last, first, n, view):
        # Columns first..first+n-1 of pages top..last, from `canvas` through
        # `view` (the data transaction n columns long), or dark if canvas is None.
        self._window(top, last, first, n)
        i2c, addr = self.i2c, self.addr
        for page in range(top, last + 1):
            if canvas is not None:
                _gather(canvas.buf, page, first, n)
            i2c.writeto(addr, view)

    def _window(self, top, last, first, n):
        # Columns first..first+n-1 of pages top..last take the data to come.
        window = _WINDOW
        window[2] = first
        window[3] = first + n - 1
        window[5] = top
        window[6] = last
        self.i2c.writeto(self.addr, window)
