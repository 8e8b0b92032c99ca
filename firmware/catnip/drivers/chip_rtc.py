# The RP2040's own real-time clock (machine.RTC), as a clock the table's
# wall (catnip.table.wall) reads and sets like the DS3231: Unix seconds, UTC.
# It has no battery: the rp2 port sets it to 2021-01-01 00:00 at every
# power-on and hard reset (a watchdog's and machine.reset()'s too, in its
# main()), but a soft reset (Ctrl-D, or the app restarted after a Ctrl-C)
# keeps it counting. So a year from SET_SINCE on was set in this power-up,
# by a laptop's clock: the table dates games from it after a soft reset.
from machine import RTC

SET_SINCE = 2024  # the port's start, 2021, plus years of uptime no table runs


class ChipRTC:
    def __init__(self):
        self._rtc = RTC()

    def time(self):
        """Unix seconds the clock holds, or None when it was not set in this
        power-up."""
        from catnip.drivers.ds3231 import to_unix

        year, month, day, _, hour, minute, second, _ = self._rtc.datetime()
        if year < SET_SINCE:
            return None
        return to_unix(year, month, day, hour, minute, second)

    def set(self, t):
        """Set the clock to Unix seconds `t` (UTC)."""
        from catnip.drivers.ds3231 import from_unix

        year, month, day, hour, minute, second, weekday = from_unix(t)
        self._rtc.datetime((year, month, day, weekday, hour, minute, second, 0))
