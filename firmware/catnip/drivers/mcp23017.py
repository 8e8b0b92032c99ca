# MCP23017 16-bit I/O expander (Microchip DS20001952). Registers are used in
# the power-on layout, IOCON.BANK = 0: each A register is followed by its B
# twin, so one sequential transfer covers both ports, port A in the low byte.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

IODIR = const(0x00)
IPOL = const(0x02)
GPINTEN = const(0x04)
DEFVAL = const(0x06)
INTCON = const(0x08)
IOCON = const(0x0A)
GPPU = const(0x0C)
INTF = const(0x0E)
INTCAP = const(0x10)
GPIO = const(0x12)
OLAT = const(0x14)

# IOCON bits
BANK = const(0x80)
MIRROR = const(0x40)  # INTA and INTB both signal either port
SEQOP = const(0x20)  # 1 = address pointer does not increment
ODR = const(0x04)  # INT pins open-drain, so several chips can share one line
INTPOL = const(0x02)

# Where IOCON sits if the chip was left in BANK = 1 (by a warm restart that
# did not cut its power). In BANK = 0 this address is GPINTENB, which
# configure() writes afterwards anyway.
_IOCON_BANK1 = const(0x05)

# The shared, active-low interrupt line catnip wires stations to.
IOCON_BUTTONS = const(MIRROR | ODR)


class MCP23017:
    def __init__(self, i2c, addr=0x20):
        if not 0x20 <= addr <= 0x27:
            raise ValueError("MCP23017 address 0x%02x: A2..A0 give 0x20..0x27" % addr)
        self.i2c = i2c
        self.addr = addr
        self.buttons = 0
        self._one = bytearray(1)
        self._two = bytearray(2)
        self._wide = True  # False: every button is on port A, read 1 byte
        self._config = bytearray(14)  # IODIRA .. GPPUB

    def write_reg(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.addr, reg, self._one)

    def read_reg(self, reg):
        self.i2c.readfrom_mem_into(self.addr, reg, self._one)
        return self._one[0]

    def write_pair(self, reg, value):
        """Write an A/B register pair; `value` bit 8+n is port B pin n."""
        self._two[0] = value & 0xFF
        self._two[1] = value >> 8 & 0xFF
        self.i2c.writeto_mem(self.addr, reg, self._two)

    def read_pair(self, reg):
        self.i2c.readfrom_mem_into(self.addr, reg, self._two)
        return self._two[0] | self._two[1] << 8

    def configure(self, inputs=0xFFFF, pullups=0, invert=0, irq=0, defval=0, compare=0,
                  iocon=IOCON_BUTTONS):
        """Set every configuration register in one sequential write. `irq`
        pins interrupt on change, or on differing from `defval` for the pins
        in `compare`."""
        if iocon & (BANK | SEQOP):
            raise ValueError("IOCON 0x%02x: this driver needs BANK = 0 and SEQOP = 0" % iocon)
        self.write_reg(_IOCON_BANK1, iocon)
        self.write_reg(IOCON, iocon)
        c = self._config
        for n, value in enumerate((inputs, invert, irq, defval, compare, iocon << 8 | iocon,
                                   pullups)):
            c[2 * n] = value & 0xFF
            c[2 * n + 1] = value >> 8 & 0xFF
        self.i2c.writeto_mem(self.addr, IODIR, c)
        # Pins whose pull-up just came on have changed: start with no
        # interrupt pending.
        self.read_pair(GPIO)

    def setup_buttons(self, mask):
        """Buttons wired to ground on the pins in `mask`: pull-ups on, reads
        inverted so 1 = pressed, interrupt on any change. Every other pin is an
        input with its pull-up on, so nothing floats."""
        self.buttons = mask & 0xFFFF
        self._wide = self.buttons > 0xFF
        self.configure(inputs=0xFFFF, pullups=0xFFFF, invert=self.buttons, irq=self.buttons)

    def pressed(self):
        """Mask of buttons held down, as read now; reading clears the interrupt."""
        if self._wide:
            return self.read_pair(GPIO) & self.buttons
        return self.read_reg(GPIO) & self.buttons
