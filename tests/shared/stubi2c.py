# I2C and pin stand-ins that allocate nothing and cost almost nothing, so a
# poll can run with the heap locked (the simulated bus copies bytes, the
# firmware path must not) and be timed as firmware code alone.
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


class StubPin:
    def __init__(self, level=1):
        self.level = level

    def value(self):
        return self.level


def swap_in(buttons):
    """Point every expander (and mux) of `buttons` at one shared StubI2C, and
    its interrupt input, if any, at a StubPin that stays high."""
    stub = StubI2C()
    if buttons.irq is not None:
        buttons.irq = StubPin()
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
