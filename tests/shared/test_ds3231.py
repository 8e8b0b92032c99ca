# The DS3231 clock driver against a model that decodes the real I2C
# transactions (register pointer, BCD time registers, the OSF flag), and the
# date arithmetic both sides use.
import machine

from catnip.drivers.ds3231 import DS3231, from_unix, to_unix
from devsim.models.ds3231 import DS3231 as ClockModel
from inputrig import fresh

ADDR = 0x68
DEC_3_2026 = 1796287500  # 2026-12-03 08:45:00 UTC


class Ms:
    """A clock the test moves by hand."""

    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


def rig(unix=None):
    bus = fresh()
    ms = Ms()
    model = ClockModel(ms, unix)
    bus.attach(ADDR, model)
    return DS3231(machine.I2C(0)), model, ms


def test_the_date_arithmetic_matches_known_days():
    assert to_unix(1970, 1, 1, 0, 0, 0) == 0
    assert to_unix(2000, 3, 1, 0, 0, 0) == 951868800
    assert to_unix(2026, 12, 3, 8, 45, 0) == DEC_3_2026
    assert from_unix(DEC_3_2026) == (2026, 12, 3, 8, 45, 0, 3)  # a Thursday
    assert from_unix(to_unix(2024, 2, 29, 23, 59, 59)) == (2024, 2, 29, 23, 59, 59, 3)
    for t in (0, 946684799, 946684800, 4102444800, 4107542400, 7258118399):
        assert to_unix(*from_unix(t)[:6]) == t


def test_a_clock_that_lost_the_time_says_so_until_it_is_set():
    clock, model, ms = rig(None)
    assert clock.time() is None  # OSF: battery out or never set
    clock.set(DEC_3_2026)
    assert model.regs[0x0F] & 0x80 == 0
    assert clock.time() == DEC_3_2026
    ms.ms += 61500
    assert clock.time() == DEC_3_2026 + 61


def test_set_writes_the_datasheets_bcd_registers():
    clock, model, _ = rig(None)
    clock.set(DEC_3_2026)
    assert list(model.regs[0:7]) == [0x00, 0x45, 0x08, 4, 0x03, 0x12, 0x26]
    clock.set(to_unix(2101, 1, 2, 23, 5, 9))
    assert model.regs[5] == 0x81 and model.regs[6] == 0x01  # the century bit
    assert clock.time() == to_unix(2101, 1, 2, 23, 5, 9)


def test_a_battery_kept_time_survives_a_power_cut():
    clock, model, ms = rig(DEC_3_2026 - 3600)
    assert clock.time() == DEC_3_2026 - 3600
    ms.ms = 5000
    again = DS3231(machine.I2C(0))  # the next power-up, the same module
    assert again.time() == DEC_3_2026 - 3595


def test_twelve_hour_registers_left_by_another_device_read_right():
    clock, model, _ = rig(None)
    clock.set(DEC_3_2026)
    machine.I2C(0).writeto_mem(ADDR, 0x02, bytes((0x40 | 0x20 | 0x08,)))  # 8 PM, 12-hour mode
    assert from_unix(clock.time())[3] == 20


def test_years_the_clock_cannot_hold_are_refused():
    clock, _, _ = rig(None)
    for t in (to_unix(1999, 12, 31, 0, 0, 0), to_unix(2200, 1, 1, 0, 0, 0)):
        try:
            clock.set(t)
        except ValueError as e:
            assert "2000-2199" in str(e)
        else:
            raise AssertionError("set %d" % t)


def test_the_wall_lets_the_date_arithmetic_go_once_it_has_read_the_clock():
    # Read once at power-up (the RP2040's clock uses the DS3231 module's
    # arithmetic): the module leaves the heap until a laptop sets the time,
    # and again once it has been set; the clocks' drivers with it.
    import sys

    from catnip.table.wall import Wall

    class Chip:
        def time(self):
            from catnip.drivers.ds3231 import to_unix

            return to_unix(2026, 12, 3, 8, 45, 0)

        def set(self, t):
            from catnip.drivers.ds3231 import from_unix

            self.set_to = from_unix(t)

    class Hw:
        def clocks(self):
            return [Chip()]

    class Clock:
        def ticks_ms(self):
            return 0

    wall = Wall(Hw(), Clock())
    assert wall.time() == DEC_3_2026
    assert "catnip.drivers.ds3231" not in sys.modules
    wall.set(DEC_3_2026 + 60)
    assert wall.time() == DEC_3_2026 + 60
    assert "catnip.drivers.ds3231" not in sys.modules
