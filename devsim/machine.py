# A stand-in for MicroPython's rp2 `machine` module. The unmodified firmware
# imports it on the unix port; behind the rp2 API sit the pin board and the
# I2C buses of devsim, where the chip models live.
from devsim import bus as _bus
from devsim import pins as _pins

# RP2040 I2C pin functions (datasheet 1.4.3, GPIO function table).
I2C_SDA = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))
I2C_SCL = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))


def _pin_id(pin):
    if isinstance(pin, Pin):
        return pin.id
    if isinstance(pin, str) and pin.startswith("GP"):
        pin = int(pin[2:])
    if not isinstance(pin, int):
        raise TypeError("a pin is a number, 'GPn' or a Pin")
    _pins.board.pin(pin)
    return pin


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=0, alt=-1):
        self.id = _pin_id(id)
        self._mode = self.IN
        self._handler = None
        self._trigger = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, drive=0, alt=-1):
        board = _pins.board
        if mode != -1:
            self._mode = mode
        if pull != -1:
            board.set_pull(self.id, pull or _pins.PULL_NONE)
        if self._mode == self.OUT:
            level = board.pin(self.id).firmware
            if value is not None:
                level = 1 if value else 0
            board.set_firmware(self.id, level or 0)
        elif self._mode == self.OPEN_DRAIN:
            board.set_firmware(self.id, 0 if value is not None and not value else None)
        else:
            board.set_firmware(self.id, None)

    def value(self, x=None):
        if x is None:
            return _pins.board.level(self.id)
        if self._mode == self.OUT:
            _pins.board.set_firmware(self.id, 1 if x else 0)
        elif self._mode == self.OPEN_DRAIN:
            _pins.board.set_firmware(self.id, None if x else 0)
        else:
            # rp2 remembers the output value of an input pin; nothing shows.
            pass

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - _pins.board.level(self.id))

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        board = _pins.board
        if self._handler is not None:
            board.unwatch(self.id, self._edge)
        self._handler = handler
        self._trigger = trigger
        if handler is not None:
            board.watch(self.id, self._edge)

    def _edge(self, pin_id, level, t_us):
        if (level and self._trigger & self.IRQ_RISING) or (not level and self._trigger & self.IRQ_FALLING):
            self._handler(self)

    def __repr__(self):
        return "Pin(GPIO%d)" % self.id


class _I2CBase:
    def __init__(self, bus):
        self._bus = bus

    def scan(self):
        return self._bus.scan()

    def writeto(self, addr, buf, stop=True):
        self._bus.write(addr, buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = bytearray()
        for b in vector:
            data.extend(b)
        self._bus.write(addr, data)
        return len(data)

    def readfrom(self, addr, nbytes, stop=True):
        return self._bus.read(addr, nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        buf[:] = self._bus.read(addr, len(buf))

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self._bus.write(addr, _mem(memaddr, addrsize) + bytes(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        self._bus.write(addr, _mem(memaddr, addrsize))
        return self._bus.read(addr, nbytes)

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        buf[:] = self.readfrom_mem(addr, memaddr, len(buf), addrsize=addrsize)


def _mem(memaddr, addrsize):
    if addrsize == 16:
        return bytes((memaddr >> 8 & 0xFF, memaddr & 0xFF))
    return bytes((memaddr & 0xFF,))


class I2C(_I2CBase):
    """Hardware I2C: bus 0 or 1 on the pins the RP2040 allows for it."""

    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % id)
        scl_id = _pin_id(scl) if scl is not None else I2C_SCL[id][1]
        sda_id = _pin_id(sda) if sda is not None else I2C_SDA[id][1]
        if scl_id not in I2C_SCL[id]:
            raise ValueError("bad SCL pin")
        if sda_id not in I2C_SDA[id]:
            raise ValueError("bad SDA pin")
        self.freq = freq
        super().__init__(_bus.bus(id))


class SoftI2C(_I2CBase):
    """Bit-banged I2C on any two pins; keyed on the bus table by its pins."""

    def __init__(self, scl, sda, *, freq=400000, timeout=50000):
        self.freq = freq
        super().__init__(_bus.bus("soft:%d:%d" % (_pin_id(scl), _pin_id(sda))))

    def writeto(self, addr, buf, stop=True):
        try:
            return super().writeto(addr, buf, stop)
        except OSError:
            raise OSError(19)  # SoftI2C reports a missing device as ENODEV



def disable_irq():
    return 1


def enable_irq(state=1):
    pass


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xca\x7f\x00\x0d\x5e\x11\x00\x01"


def idle():
    pass
