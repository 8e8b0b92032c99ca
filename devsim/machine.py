# A stand-in for MicroPython's rp2 `machine` module. The unmodified firmware
# imports it on the unix port; behind the rp2 API sit the pin board and the
# I2C buses of devsim, where the chip models live.
#
# Only names that rp2's machine module has are public here, with signatures
# it accepts (tests/test_machine_stub.py checks them against the rp2 stubs),
# so firmware that runs on this fake runs on the Pico. Time-driven parts
# (Timer, WDT) move when devsim.soc.service() runs; see devsim/soc.py.
try:
    from time import sleep_ms as _sleep_ms  # type: ignore[attr-defined]  # MicroPython's
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

from devsim import bus as _bus
from devsim import pins as _pins
from devsim import soc as _soc

PWRON_RESET = 1
WDT_RESET = 3

# RP2040 I2C pin functions (datasheet 1.4.3, GPIO function table).
_I2C_SDA = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))
_I2C_SCL = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))


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
        # The output latch: rp2 keeps the last value written, even while the
        # pin is an input, and drives it once the pin becomes an output.
        self._latch = _pins.board.pin(self.id).firmware or 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, drive=0, alt=-1):
        board = _pins.board
        if mode != -1:
            self._mode = mode
        if pull != -1:
            board.set_pull(self.id, pull or _pins.PULL_NONE)
        if value is not None:
            self._latch = 1 if value else 0
        self._drive()

    def _drive(self):
        if self._mode == self.OUT:
            level = self._latch
        elif self._mode == self.OPEN_DRAIN:
            level = None if self._latch else 0
        else:
            level = None
        _pins.board.set_firmware(self.id, level)

    def value(self, x=None):
        if x is None:
            return _pins.board.level(self.id)
        self._latch = 1 if x else 0
        self._drive()

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

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, *, hard=False):
        board = _pins.board
        if self._handler is not None:
            board.unwatch(self.id, self._edge)
        self._handler = handler
        self._trigger = trigger
        if handler is not None:
            board.watch(self.id, self._edge)

    def _edge(self, pin_id, level, t_us):
        if (level and self._trigger & self.IRQ_RISING) or (not level and self._trigger & self.IRQ_FALLING):
            _soc.soc.interrupt(self._handler, self)

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
        scl_id = _pin_id(scl) if scl is not None else _I2C_SCL[id][1]
        sda_id = _pin_id(sda) if sda is not None else _I2C_SDA[id][1]
        if scl_id not in _I2C_SCL[id]:
            raise ValueError("bad SCL pin")
        if sda_id not in _I2C_SDA[id]:
            raise ValueError("bad SDA pin")
        self._freq = freq
        super().__init__(_bus.bus(id))


class SoftI2C(_I2CBase):
    """Bit-banged I2C on any two pins; keyed on the bus table by its pins."""

    def __init__(self, scl, sda, *, freq=400000, timeout=50000):
        self._freq = freq
        super().__init__(_bus.bus("soft:%d:%d" % (_pin_id(scl), _pin_id(sda))))

    def writeto(self, addr, buf, stop=True):
        try:
            return super().writeto(addr, buf, stop)
        except OSError:
            raise OSError(19)  # SoftI2C reports a missing device as ENODEV




class PWM:
    """PWM on one GPIO. Both channels of an RP2040 slice share one frequency,
    as on the chip: setting it on GP16 also changes GP17 (and GP0, GP1 share
    slice 0 with them). The output is visible as devsim.soc.soc.tone(pin)."""

    def __init__(self, dest, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self._pin = _pin_id(dest)
        _soc.soc.pwm_duty[self._pin] = 0
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        if duty_ns is not None:
            self.duty_ns(duty_ns)
        self._invert = bool(invert)

    def deinit(self):
        _soc.soc.pwm_duty.pop(self._pin, None)

    def freq(self, value=None):
        soc = _soc.soc
        if value is None:
            return soc.pwm_freq.get(_soc.pwm_slice(self._pin), 0)
        # 125 MHz / (divider 256 * 65536 counts) is the slowest; 2 counts the fastest.
        if not 8 <= value <= soc.cpu_hz // 2:
            raise ValueError("freq %s Hz is out of range 8..%d" % (value, soc.cpu_hz // 2))
        soc.pwm_freq[_soc.pwm_slice(self._pin)] = value

    def duty_u16(self, value=None):
        duty = _soc.soc.pwm_duty
        if value is None:
            return duty.get(self._pin, 0)
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 %s is out of range 0..65535" % (value,))
        duty[self._pin] = value

    def duty_ns(self, value=None):
        hz = self.freq()
        if value is None:
            return self.duty_u16() * 1000000000 // (65535 * hz) if hz else 0
        if not hz:
            raise ValueError("set freq before duty_ns")
        self.duty_u16(min(65535, value * hz * 65535 // 1000000000))


class Timer:
    """A virtual timer (rp2 has only those: id -1). Callbacks run when
    devsim.soc.service() finds them due."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id, *, mode=PERIODIC, period=None, freq=None, tick_hz=1000, callback=None,
                 hard=None):
        if id != -1:
            raise ValueError("Timer(%s) doesn't exist: rp2 has only virtual timers, Timer(-1)" % (id,))
        self._callback = None
        if period is not None or freq is not None or callback is not None:
            self.init(mode=mode, period=period, freq=freq, tick_hz=tick_hz, callback=callback,
                      hard=hard)

    def init(self, *, mode=PERIODIC, period=None, freq=None, tick_hz=1000, callback=None, hard=None):
        if freq is not None:
            if freq <= 0:
                raise ValueError("freq must be positive")
            period_ms = 1000 / freq
        else:
            period_ms = (period if period is not None else -1) * 1000 / tick_hz
        if period_ms < 0:
            raise ValueError("a Timer needs period or freq")
        soc = _soc.soc
        self.deinit()
        self._mode = mode
        self._period = period_ms
        self._due = soc.now() + period_ms
        self._callback = callback
        soc.timers.append(self)

    def deinit(self):
        timers = _soc.soc.timers
        if self in timers:
            timers.remove(self)

    def _fire_due(self, now):
        while self in _soc.soc.timers and now >= self._due:
            if self._mode == self.ONE_SHOT:
                self.deinit()
            else:
                self._due += max(self._period, 1)
            if self._callback is not None:
                _soc.soc.interrupt(self._callback, self)


class WDT:
    """The watchdog: once started it cannot be stopped; feed() it within
    `timeout` ms or devsim.soc.service() raises devsim.soc.Reset."""

    def __init__(self, *, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%s) doesn't exist" % (id,))
        if not 1 <= timeout <= 8388:
            raise ValueError("WDT timeout %s ms is out of range 1..8388" % (timeout,))
        soc = _soc.soc
        soc.watchdog = [timeout, soc.now()]

    def feed(self):
        _soc.soc.watchdog[1] = _soc.soc.now()


class RTC:
    """The RP2040's real-time clock, as the rp2 port gives it: one clock,
    read and set as (year, month, day, weekday 0 = Monday, hours, minutes,
    seconds, subseconds). It lives on the chip (devsim.soc): 2021-01-01
    00:00 at power-on, as the port's main() sets it, then counting on by
    the chip's clock; a soft reset keeps it."""

    def __init__(self, id=0, *, datetime=None):
        if id != 0:
            raise ValueError("RTC(%s) doesn't exist" % (id,))
        if datetime is not None:
            self.datetime(tuple(datetime) + (0,) * (8 - len(datetime)))

    def datetime(self, datetimetuple=None):
        from catnip.drivers.ds3231 import from_unix, to_unix  # the calendar's arithmetic

        soc = _soc.soc
        if datetimetuple is None:
            t, at = soc.rtc
            year, month, day, hour, minute, second, weekday = \
                from_unix(t + (soc.now() - at) // 1000)
            return (year, month, day, weekday, hour, minute, second, 0)
        if len(datetimetuple) != 8:
            raise ValueError("RTC.datetime takes an 8-tuple")
        d = datetimetuple
        soc.rtc = (to_unix(d[0], d[1], d[2], d[4], d[5], d[6]), soc.now())
        return None


def disable_irq():
    soc = _soc.soc
    state = soc.irq_depth
    soc.irq_depth += 1
    return state


def enable_irq(state):
    soc = _soc.soc
    soc.irq_depth = state
    soc.unmask()


def freq(hz=None):
    soc = _soc.soc
    if hz is None:
        return soc.cpu_hz
    if not 10000000 <= hz <= 266000000:
        raise ValueError("cannot run the RP2040 at %s Hz" % (hz,))
    soc.cpu_hz = hz


def unique_id():
    return b"\xca\x7f\x00\x0d\x5e\x11\x00\x01"


def reset_cause():
    return _soc.soc.reset_cause


def reset():
    # rp2 resets through the watchdog, so reset_cause() says WDT_RESET after it.
    _soc.soc.reset_cause = WDT_RESET
    raise _soc.Reset(WDT_RESET)


def soft_reset():
    raise _soc.Reset(_soc.soc.reset_cause, soft=True)


def idle():
    _soc.soc.service()


def lightsleep(time_ms=None):
    if time_ms is not None:
        _sleep_ms(time_ms)
    _soc.soc.service()


def deepsleep(time_ms=None):
    lightsleep(time_ms)
    reset()
