# DS3231 real-time clock (Analog Devices/Maxim datasheet 19-5170): a battery-
# backed, temperature-compensated clock on I2C at 0x68, so the table knows the
# date after a power cut. Registers 0x00-0x06 hold the time in BCD (seconds,
# minutes, hours, weekday, date, month with the century bit, year 00-99); the
# status register's OSF bit (0x0F bit 7) says the oscillator stopped (battery
# flat or never set): the time is then not to be trusted.
#
# PURE arithmetic (no machine import): time() and set() take Unix seconds, UTC.
ADDR = 0x68
_TIME = 0x00
_STATUS = 0x0F
_OSF = 0x80
_EPOCH_DAYS = 719468  # days from 0000-03-01 to 1970-01-01 (the civil-from-days shift)


class DS3231:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._regs = bytearray(7)
        self._one = bytearray(1)

    def time(self):
        """Unix seconds (UTC) the clock holds, or None when it lost the time."""
        self.i2c.readfrom_mem_into(self.addr, _STATUS, self._one)
        if self._one[0] & _OSF:
            return None
        r = self._regs
        self.i2c.readfrom_mem_into(self.addr, _TIME, r)
        year = 2000 + _bcd(r[6]) + (100 if r[5] & 0x80 else 0)
        return to_unix(year, _bcd(r[5] & 0x1F), _bcd(r[4] & 0x3F), _hours(r[2]),
                       _bcd(r[1] & 0x7F), _bcd(r[0] & 0x7F))

    def set(self, t):
        """Set the clock to Unix seconds `t` (UTC, years 2000-2199) and mark
        the time good (clear OSF)."""
        year, month, day, hour, minute, second, weekday = from_unix(t)
        if not 2000 <= year <= 2199:
            raise ValueError("the DS3231 keeps years 2000-2199, not %d" % year)
        r = self._regs
        r[0], r[1], r[2] = _to_bcd(second), _to_bcd(minute), _to_bcd(hour)  # 24-hour mode
        r[3], r[4] = weekday + 1, _to_bcd(day)
        r[5] = _to_bcd(month) | (0x80 if year >= 2100 else 0)
        r[6] = _to_bcd(year % 100)
        self.i2c.writeto_mem(self.addr, _TIME, r)
        self.i2c.readfrom_mem_into(self.addr, _STATUS, self._one)
        self._one[0] &= ~_OSF & 0xFF
        self.i2c.writeto_mem(self.addr, _STATUS, self._one)


def to_unix(year, month, day, hour, minute, second):
    """Seconds since 1970-01-01 00:00 UTC (H. Hinnant's days_from_civil)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - _EPOCH_DAYS
    return days * 86400 + hour * 3600 + minute * 60 + second


def from_unix(t):
    """(year, month, day, hour, minute, second, weekday 0 = Monday) of Unix
    seconds `t` (civil_from_days)."""
    days, rest = divmod(t, 86400)
    weekday = (days + 3) % 7  # 1970-01-01 was a Thursday
    z = days + _EPOCH_DAYS
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    year = yoe + era * 400 + (month <= 2)
    return year, month, day, rest // 3600, rest // 60 % 60, rest % 60, weekday


def _bcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


def _to_bcd(n):
    return (n // 10) << 4 | n % 10


def _hours(b):
    if b & 0x40:  # 12-hour mode, as another device may have left it: bit 5 is PM
        return _bcd(b & 0x1F) % 12 + (12 if b & 0x20 else 0)
    return _bcd(b & 0x3F)
