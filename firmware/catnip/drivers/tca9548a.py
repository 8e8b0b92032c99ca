# TCA9548A 1-to-8 I2C multiplexer. Its one register is the channel enable
# mask; catnip enables one channel at a time (each station is one channel).
#
# The selected channel is cached so that talking to the same station again
# costs no bus traffic. Any OSError (the mux, or a device behind it, did not
# answer) forgets the cache: the mux may have lost power and reset to "no
# channel", and the next select() must write the register again.


class TCA9548A:
    CHANNELS = 8

    def __init__(self, i2c, addr=0x70):
        if not 0x70 <= addr <= 0x77:
            raise ValueError("TCA9548A address 0x%02x: A2..A0 give 0x70..0x77" % addr)
        self.i2c = i2c
        self.addr = addr
        self.selected = None  # None: unknown, so the next select writes
        self.selects = 0  # register writes made, for the curious
        self._buf = bytearray(1)

    def select(self, channel):
        """Route the bus to `channel` (0..7); None disconnects every channel."""
        if channel == self.selected:
            return
        if channel is None:
            self._buf[0] = 0
        elif 0 <= channel < 8:
            self._buf[0] = 1 << channel
        else:
            raise ValueError("TCA9548A channel %r: use 0..7, or None for none" % (channel,))
        try:
            self.i2c.writeto(self.addr, self._buf)
        except OSError:
            self.selected = None
            raise
        self.selected = channel
        self.selects += 1

    def invalidate(self):
        """Forget the cached channel (call after a failed transfer behind the mux)."""
        self.selected = None

    def enabled(self):
        """Read the control register back: the mask of enabled channels."""
        try:
            self.i2c.readfrom_into(self.addr, self._buf)
        except OSError:
            self.selected = None
            raise
        return self._buf[0]
