# SH1106 OLED over I2C: the 1.3-inch panel, driven like catnip's SSD1306
# (catnip.drivers.ssd1306: one shared canvas, per-band digests, only what
# changed is sent) with the SH1106's own setup and addressing.
#
# What differs (Sino Wealth SH1106 datasheet V2.6, command table and
# command descriptions 1-24):
# - RAM is 132 columns by 8 pages; a 128-column module wires the glass to
#   columns 2..129, so catnip's column x is RAM column x + 2 (both ways of
#   the segment remap: 132 - 1 - 129 = 2).
# - Page addressing only, no addressing-mode (0x20) or window (0x21/0x22)
#   command: each page's columns go out as one command transaction that
#   sets the page (0xB0-0xB7) and the column's low and high nibbles
#   (0x00-0x0F, 0x10-0x1F), then one data transaction; the column address
#   steps by one per byte and the page stays put.
# - The panel voltage comes from the DC-DC converter, switched by 0xAD with
#   0x8B (on) or 0x8A (off), not the SSD1306's charge pump (0x8D).
# The I2C control byte, the status byte's D6 (display off), contrast,
# invert, remap and scan direction commands are the SSD1306's.
#
# Sending stays allocation-free: the command leaves from a module-wide
# buffer, the pixels from the SSD1306 driver's shared data buffer.
from micropython import const

from catnip.drivers.ssd1306 import SSD1306, _gather

_COLUMN_OFFSET = const(2)  # RAM column of the glass's first column
_CTRL_CMD = const(0x00)  # Co=0, D/C#=0: all following bytes are commands
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_DC_DC = const(0xAD)
_DC_DC_ON = const(0x8B)
_DC_DC_OFF = const(0x8A)

# Page, column low nibble, column high nibble: one transaction per page.
_PAGE = bytearray((_CTRL_CMD, 0xB0, 0x00, 0x10))
_SLEEP = bytearray((_CTRL_CMD, _DISPLAY_OFF, _DC_DC, _DC_DC_OFF))
_WAKE = bytearray((_CTRL_CMD, _DC_DC, _DC_DC_ON, _DISPLAY_ON))


class SH1106(SSD1306):
    """128x64 SH1106 at `addr` on `i2c`; used as catnip.drivers.ssd1306.SSD1306."""

    # Every page costs its own window anyway: pages join only where that
    # sends no more columns.
    _window_cost = 0

    def __init__(self, i2c, addr=0x3C, height=64, flip=False, contrast=0xCF, start=True):
        if height != 64:
            raise ValueError("SH1106 modules are 64 rows, not %r" % (height,))
        super().__init__(i2c, addr, height, flip, contrast, start)

    def _configure(self):
        self.i2c.writeto(self.addr, bytes((
            _CTRL_CMD,
            _DISPLAY_OFF,
            0xA8, 63,  # multiplex ratio: 64 rows
            0xD3, 0x00,  # display offset
            0x40,  # display start line 0
            0xA0 if self._flipped else 0xA1,  # segment remap (ADC): column 2 at the left
            0xC0 if self._flipped else 0xC8,  # COM scan: page 0 at the top
            0xDA, 0x12,  # common pads: alternative, as the module is wired
            0x81, self._contrast,
            0xA4,  # show RAM
            0xA6,  # not inverted
            0xD5, 0x50,  # oscillator: reset value
            0xD9, 0x22,  # discharge/pre-charge: reset value
            0xDB, 0x35,  # VCOM deselect level: reset value
            _DC_DC, _DC_DC_ON,  # the converter must run before display on
            _DISPLAY_ON,
        )))

    def sleep(self, on):
        """Power save: display and DC-DC off (RAM is kept), or back on."""
        self.i2c.writeto(self.addr, _SLEEP if on else _WAKE)

    def _write(self, canvas, top, last, first, n, view):
        # Columns first..first+n-1 of pages top..last through `view`: a page
        # and column command, then the data, for every page.
        cmd = _PAGE
        column = first + _COLUMN_OFFSET
        cmd[2] = column & 0x0F
        cmd[3] = 0x10 | column >> 4
        i2c, addr = self.i2c, self.addr
        for page in range(top, last + 1):
            cmd[1] = 0xB0 | page
            i2c.writeto(addr, cmd)
            if canvas is not None:
                _gather(canvas.buf, page, first, n)
            i2c.writeto(addr, view)
