# A simulated I2C bus: device models at 7-bit addresses, and a record of every
# transaction so tests and benchmarks can count the bytes on the wire.
#
# A model implements write(data) for one write transaction (the bytes after the
# address) and read(n) -> bytes for one read transaction. A model with a
# `downstream(addr)` method (a multiplexer) is asked for addresses it routes.
EIO = 5

# I2C cost of one transaction at a given clock, in bits: start, address byte
# with ACK (9), each data byte with ACK (9), stop.
START_STOP_BITS = 2
BITS_PER_BYTE = 9


class Bus:
    def __init__(self, name="i2c"):
        self.name = name
        self.devices = {}
        self.transactions = []  # (addr, "w" or "r", nbytes)
        self.recording = True

    def attach(self, addr, device):
        if not 0x08 <= addr <= 0x77:
            raise ValueError("0x%02x is not a usable 7-bit I2C address" % addr)
        if addr in self.devices:
            raise ValueError("address 0x%02x is taken on %s" % (addr, self.name))
        self.devices[addr] = device
        return device

    def detach(self, addr):
        return self.devices.pop(addr, None)

    def find(self, addr):
        dev = self.devices.get(addr)
        if dev is not None and getattr(dev, "present", True):
            return dev
        for d in self.devices.values():
            route = getattr(d, "downstream", None)
            if route is not None and getattr(d, "present", True):
                hit = route(addr)
                if hit is not None:
                    return hit
        return None

    def scan(self):
        return [a for a in range(0x08, 0x78) if self.find(a) is not None]

    def write(self, addr, data):
        dev = self._device(addr)
        self._record(addr, "w", len(data))
        dev.write(bytes(data))

    def read(self, addr, n):
        dev = self._device(addr)
        self._record(addr, "r", n)
        data = dev.read(n)
        if len(data) != n:
            raise AssertionError("model at 0x%02x returned %d bytes, not %d" % (addr, len(data), n))
        return data

    def _device(self, addr):
        dev = self.find(addr)
        if dev is None:
            # The address byte was not acknowledged; rp2's machine.I2C says EIO.
            raise OSError(EIO)
        return dev

    def _record(self, addr, kind, n):
        if self.recording:
            self.transactions.append((addr, kind, n))

    # ---- accounting ------------------------------------------------------

    def clear(self):
        self.transactions = []

    def bytes_sent(self):
        """Bytes on the wire, address bytes included."""
        return sum(n + 1 for _, _, n in self.transactions)

    def wire_us(self, freq=400000):
        """Time the recorded traffic holds the bus at `freq` Hz, in µs."""
        bits = sum(START_STOP_BITS + BITS_PER_BYTE * (n + 1) for _, _, n in self.transactions)
        return bits * 1000000 // freq


# Buses by the id the firmware passes to machine.I2C / SoftI2C. A test or the
# virtual table attaches models here before the firmware starts.
buses: dict = {}


def bus(bus_id):
    b = buses.get(bus_id)
    if b is None:
        b = buses[bus_id] = Bus("i2c%s" % (bus_id,))
    return b


def reset():
    buses.clear()
