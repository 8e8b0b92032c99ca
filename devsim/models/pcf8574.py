# PCF8574 model: quasi-bidirectional port (TI SCPS068). A pin whose latch bit
# is 0 is pulled low hard and reads 0. A pin whose latch bit is 1 is held up
# by a weak current source, so it reads whatever an external part drives it
# to, or 1 when nothing does. INT (open drain, active low) is asserted while
# the inputs differ from what the last read or write saw; a read or write, or
# the inputs going back, releases it.
POWER_ON = 0xFF


class PCF8574:
    def __init__(self, int_line=None):
        self.int_line = int_line
        self.present = True
        self.external = [None] * 8  # level an external part drives, per pin
        self.latch = POWER_ON
        self.seen = self.port()
        self.reads = 0
        self.writes = 0

    def port(self):
        """Level of the eight pins now."""
        value = 0
        for n in range(8):
            ext = self.external[n]
            if self.latch >> n & 1 and (ext is None or ext):
                value |= 1 << n
        return value

    def interrupt(self):
        return self.present and self.port() != self.seen

    # --- the I2C side ---------------------------------------------------

    def write(self, data):
        for b in data:
            self.latch = b
        self.writes += 1
        self.seen = self.port()
        self._signal()

    def read(self, n):
        value = self.port()
        self.reads += 1
        self.seen = value
        self._signal()
        return bytes((value,)) * n

    # --- the pin side ---------------------------------------------------

    def drive(self, pin, level):
        """An external part drives pin P<pin> to 0/1, or lets go (None)."""
        if not 0 <= pin < 8:
            raise ValueError("PCF8574 has pins 0..7, not %r" % (pin,))
        self.external[pin] = level
        self._signal()

    def unplug(self):
        self.present = False
        self._signal()

    def plug(self):
        """Power returns: latch back to all ones, nothing pending."""
        self.present = True
        self.latch = POWER_ON
        self.seen = self.port()
        self._signal()

    def _signal(self):
        if self.int_line is not None:
            self.int_line.set(self, 0 if self.interrupt() else None)
