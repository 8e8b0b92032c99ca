# PCF8574 / PCF8574A 8-bit quasi-bidirectional I/O expander.
#
# There is no direction register: a pin written 0 sinks current hard, a pin
# written 1 is pulled up weakly and reads whatever drives it. So an input is
# a pin written 1, and a button wired to ground reads 0 while pressed. Each
# read is a single byte; the chip's open-drain INT goes low when an input
# changes and is released by the next read or write.

# The byte every transfer carries: each is complete when the call returns,
# so the stations' chips share it (no heap per chip).
_BYTE = bytearray(1)


class PCF8574:
    def __init__(self, i2c, addr=0x20):
        if not (0x20 <= addr <= 0x27 or 0x38 <= addr <= 0x3F):
            raise ValueError("PCF8574 address 0x%02x: 0x20..0x27 (PCF8574A: 0x38..0x3F)" % addr)
        self.i2c = i2c
        self.addr = addr
        self.latch = 0xFF  # what the chip holds after power-on
        self.buttons = 0

    def write(self, value):
        """Set the output latch: 0 drives low, 1 leaves the pin as an input."""
        _BYTE[0] = value
        self.i2c.writeto(self.addr, _BYTE)
        self.latch = value & 0xFF

    def read(self):
        """The level of all eight pins."""
        self.i2c.readfrom_into(self.addr, _BYTE)
        return _BYTE[0]

    def pin(self, n, value=None):
        """Read pin n, or drive it (0) / release it to input (1)."""
        if value is None:
            return self.read() >> n & 1
        self.write(self.latch | 1 << n if value else self.latch & ~(1 << n))

    def setup_buttons(self, mask):
        """Make the pins in `mask` button inputs (active low, to ground), keep
        the other pins' latch, and clear any pending interrupt."""
        self.buttons = mask & 0xFF
        self.write(self.latch | self.buttons)

    def pressed(self):
        """Mask of buttons held down, as read now."""
        self.i2c.readfrom_into(self.addr, _BYTE)
        return ~_BYTE[0] & self.buttons
