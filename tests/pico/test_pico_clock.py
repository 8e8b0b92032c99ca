"""The RP2040's own clock on the real build: at power-on the rp2 port's RTC
holds 2021-01-01, which the table takes for "not set"; once a laptop's clock
is set on it, a wall made afresh (as the app's next run in the same power-up
makes it, after a soft reset) reads it back and dates games from it. The
soft reset itself the emulator cannot do (it lacks core 1, docs/pico.md);
that the port keeps its RTC through one is its main()'s (docs/records.md)."""

from __future__ import annotations

from bench import pico_flash, pico_run

KEPT = 1796287500  # 2026-12-03 08:45:00 UTC
SCRIPT = """
import time
from catnip.drivers.chip_rtc import ChipRTC
from catnip.table.wall import Wall


class Hw:
    def clocks():  # (called on the class: no DS3231 fitted)
        return [ChipRTC()]


class Clock:
    ticks_ms = staticmethod(time.ticks_ms)


assert Wall(Hw, Clock()).time() is None, "a power-on RTC read as set"
Wall(Hw, Clock()).set(%d)
time.sleep_ms(1500)
t = Wall(Hw, Clock()).time()
print("READ", t)
assert %d + 1 <= t <= %d + 3, t
print("OK")
""" % (KEPT, KEPT, KEPT)


def test_the_rp2040s_clock_is_read_back_once_a_laptop_set_it(pico, tmp_path):
    script = tmp_path / "clock.py"
    script.write_text(SCRIPT)
    run = pico_run.run(pico_flash.repl_free(pico, tmp_path / "free.img"), tmp_path / "out", 0,
                       script=script)
    assert "OK" in run.stdout.split(), run.stdout[-1500:]
