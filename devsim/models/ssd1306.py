# SSD1306 OLED controller with a 128x64 or 128x32 glass, decoded from the I2C
# write stream the firmware sends.
#
# Facts from the Solomon Systech SSD1306 datasheet (Rev 1.1): section 8.1.5
# (I2C control byte: Co and D/C# bits followed by six zeros), section 8.7
# (GDDRAM: 8 pages of 128 bytes, LSB on top), section 9 (command table) and
# section 10 (addressing modes, remaps, COM pin configuration, reset values).
#
# Runs under MicroPython too: the virtual table attaches it to devsim's bus.
WIDTH = 128
RAM_ROWS = 64
RAM_BYTES = WIDTH * RAM_ROWS // 8

HORIZONTAL = 0
VERTICAL = 1
PAGE = 2

# Total length (opcode included) of every command that takes parameters.
_LENGTHS = {
    0x81: 2,  # contrast
    0x20: 2,  # memory addressing mode
    0x21: 3,  # column window
    0x22: 3,  # page window
    0x23: 2,  # fade out / blink
    0x26: 7, 0x27: 7,  # horizontal scroll setup
    0x29: 6, 0x2A: 6,  # vertical and horizontal scroll setup
    0x8D: 2,  # charge pump
    0xA3: 3,  # vertical scroll area
    0xA8: 2,  # multiplex ratio
    0xD3: 2,  # display offset
    0xD5: 2,  # clock divide / oscillator
    0xD6: 2,  # zoom in
    0xD9: 2,  # pre-charge period
    0xDA: 2,  # COM pins hardware configuration
    0xDB: 2,  # VCOMH deselect level
}
_SINGLE = (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3, 0x2E, 0x2F)


def command_length(op):
    """Bytes in the command that starts with `op`; ValueError for an opcode the
    SSD1306 does not have."""
    n = _LENGTHS.get(op)
    if n is not None:
        return n
    if op < 0x20 or 0x40 <= op < 0x80 or 0xB0 <= op < 0xB8 or op in _SINGLE:
        return 1
    raise ValueError("SSD1306 has no command 0x%02x" % op)


class SSD1306:
    """One SSD1306 at one I2C address. `present = False` unplugs it."""

    command_length = staticmethod(command_length)  # another controller brings its own

    def __init__(self, height=64):
        if height not in (32, 64):
            raise ValueError("an SSD1306 glass is 64 or 32 rows high, not %r" % (height,))
        self.height = height
        self.present = True
        self.ram = bytearray(RAM_BYTES)
        self.commands = []  # every complete command, as a tuple of its bytes
        self.data_bytes = 0  # GDDRAM bytes received
        self.power_on()

    # ---- power and reset -------------------------------------------------

    def power_on(self):
        """Reset values (datasheet 8.5); GDDRAM holds leftover noise."""
        seed = 0x2545
        for i in range(RAM_BYTES):
            seed = (seed * 75 + 74) % 65537
            self.ram[i] = seed & 0xFF
        self.display_on = False
        self.charge_pump = False
        self.entire_on = False
        self.inverted = False
        self.contrast = 0x7F
        self.mode = PAGE
        self.col_start, self.col_end = 0, WIDTH - 1
        self.page_start, self.page_end = 0, 7
        self.col = self.page = 0
        self.page_col_start = 0
        self.start_line = 0
        self.offset = 0
        self.mux = 64
        self.seg_remap = False
        self.com_remap = False
        self.com_pins = 0x12
        self.clock = 0x80
        self.precharge = 0x22
        self.vcomh = 0x20
        self.scrolling = False
        self._pending = bytearray()  # a command still waiting for parameters
        self._need = 0  # its total length

    def unplug(self):
        self.present = False

    def plug(self):
        """Plugged back in: the chip powered up again from its reset state."""
        self.present = True
        self.power_on()

    # ---- the I2C interface -----------------------------------------------

    def write(self, data):
        """One write transaction: control bytes, then commands or GDDRAM data."""
        i, n = 0, len(data)
        while i < n:
            control = data[i]
            i += 1
            if control & 0x3F:
                raise ValueError("SSD1306 control byte 0x%02x: the low six bits must be 0" % control)
            is_data = control & 0x40
            if control & 0x80:  # Co=1: exactly one byte, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
            else:  # Co=0: every remaining byte is of this kind
                while i < n:
                    self._byte(data[i], is_data)
                    i += 1

    def read(self, n):
        """Status byte (datasheet 8.1.5): bit 6 is set while the display is off."""
        status = 0 if self.display_on else 0x40
        return bytes([status] * n)

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
            return
        p = self._pending
        if not p:
            self._need = self.command_length(b)  # raises before anything is kept
        p.append(b)
        if len(p) == self._need:
            cmd = tuple(p)
            self._pending = bytearray()
            self.commands.append(cmd)
            self._execute(cmd)

    # ---- GDDRAM writes ---------------------------------------------------

    def _data(self, b):
        # The segment remap applies as data arrives (datasheet 10.1.8): RAM
        # already written keeps its columns.
        seg = WIDTH - 1 - self.col if self.seg_remap else self.col
        self.ram[self.page * WIDTH + seg] = b
        self.data_bytes += 1
        if self.mode == HORIZONTAL:
            if self.col < self.col_end:
                self.col += 1
            else:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        elif self.mode == VERTICAL:
            if self.page < self.page_end:
                self.page += 1
            else:
                self.page = self.page_start
                self.col = self.col + 1 if self.col < self.col_end else self.col_start
        else:  # page mode wraps within the page, back to its start column
            self.col = self.col + 1 if self.col < WIDTH - 1 else self.page_col_start

    # ---- commands ----------------------------------------------------------

    def _execute(self, cmd):
        op = cmd[0]
        if op < 0x10:
            self.page_col_start = (self.page_col_start & 0xF0) | op
            self.col = self.page_col_start
        elif op < 0x20:
            self.page_col_start = (self.page_col_start & 0x0F) | ((op & 0x07) << 4)
            self.col = self.page_col_start
        elif op == 0x20:
            if cmd[1] & 3 == 3:
                raise ValueError("SSD1306 addressing mode 3 is invalid")
            self.mode = cmd[1] & 3
        elif op == 0x21:
            self.col_start, self.col_end = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = cmd[1] & 7, cmd[2] & 7
            self.page = self.page_start
        elif 0x40 <= op < 0x80:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op == 0x8D:
            self.charge_pump = bool(cmd[1] & 0x04)
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0xA8:
            if cmd[1] & 0x3F < 15:
                raise ValueError("SSD1306 multiplex ratio %d is invalid (16..64 rows)" % (cmd[1] + 1))
            self.mux = (cmd[1] & 0x3F) + 1
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif 0xB0 <= op < 0xB8:
            self.page = op & 7
        elif op in (0xC0, 0xC8):
            self.com_remap = op == 0xC8
        elif op == 0xD3:
            self.offset = cmd[1] & 0x3F
        elif op == 0xD5:
            self.clock = cmd[1]
        elif op == 0xD9:
            self.precharge = cmd[1]
        elif op == 0xDA:
            self.com_pins = cmd[1] & 0x32
        elif op == 0xDB:
            self.vcomh = cmd[1]
        elif op == 0x2E:
            self.scrolling = False
        elif op == 0x2F:
            self.scrolling = True
        # 0x23, 0x26-0x2A, 0xA3, 0xD6 and 0xE3 are parsed and logged; the
        # scroll and fade effects move pixels over time and are not rendered.

    # ---- what the glass shows ------------------------------------------------

    def lit(self):
        """The glass lights only with the display on and the charge pump running
        (these modules have no external panel supply)."""
        return self.display_on and self.charge_pump

    def screen(self):
        """What the glass shows, as a MONO_VLSB image (128 x height, page-major,
        LSB on top): the same layout as the driver's frame buffer."""
        out = bytearray(WIDTH * self.height // 8)
        if not self.lit():
            return out
        ram = self.ram
        stride = len(ram) // (RAM_ROWS // 8)  # RAM columns a page
        columns = [self._ram_column(x) for x in range(WIDTH)]
        for line in range(self.mux):
            y = self._glass_y(line)
            if y < 0:
                continue
            row = (line + self.start_line) % RAM_ROWS
            src = (row >> 3) * stride
            bit = 1 << (row & 7)
            dst = (y >> 3) * WIDTH
            mark = 1 << (y & 7)
            for x in range(WIDTH):
                if self.entire_on or (bool(ram[src + columns[x]] & bit) != self.inverted):
                    out[dst + x] |= mark
        return out

    def _ram_column(self, x):
        """The RAM column behind the glass's column x (from the left): the
        module's glass runs from SEG127 at the left to SEG0, and the remap
        applies as data arrives."""
        return WIDTH - 1 - x

    def _glass_y(self, line):
        """Screen row that scan line `line` lands on, or -1 if none.

        The scan direction picks the COM output, the COM pin configuration
        routes it to a pad (datasheet table 10-3), and the module's wiring
        takes a pad to a glass row; the wiring is made for the configuration
        the glass needs (alternative for 64 rows, sequential for 32), so any
        other configuration interleaves or drops rows as on a real module."""
        com = (line + self.offset) % RAM_ROWS
        if self.com_remap:
            com = (self.mux - 1 - com) % RAM_ROWS
        pad = _pad(com, self.com_pins)
        glass = _glass_row(pad, self.height)
        if glass < 0:
            return -1
        return self.height - 1 - glass

    def pixel(self, x, y):
        return (self.screen()[(y >> 3) * WIDTH + x] >> (y & 7)) & 1

    def render(self, ascii=False):
        """The screen as text, two rows per line with half blocks (or '#'/'.'
        one row per line with ascii=True): for test failure messages."""
        return render(self.screen(), self.height, ascii)


def _pad(com, config):
    alternative = config & 0x10
    swap = config & 0x20
    if not alternative:
        return (com + 32) % 64 if swap else com
    half, i = divmod(com, 32)
    return 2 * i + (half ^ (1 if swap else 0))


def _glass_row(pad, height):
    if height == 64:  # wired for the alternative configuration: undo it
        return pad // 2 + (32 if pad & 1 else 0)
    return pad if pad < height else -1


_HALF = (" ", "\u2580", "\u2584", "\u2588")  # neither, top, bottom, both


def render(image, height, ascii=False):
    """A MONO_VLSB image (128 x height) as text."""
    lines = []
    if ascii:
        for y in range(height):
            lines.append("".join("#" if _bit(image, x, y) else "." for x in range(WIDTH)))
    else:
        for y in range(0, height, 2):
            lines.append("".join(_HALF[_bit(image, x, y) | _bit(image, x, y + 1) << 1]
                                 for x in range(WIDTH)))
    return "\n".join(lines)


def mismatch(expected, actual, height):
    """'' when both MONO_VLSB images match; else the count of wrong pixels, the
    first few, and a map with 'X' for pixels missing and '+' for pixels extra."""
    wrong = []
    rows = []
    for y in range(height):
        row = []
        for x in range(WIDTH):
            want, got = _bit(expected, x, y), _bit(actual, x, y)
            if want != got:
                wrong.append((x, y))
            row.append(("X" if want else "+") if want != got else ("#" if got else "."))
        rows.append("".join(row))
    if not wrong:
        return ""
    return "%d pixels differ, first at %s\n%s" % (len(wrong), wrong[:5], "\n".join(rows))


def _bit(image, x, y):
    return (image[(y >> 3) * WIDTH + x] >> (y & 7)) & 1
