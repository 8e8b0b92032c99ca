# SSD1306 OLED over I2C: a FrameBuffer whose show() sends only what changed.
#
# Memory layout. Each 128-byte page of the frame sits in a 132-byte slot whose
# last gap byte, just before the pixels, holds the data control byte 0x40. So
# "0x40 + a page" is one contiguous buffer and goes out in one writeto() with
# no copy: rp2's hardware I2C copies every multi-buffer writevto() into a fresh
# heap buffer, a single buffer it sends as is. A 16-column band inside a page
# borrows the byte before it for the control byte for the length of the
# transfer. The 4-byte gap keeps every band word-aligned for the compare.
#
# Change tracking. A shadow copy holds what the panel shows; a viper loop
# compares frame and shadow word by word, copies what differs and returns a
# bit per changed band (a whole unchanged frame: 1.6 µs on the unix port). show()
# allocates nothing: every view it sends was sliced once, here.
#
# Window. Each run of changed bands gets one 7-byte command transaction setting
# the column and page window (horizontal addressing), then its data; pages
# in a row that changed in the same bands share one window.
#
# Datasheet: Solomon Systech SSD1306 Rev 1.1, sections 8.1.5, 9, 10 and the
# software initialisation flow chart.
import framebuf
import micropython
from micropython import const

WIDTH = const(128)
_SLOT = const(132)  # bytes per page slot: 3 unused, the control byte, 128 pixels
_GAP = const(4)
_BAND = const(16)  # columns per band
_BANDS = const(8)
_ALL_BANDS = const(0xFF)
_CTRL_CMD = const(0x00)  # Co=0, D/C#=0: all following bytes are commands
_CTRL_DATA = const(0x40)  # Co=0, D/C#=1: all following bytes are GDDRAM data

_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_CHARGE_PUMP = const(0x8D)
_PUMP_ON = const(0x14)
_PUMP_OFF = const(0x10)


@micropython.viper
def _diff(frame, shadow, page: int) -> int:
    # Bit b set: band b of `page` differs; the shadow now equals the frame there.
    src = ptr32(frame)
    dst = ptr32(shadow)
    s = page * 33 + 1  # _SLOT // 4 words per slot, pixels after the gap word
    d = page * 32
    mask = 0
    bit = 1
    while bit < 256:
        end = d + 4  # 16 columns = 4 words
        changed = 0
        while d < end:
            w = src[s]
            if w != dst[d]:
                dst[d] = w
                changed = 1
            s += 1
            d += 1
        if changed:
            mask |= bit
        bit <<= 1
    return mask


def _cheaper_whole(mask):
    """True when sending the whole page costs fewer bus bytes than sending the
    changed bands: each run costs a 7-byte window command plus its address
    byte, each band its address byte, the control byte and 16 pixels; the
    whole page one window and 1 + 1 + 128 bytes."""
    runs = bands = 0
    prev = 0
    for b in range(_BANDS):
        bit = (mask >> b) & 1
        bands += bit
        runs += bit & (1 - prev)
        prev = bit
    return 8 * runs + 18 * bands > 8 + 130


# One lookup per changed page in show(), built once.
_WHOLE = bytes(_cheaper_whole(m) for m in range(256))


def _is_run(mask):
    """True when the set bits of mask are contiguous."""
    return (mask + (mask & -mask)) & mask == 0


def _first(mask):
    b = 0
    while not mask & 1:
        mask >>= 1
        b += 1
    return b


class SSD1306(framebuf.FrameBuffer):
    """128x64 or 128x32 SSD1306 at `addr` on `i2c`. Draw with the FrameBuffer
    methods, then show(). Any I2C failure raises OSError and the next show()
    resends the whole frame."""

    def __init__(self, i2c, addr=0x3C, height=64, flip=False, contrast=0xCF):
        if height not in (32, 64):
            raise ValueError("SSD1306 height is 64 or 32 rows, not %r" % (height,))
        self.i2c = i2c
        self.addr = addr
        self.width = WIDTH
        self.height = height
        self.pages = height // 8
        raw = bytearray(_GAP + self.pages * _SLOT)
        view = memoryview(raw)
        super().__init__(view[_GAP:], WIDTH, height, framebuf.MONO_VLSB, _SLOT)
        self._raw = raw
        self._shadow = bytearray(self.pages * WIDTH)
        self._page_views = []
        self._band_views = []
        for page in range(self.pages):
            at = page * _SLOT + _GAP - 1  # the control byte before the page
            raw[at] = _CTRL_DATA
            self._page_views.append(view[at:at + 1 + WIDTH])
            for band in range(_BANDS):
                self._band_views.append(view[at + band * _BAND:at + band * _BAND + 1 + _BAND])
        self._window = bytearray((_CTRL_CMD, 0x21, 0, 0, 0x22, 0, 0))
        self._cmd1 = bytearray((_CTRL_CMD, 0))  # a command alone
        self._cmd2 = bytearray((_CTRL_CMD, 0, 0))  # a command and its parameter
        self._flipped = flip
        self._contrast = contrast
        self._resend = True
        self.init_display()

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
            buf = self._cmd1
        else:
            buf = self._cmd2
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

    def show(self):
        """Send the bands that changed since the last show()."""
        full = self._resend
        self._resend = True  # stays set if a transfer below fails
        top = last = run = 0
        for page in range(self.pages):
            mask = _diff(self._raw, self._shadow, page)
            if full or _WHOLE[mask]:
                mask = _ALL_BANDS
            if run and mask == run and page == last + 1:
                last = page
                continue
            if run:
                self._send(top, last, run)
                run = 0
            if not mask:
                continue
            if _is_run(mask):
                top = last = page
                run = mask
                continue
            while mask:  # several runs on one page: one window each
                one = mask & ~(mask + (mask & -mask))
                self._send(page, page, one)
                mask ^= one
        if run:
            self._send(top, last, run)
        self._resend = False

    def _send(self, top, last, run):
        first = _first(run)
        end = first
        while run >> (end + 1):
            end += 1
        window = self._window
        window[2] = first * _BAND
        window[3] = end * _BAND + _BAND - 1
        window[5] = top
        window[6] = last
        i2c, addr = self.i2c, self.addr
        i2c.writeto(addr, window)
        if run == _ALL_BANDS:
            for page in range(top, last + 1):
                i2c.writeto(addr, self._page_views[page])
            return
        raw, bands = self._raw, self._band_views
        for page in range(top, last + 1):
            for band in range(first, end + 1):
                at = page * _SLOT + _GAP - 1 + band * _BAND
                keep = raw[at]
                raw[at] = _CTRL_DATA
                try:
                    i2c.writeto(addr, bands[page * _BANDS + band])
                finally:
                    raw[at] = keep
