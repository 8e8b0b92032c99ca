# An I2C stand-in that allocates nothing, so a poll can run with the heap
# locked: the simulated bus copies bytes, the firmware path must not.
class StubI2C:
    def __init__(self):
        self.port = 0xFF  # what every read returns, per byte

    def writeto(self, addr, buf, stop=True):
        return len(buf)

    def writeto_mem(self, addr, reg, buf):
        return

    def readfrom_into(self, addr, buf, stop=True):
        for i in range(len(buf)):
            buf[i] = self.port

    def readfrom_mem_into(self, addr, reg, buf):
        for i in range(len(buf)):
            buf[i] = self.port


def swap_in(buttons):
    """Point every expander (and mux) of `buttons` at one shared StubI2C."""
    stub = StubI2C()
    for st in buttons.stations:
        src = st.source
        src.expander.i2c = stub
        if src.mux is not None:
            src.mux.i2c = stub
    buttons.stub = stub
    return stub


def pressing(buttons, down):
    """Button 0 of every station down (1) or up (0): the port reads active low."""
    buttons.stub.port = 0xFE if down else 0xFF
