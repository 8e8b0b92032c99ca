# DS3231 model at the register level (Maxim 19-5170): a register pointer set
# by the first byte of each write, auto-incrementing through 0x00-0x12 and
# wrapping; the time registers 0x00-0x06 count on from when they were last
# written, by the table's clock (ms); OSF (0x0F bit 7) is set at power-on of
# a module without a battery and cleared only by writing it 0.
REGS = 0x13


class DS3231:
    def __init__(self, now_ms, unix=None):
        """`now_ms`: the table's clock; `unix`: the time the battery kept
        (None: a module that lost it, OSF set)."""
        self.now_ms = now_ms
        self.present = True
        self.regs = bytearray(REGS)
        self.regs[0x0E] = 0x1C  # control at power-on
        self.pointer = 0
        self._base = (unix or 0, now_ms())  # (Unix seconds, ms) the time registers count from
        if unix is None:
            self.regs[0x0F] = 0x80
        self.writes = 0

    def unix(self):
        """What the clock holds now, in Unix seconds."""
        t, at = self._base
        return t + (self.now_ms() - at) // 1000

    def write(self, data):
        if not data:
            return
        self.writes += 1
        self.pointer = data[0] % REGS
        body = data[1:]
        if not body:
            return
        self._latch()
        for b in body:
            self.regs[self.pointer] = b if self.pointer != 0x0F else (b & 0x80) & self.regs[0x0F] \
                | (b & 0x7F)
            self.pointer = (self.pointer + 1) % REGS
        self._base = (_from_regs(self.regs), self.now_ms())

    def read(self, n):
        self._latch()
        out = bytearray()
        for _ in range(n):
            out.append(self.regs[self.pointer])
            self.pointer = (self.pointer + 1) % REGS
        return bytes(out)

    def _latch(self):
        """The time registers as the counting chain holds them now."""
        from catnip.drivers.ds3231 import from_unix

        year, month, day, hour, minute, second, weekday = from_unix(self.unix())
        r = self.regs
        r[0], r[1], r[2], r[3] = _bcd(second), _bcd(minute), _bcd(hour), weekday + 1
        r[4], r[5], r[6] = _bcd(day), _bcd(month) | (0x80 if year >= 2100 else 0), \
            _bcd(year % 100)

    def unplug(self):
        self.present = False

    def plug(self):
        self.present = True


def _bcd(n):
    return (n // 10) << 4 | n % 10


def _from_regs(r):
    from catnip.drivers.ds3231 import _bcd as value, _hours, to_unix

    year = 2000 + value(r[6]) + (100 if r[5] & 0x80 else 0)
    return to_unix(year, value(r[5] & 0x1F), value(r[4] & 0x3F), _hours(r[2]),
                   value(r[1] & 0x7F), value(r[0] & 0x7F))
