# MCP23017 model (Microchip DS20001952): the register file, both address
# layouts (IOCON.BANK), sequential and byte mode, pull-ups, input polarity,
# interrupt on change or on compare with DEFVAL, INTF/INTCAP, and the INTA /
# INTB outputs (MIRROR, ODR, INTPOL) driven onto devsim lines.
#
# Registers are kept as (A, B) pairs, in the order of the BANK = 0 map.
IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT = range(11)
NAMES = ("IODIR", "IPOL", "GPINTEN", "DEFVAL", "INTCON", "IOCON", "GPPU", "INTF", "INTCAP",
         "GPIO", "OLAT")

BANK = 0x80
MIRROR = 0x40
SEQOP = 0x20
ODR = 0x04
INTPOL = 0x02

FLOATING = 0  # what an input with no pull-up and nothing driving it reads here


class MCP23017:
    def __init__(self, inta=None, intb=None):
        self.lines = (inta, intb)
        self.present = True
        self.external = [[None] * 8, [None] * 8]  # level driven on each pin, per port
        self.power_on()

    def power_on(self):
        self.regs = [[0, 0] for _ in NAMES]
        self.regs[IODIR] = [0xFF, 0xFF]
        self.pointer = 0
        self.pending = [False, False]
        self.reference = [self.pins(0), self.pins(1)]
        self._signal()

    @property
    def iocon(self):
        return self.regs[IOCON][0]

    # --- pins and interrupts ----------------------------------------------

    def pins(self, port):
        """Level of the eight pins of port 0 (A) or 1 (B)."""
        iodir = self.regs[IODIR][port]
        pullup = self.regs[GPPU][port]
        olat = self.regs[OLAT][port]
        ext = self.external[port]
        value = 0
        for n in range(8):
            bit = 1 << n
            if not iodir & bit:
                level = olat & bit
            elif ext[n] is not None:
                level = ext[n]
            else:
                level = pullup & bit or FLOATING
            if level:
                value |= bit
        return value

    def gpio(self, port):
        """The GPIO register: inputs through IPOL, outputs as driven."""
        return self.pins(port) ^ (self.regs[IPOL][port] & self.regs[IODIR][port])

    def _evaluate(self, port):
        # Interrupt-on-change compares with the level at the last interrupt or
        # clear; compare mode with DEFVAL. While one is pending nothing new
        # is captured (DS20001952 3.6.4-3.6.5).
        if self.pending[port]:
            return
        level = self.pins(port)
        enabled = self.regs[GPINTEN][port] & self.regs[IODIR][port]
        intcon = self.regs[INTCON][port]
        cause = enabled & (~intcon & (level ^ self.reference[port]) |
                           intcon & (level ^ self.regs[DEFVAL][port]))
        self.reference[port] = level
        if cause:
            self.pending[port] = True
            self.regs[INTF][port] = cause
            self.regs[INTCAP][port] = level  # the pin levels, before IPOL

    def _clear(self, port):
        self.pending[port] = False
        self.regs[INTF][port] = 0
        self.reference[port] = self.pins(port)
        self._evaluate(port)  # a DEFVAL mismatch asserts again at once

    def asserted(self, port):
        """Whether INTA (0) or INTB (1) is active."""
        if not self.present:
            return False
        if self.iocon & MIRROR:
            return self.pending[0] or self.pending[1]
        return self.pending[port]

    def _signal(self):
        iocon = self.iocon
        for port in (0, 1):
            line = self.lines[port]
            if line is None:
                continue
            active = self.asserted(port)
            if not self.present:
                level = None
            elif iocon & ODR:
                level = 0 if active else None
            else:
                on = 1 if iocon & INTPOL else 0
                level = on if active else 1 - on
            line.set((self, port), level)

    def _changed(self):
        self._evaluate(0)
        self._evaluate(1)
        self._signal()

    def drive(self, pin, level):
        """An external part drives pin 0..15 (GPA0..GPA7, GPB0..GPB7) to 0/1,
        or lets go (None)."""
        if not 0 <= pin < 16:
            raise ValueError("MCP23017 has pins 0..15 (GPA0..GPB7), not %r" % (pin,))
        self.external[pin >> 3][pin & 7] = level
        self._changed()

    def unplug(self):
        self.present = False
        self._signal()

    def plug(self):
        self.present = True
        self.power_on()

    # --- the I2C side -------------------------------------------------------

    def _decode(self, addr):
        """(register, port) at a register address, or None if unimplemented."""
        if self.iocon & BANK:
            reg, port = addr & 0x0F, addr >> 4
            if reg > OLAT or port > 1:
                return None
            return reg, port
        if addr > 0x15:
            return None
        return addr >> 1, addr & 1

    def _advance(self):
        iocon = self.iocon
        p = self.pointer
        if iocon & SEQOP:  # byte mode: stay, or toggle within an A/B pair
            self.pointer = p if iocon & BANK else p ^ 1
        elif iocon & BANK:  # 0x00..0x0A, then 0x10..0x1A, then round
            self.pointer = 0x10 if p == 0x0A else 0 if p >= 0x1A else p + 1
        else:
            self.pointer = 0 if p >= 0x15 else p + 1

    def write(self, data):
        if not len(data):
            return
        self.pointer = data[0]
        for b in data[1:]:
            self._store(b)
            self._advance()
        self._changed()

    def _store(self, value):
        at = self._decode(self.pointer)
        if at is None:
            return
        reg, port = at
        if reg == IOCON:
            self.regs[IOCON] = [value & 0xFE, value & 0xFE]  # one register, two addresses
        elif reg == GPIO:
            self.regs[OLAT][port] = value
        elif reg not in (INTF, INTCAP):
            self.regs[reg][port] = value

    def read(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self._load()
            self._advance()
        self._signal()
        return bytes(out)

    def _load(self):
        at = self._decode(self.pointer)
        if at is None:
            return 0
        reg, port = at
        if reg == GPIO:
            value = self.gpio(port)
            self._clear(port)
            return value
        if reg == INTCAP:
            value = self.regs[INTCAP][port]
            self._clear(port)
            return value
        return self.regs[reg][port]
