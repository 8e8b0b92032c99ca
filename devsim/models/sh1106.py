# SH1106 OLED controller on a 1.3-inch 128x64 module, decoded from the I2C
# write stream the firmware sends.
#
# Facts from the Sino Wealth SH1106 datasheet (V2.6): 132 x 64 bits of
# display RAM in 8 pages of 132 columns, LSB on top; page addressing only:
# 0xB0-0xB7 set the page, 0x00-0x0F and 0x10-0x1F the column address's low
# and high nibbles, and each data byte steps the column by one while the
# page stays (command descriptions 1, 2, 12 and 22); 0xAD with 0x8A/0x8B
# switches the DC-DC converter that powers the panel (description 10); the
# SSD1306's addressing-mode, window, charge-pump and scroll commands (0x20-
# 0x2F, 0x8D) are not in its command table. Reset values: display off,
# DC-DC on, contrast 0x80, column and page 0, no remap. The I2C control
# byte, the status byte and the COM pads are as the SSD1306's, so the
# glass mapping is devsim.models.ssd1306's.
#
# The module wires SEG129 (left) to SEG2 (right) to its 128 columns, so
# with the segment remap (0xA1) RAM column x + 2 lights glass column x.
# The remap picks which segment a RAM column drives, for what the RAM
# already holds too (the controller reads the RAM through it).
from devsim.models.ssd1306 import SSD1306, WIDTH, mismatch, render  # noqa: F401

COLUMNS = 132  # RAM columns
RAM_ROWS = 64
RAM_BYTES = COLUMNS * RAM_ROWS // 8
FIRST_SEG = 2  # the glass shows segments FIRST_SEG..FIRST_SEG + WIDTH - 1

# Total length (opcode included) of every command that takes a parameter.
_LENGTHS = {
    0x81: 2,  # contrast
    0xA8: 2,  # multiplex ratio
    0xAD: 2,  # DC-DC off (0x8A) or on (0x8B)
    0xD3: 2,  # display offset
    0xD5: 2,  # clock divide / oscillator
    0xD9: 2,  # discharge / pre-charge period
    0xDA: 2,  # common pads hardware configuration
    0xDB: 2,  # VCOM deselect level
}
_SINGLE = (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE)


def command_length(op):
    """Bytes in the command that starts with `op`; ValueError for an opcode the
    SH1106 does not have (the SSD1306's 0x20 addressing mode among them)."""
    n = _LENGTHS.get(op)
    if n is not None:
        return n
    if op < 0x20 or 0x30 <= op < 0x34 or 0x40 <= op < 0x80 or 0xB0 <= op < 0xB8 or op in _SINGLE:
        return 1
    raise ValueError("SH1106 has no command 0x%02x" % op)


class SH1106(SSD1306):
    """One SH1106 module (128x64 glass) at one I2C address. `overrun` counts
    data bytes sent past RAM column 131, which the datasheet gives no place."""

    command_length = staticmethod(command_length)

    def __init__(self, height=64):
        if height != 64:
            raise ValueError("an SH1106 module's glass is 64 rows high, not %r" % (height,))
        super().__init__(height)

    def power_on(self):
        """Reset values; the RAM holds leftover noise."""
        seed = 0x1106
        self.ram = bytearray(RAM_BYTES)
        for i in range(RAM_BYTES):
            seed = (seed * 75 + 74) % 65537
            self.ram[i] = seed & 0xFF
        self.display_on = False
        self.dc_dc = True
        self.entire_on = False
        self.inverted = False
        self.contrast = 0x80
        self.col = self.page = 0
        self.saved_col = None  # the column read-modify-write returns to
        self.start_line = 0
        self.offset = 0
        self.mux = 64
        self.seg_remap = False
        self.com_remap = False
        self.com_pins = 0x12
        self.clock = 0x50
        self.precharge = 0x22
        self.vcomh = 0x35
        self.pump = 0x32
        self.overrun = 0
        self._pending = bytearray()
        self._need = 0

    def _data(self, b):
        self.data_bytes += 1
        if self.col >= COLUMNS:
            self.overrun += 1
            return
        self.ram[self.page * COLUMNS + self.col] = b
        self.col += 1

    def _execute(self, cmd):
        op = cmd[0]
        if op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4
        elif op < 0x34:
            self.pump = op
        elif op < 0x80:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op == 0xAD:
            if cmd[1] & 0xFE != 0x8A:
                raise ValueError("SH1106 DC-DC mode 0x%02x: 0x8A (off) or 0x8B (on)" % cmd[1])
            self.dc_dc = bool(cmd[1] & 1)
        elif op == 0xA8:
            self.mux = (cmd[1] & 0x3F) + 1
        elif 0xB0 <= op < 0xB8:
            self.page = op & 7
        elif op == 0xE0:
            self.saved_col = self.col
        elif op == 0xEE:
            if self.saved_col is not None:
                self.col, self.saved_col = self.saved_col, None
        elif op in (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8,
                    0xD3, 0xD5, 0xD9, 0xDA, 0xDB):
            SSD1306._execute(self, cmd)  # the same settings as the SSD1306's
        # 0xE3 is a no-op.

    # ---- what the glass shows ------------------------------------------------

    def lit(self):
        """The glass lights with the display on and the DC-DC converter running
        (the module has no other panel supply)."""
        return self.display_on and self.dc_dc

    def _ram_column(self, x):
        """SEG129 at the left; the remap applies as RAM is read out."""
        seg = FIRST_SEG + WIDTH - 1 - x
        return COLUMNS - 1 - seg if self.seg_remap else seg
