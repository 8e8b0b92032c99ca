# Seven stations behind the mux, each an expander with bouncing buttons, all
# on one shared interrupt line: the whole input path through real I2C
# transactions decoded by the models.
from buttoncheck import check_stream, presses
from check import message

from catnip.drivers.buttons import ExpanderSource
from devsim.models import mcp23017 as mm
from inputrig import MUX_ADDR, Table

ONLINE_ALL = [(k, "online", 0) for k in range(7)]


def mux_writes(table):
    return len([t for t in table.bus.transactions if t[0] == MUX_ADDR and t[1] == "w"])


def test_all_stations_come_online_and_a_press_reaches_the_right_one():
    for chip in ("pcf8574", "mcp23017"):
        t = Table(chip=chip)
        assert t.run(0, 10) == ONLINE_ALL
        t.keys[3][2].tap(105, 200)
        got = t.run(10, 600)
        assert got == [(3, "press", 2), (3, "release", 2)], (chip, got)


def test_idle_with_interrupt_line_reads_nothing_until_fallback():
    t = Table(fallback_ms=1000)
    t.run(0, 20)
    t.bus.clear()
    t.run(20, 990)
    assert t.bus.transactions == []
    t.run(990, 1010)  # the periodic full read: a select and a read per station
    assert len(t.bus.transactions) == 14


def test_without_interrupt_line_every_poll_reads_every_station():
    t = Table(irq=False)
    t.run(0, 20)
    t.bus.clear()
    t.run(20, 30)
    assert t.bus.transactions == [(MUX_ADDR, "w", 1), (0x20, "r", 1)] * 7
    assert t.bus.bytes_sent() == 28


def test_interrupt_reads_stations_only_until_the_line_releases():
    t = Table()
    t.run(0, 20)
    t.keys[2][0].press(25)
    t.keys[2][0].settle()
    t.bus.clear()
    got = t.run(30, 40)
    assert got == [(2, "press", 0)]
    reads = [a for a, kind, n in t.bus.transactions if kind == "r"]
    assert len(reads) == 3  # stations 0, 1, 2; then the line is high again


def test_mux_selected_again_only_when_the_channel_changes():
    t = Table(stations=1, irq=False)
    t.run(0, 10)
    t.bus.clear()
    t.run(10, 500)
    assert mux_writes(t) == 0  # one station: its channel stays selected
    t = Table(stations=7, irq=False)
    t.run(0, 10)
    t.bus.clear()
    t.run(10, 110)
    assert mux_writes(t) == 70  # seven channels in turn, every poll


def test_bounce_and_chatter_across_stations_give_one_press_per_tap():
    t = Table(chip="mcp23017", repeat=0)
    t.run(0, 10)
    start = 10
    for n in range(12):
        k, b = n % 7, n % 4
        key = t.keys[k][b]
        key.tap(start + 3 + n, 150 + 37 * n)  # presses land at every phase of the poll
        key.chatter(start + 80 + n, 25)
        start += 400
    got = t.run(10, start + 200, step=10)
    check_stream(ONLINE_ALL + got)
    assert len([e for e in got if e[1] == "press"]) == 12, got
    assert len([e for e in got if e[1] == "release"]) == 12


def test_long_press_and_repeat_through_an_expander():
    t = Table(repeat=0b0001, long_ms=800, repeat_delay_ms=450, repeat_ms=120)
    t.run(0, 10)
    t.keys[1][0].tap(20, 1000)
    t.keys[1][1].tap(20, 1000)
    got = t.run(10, 1200)
    assert got.count((1, "repeat", 0)) == 5 and got.count((1, "long", 1)) == 1, got
    check_stream(ONLINE_ALL + got)


def test_stuck_button_reported_once_and_recovers():
    t = Table(stuck_ms=15000)
    t.run(0, 10)
    t.keys[6][3].press(20)
    got = t.run(10, 40000, step=20)
    assert got.count((6, "stuck", 3)) == 1, got
    t.keys[6][3].release(40000)
    got += t.run(40000, 40200)
    assert got[-2:] == [(6, "release", 3), (6, "unstuck", 3)], got
    check_stream(ONLINE_ALL + got)


def test_unplug_mid_game_goes_offline_and_replug_comes_back_reinitialised():
    t = Table(chip="mcp23017", retry_ms=500)
    t.run(0, 10)
    t.keys[4][1].press(20)
    got = t.run(10, 100)
    assert got == [(4, "press", 1)]
    t.chips[4].unplug()  # the cable comes out with the button held
    got = t.run(100, 110)  # a station with a button held is read every poll
    assert got == [(4, "release", 1), (4, "offline", 0)], got
    t.run(110, 1200)
    t.keys[0][0].tap(1200, 100)
    got = t.run(1200, 1400)
    assert got == [(0, "press", 0), (0, "release", 0)], got  # the others carry on
    source = t.input.stations[4].source
    retries = []
    setup = source.setup

    def counted():
        retries.append(1)
        setup()

    source.setup = counted
    t.run(1400, 2400)
    assert len(retries) == 2  # a retry every 500 ms, not every poll
    t.chips[4].plug()  # power-on registers: no pull-ups, no polarity, no interrupt
    got = t.run(2400, 3000)
    assert got == [(4, "online", 0), (4, "press", 1)], got  # still held
    regs = t.chips[4].regs
    assert regs[mm.GPPU] == [0xFF, 0xFF] and regs[mm.IPOL] == [0x0F, 0]
    assert regs[mm.GPINTEN] == [0x0F, 0] and t.chips[4].iocon == mm.MIRROR | mm.ODR
    t.keys[4][1].release(3000)
    got = t.run(3000, 3200)
    assert got == [(4, "release", 1)], got  # the interrupt works again


def test_mux_power_loss_takes_every_station_offline_and_back():
    t = Table(retry_ms=300)
    t.run(0, 10)
    t.mux.unplug()
    got = t.run(10, 1100)
    assert sorted(got) == [(k, "offline", 0) for k in range(7)], got
    t.mux.plug()  # control register back to 0: the driver must select again
    got = t.run(1100, 1500)
    assert sorted(got) == ONLINE_ALL, got
    t.keys[5][0].tap(1500, 100)
    assert t.run(1500, 1700) == [(5, "press", 0), (5, "release", 0)]


def test_station_absent_at_start_reported_once_then_found():
    t = Table(stations=3)
    t.chips[1].unplug()
    got = t.run(0, 3000)
    assert got == [(0, "online", 0), (1, "offline", 0), (2, "online", 0)], got
    t.chips[1].plug()
    assert t.run(3000, 3600) == [(1, "online", 0)]


def test_idle_station_unplugged_is_found_by_the_fallback_read():
    t = Table(fallback_ms=1000)
    t.run(0, 10)
    t.chips[3].unplug()
    assert t.run(10, 990) == []  # nothing changed on the line
    assert t.run(990, 1010) == [(3, "offline", 0)]


def test_held_button_is_read_every_poll_even_with_the_line_high():
    t = Table()
    t.run(0, 10)
    t.keys[0][0].press(10)
    t.run(10, 50)
    t.bus.clear()
    t.run(50, 150)
    # station 0 only: its channel stays selected, one read per poll
    assert t.bus.transactions == [(0x20, "r", 1)] * 10


def test_no_exception_escapes_a_flaky_station():
    t = Table(irq=False, retry_ms=50)
    t.run(0, 10)
    events = []
    for n in range(40):
        if n % 3 == 0:
            t.chips[2].unplug()
        else:
            t.chips[2].plug()
        t.keys[2][0].tap(10 + 100 * n + 5, 40)
        events += t.run(10 + 100 * n, 110 + 100 * n)
    check_stream(ONLINE_ALL + events)
    assert presses(events, station=2) >= 20


def test_expander_source_arguments_checked():
    t = Table(stations=1)
    drv = t.input.stations[0].source.expander
    assert "both mux and channel" in message(ValueError, ExpanderSource, drv, 1, t.mux_driver)
    assert "1 to 16" in message(ValueError, ExpanderSource, drv, 0)
    assert "1 to 16" in message(ValueError, ExpanderSource, drv, 1 << 16)


def test_expander_reads_allocate_nothing():
    t = Table(irq=False, stations=2)
    t.run(0, 10)
    check_heap_free(t.input, 10)


def check_heap_free(buttons, start):
    """Poll with the heap locked (MicroPython): any allocation would raise."""
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:  # CPython has no heap to lock
        return
    import stubi2c

    stubi2c.swap_in(buttons)
    seen = 0
    try:
        heap_lock()
        for now in range(start, start + 2000, 10):
            stubi2c.pressing(buttons, now // 300 % 2)
            buttons.poll(now)
            while buttons.queue.count:
                buttons.queue.pop()
                seen += 1
    finally:
        heap_unlock()
    assert seen > 10, seen  # presses, releases and repeats happened meanwhile
