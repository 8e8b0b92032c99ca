# TCA9548A model: one control register (bit n enables channel n), eight
# downstream buses. The devsim bus asks downstream(addr) for addresses the
# mux does not own, and the model answers from the enabled channels.
from devsim.bus import Bus

POWER_ON = 0x00  # no channel enabled


class TCA9548A:
    def __init__(self, name="mux"):
        self.channels = [Bus("%s.ch%d" % (name, n)) for n in range(8)]
        self.present = True
        self.control = POWER_ON
        self.writes = 0  # control register writes received

    def write(self, data):
        # Several bytes in one write: the last one stays (TCA9548A datasheet, "Control Register").
        if len(data):
            self.control = data[-1]
            self.writes += 1

    def read(self, n):
        return bytes((self.control,)) * n

    def downstream(self, addr):
        hit = None
        for n in range(8):
            if self.control >> n & 1:
                dev = self.channels[n].find(addr)
                if dev is not None:
                    if hit is not None:
                        raise AssertionError("two devices answer 0x%02x behind the mux "
                                             "(control 0x%02x)" % (addr, self.control))
                    hit = dev
        return hit

    def unplug(self):
        self.present = False

    def plug(self):
        """Power comes back: the control register resets to no channel."""
        self.present = True
        self.control = POWER_ON
