# The HX711 driver against the bit-level HX711 model, in virtual time.
from check import message, raises
from hx711_rig import DOUTS, SCK, Level, check_reads, expected, models, no_violations

from catnip.drivers import hx711
from catnip.drivers.hx711 import A64, A128, B32, HX711, HX711Group, SensorFault
from devsim.models.hx711 import DEAD, DISCONNECTED, SHORTED, HX711Model
from devsim.timing import VirtualClock

VALUES = (0, 1, -1, 2, -2, 123456, -123456, 0x7FFFFE, -0x7FFFFF,  # in range
          0x7FFFFF, -0x800000,  # the rails: full scale, reported saturated
          0x900000, -0x900000, 0x2000000)  # beyond: the chip saturates


def _single(clock, a=0, b=0, rate=10):
    chip = HX711Model(clock, SCK, DOUTS[0], Level(a), rate=rate, channel_b=Level(b))
    return chip, HX711(SCK, DOUTS[0], rate=rate, clock=clock)


def test_exact_counts_for_every_input_and_sign():
    with VirtualClock() as clock:
        chip, hx = _single(clock)
        for input in (A128, A64, B32):
            hx.select(input)
            for v in VALUES:
                chip.counts_at.value = v
                chip.channel_b.value = -v
                b = -v
                got = hx.read()
                want = expected(input, v, b)
                assert got == want, (input, v, got, want)
                assert bool(hx.saturated) == (want in (hx711.MAX_COUNT, hx711.MIN_COUNT))
        no_violations(chip)


def test_saturation_is_reported_at_both_rails():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=0x1000000)
        assert hx.read() == 0x7FFFFF and hx.saturated
        chip.counts_at.value = -0x1000000
        assert hx.read() == -0x800000 and hx.saturated
        chip.counts_at.value = 0x7FFFFE
        assert hx.read() == 0x7FFFFE and not hx.saturated
        no_violations(chip)


def test_first_reading_after_power_up_is_the_settled_fourth_conversion():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=40000)
        start = clock.now_us()
        assert hx.read() == 40000
        # Datasheet: 400 ms settling at 10 SPS. The three earlier conversions
        # (10000, 20000, 30000 on the way up) were clocked out and dropped.
        assert chip.conversions == 4 and chip.words_read == 4
        assert 400000 <= clock.now_us() - start < 401000
        no_violations(chip)


def test_a_chip_that_holds_its_first_word_until_settled_is_waited_for():
    # rp2emu's HX711 holds DOUT high through the 400 ms of settling after a
    # power-up, and a chip whose oscillator runs 1 % slow settles 4 ms later
    # still: a read at power-up, or after the chips are restarted in step,
    # waits for that word rather than calling the cell missing.
    with VirtualClock() as clock:
        chip = HX711Model(clock, SCK, DOUTS[0], Level(7), period_us=101000, first_us=404000)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        assert hx.read() == 7 and hx.fault == 0
        hx.power_down()
        hx.power_up()  # as _restart() does
        assert hx.read() == 7 and hx.fault == 0
        no_violations(chip)


def test_channel_switch_takes_effect_on_the_next_conversion():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=5000, b=-700)
        assert hx.read() == 5000
        words = chip.words_read
        hx.select(B32)
        assert chip.input == A128  # nothing sent yet
        assert hx.read() == -700
        # One more channel A word carried the 26 pulses; then the chip
        # converted channel B and needed 4 conversions to settle.
        assert chip.words_read - words == 5
        assert chip.input == B32
        hx.select(A128)
        assert hx.read() == 5000
        no_violations(chip)


def test_a_rejected_input_leaves_the_selection_unchanged():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=77)
        hx.select(A64)
        text = message(ValueError, hx.select, 128)
        assert "A128, B32 or A64" in text and "128" in text
        assert hx.input == A64
        assert hx.read() == 38


def test_every_pulse_is_one_pin_write_long_with_interrupts_off():
    with VirtualClock(pin_op_us=5) as clock:
        chip, hx = _single(clock, a=-31)
        edges = []

        def on_sck(pin, level, t):
            edges.append(clock.irq_enabled)

        clock_board = chip.board
        clock_board.watch(SCK, on_sck)
        hx.read()
        clock_board.unwatch(SCK, on_sck)
        assert edges and not any(edges)  # every edge with interrupts masked
        assert clock.irq_enabled  # and unmasked again afterwards
        assert chip.longest_pulse_us == 5
        no_violations(chip)


def test_60us_rule_holds_under_interrupt_load():
    # A 150 us interrupt every 333 us: if it could land inside a pulse, pulses
    # would last 155 us and power the chip down mid-read.
    with VirtualClock(isr_every_us=333, isr_us=150) as clock:
        chip, hx = _single(clock)
        check_reads(hx, [chip.counts_at], [chip.channel_b],
                    [(A128, 1000, 1), (B32, 1000, -9), (A64, -4000, 3), (A128, 77, 0)])
        assert clock.isr_count > 1000
        assert chip.longest_pulse_us == 5
        no_violations(chip)


def test_model_catches_pulses_that_interrupts_stretch():
    # The same load with masking not honoured: the model must notice.
    with VirtualClock(isr_every_us=333, isr_us=150, masking=False) as clock:
        chip, hx = _single(clock, a=1234)
        for _ in range(6):
            try:
                hx.read()
            except SensorFault:
                pass
        assert chip.longest_pulse_us > 60
        assert any("powered down" in what for t, what in chip.violations), chip.violations


def test_model_catches_a_driver_too_slow_for_the_chip():
    with VirtualClock(pin_op_us=70) as clock:
        chip, hx = _single(clock, a=1234)
        try:
            hx.read()
        except SensorFault:
            pass
        assert chip.violations
        assert "bit 1 of a read" in chip.violations[0][1]


def test_power_down_and_up():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=2500, b=99)
        hx.select(B32)
        assert hx.read() == 99
        hx.power_down()
        clock.sleep_ms(1)
        assert not chip.powered and chip.power_downs == 2  # init cycled it once
        text = message(ValueError, hx.read)
        assert "power_up()" in text
        conversions = chip.conversions
        clock.sleep_ms(1000)
        assert chip.conversions == conversions  # asleep: no conversions
        hx.power_up()
        woke = clock.now_us()
        assert chip.powered and chip.input == A128  # reset to the default input
        assert hx.read() == 99
        # One A x128 word to select B, then B's four conversions to settle.
        assert 500000 <= clock.now_us() - woke < 501000
        no_violations(chip)


def test_a_fault_with_no_heap_for_its_words_is_still_reported():
    # Late in a long game the heap may have no piece for a fault's message:
    # the fault is reported all the same, its code and cells intact, and
    # the next read tries the chips again.
    from catnip.drivers import hx711_faults

    def no_room(*args):
        raise MemoryError("memory allocation failed")

    with VirtualClock() as clock:
        chip, hx = _single(clock, a=5)
        chip.set_fault(DEAD)
        describe, hx711_faults.describe = hx711_faults.describe, no_room
        try:
            fault = raises(SensorFault, hx.read)
        finally:
            hx711_faults.describe = describe
        assert fault.code == hx711.NO_DATA and fault.cells == 1
        assert "load cell" in str(fault) and hx.fault == hx711.NO_DATA
        chip.set_fault(None)
        assert hx.read() == 5 and hx.fault == 0


def test_dead_sensor_times_out_with_a_clear_fault():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=5)
        chip.set_fault(DEAD)
        start = clock.now_us()
        fault = raises(SensorFault, hx.read)
        assert fault.code == hx711.NO_DATA and fault.cells == 1
        text = str(fault)
        assert "load cell 0" in text and "GPIO3" in text and "500 ms" in text
        assert 499000 <= clock.now_us() - start < 502000  # ticks_ms resolution
        assert hx.fault == hx711.NO_DATA
        chip.set_fault(None)  # power comes back: the chip starts from reset
        assert hx.read() == 5 and hx.fault == 0
        no_violations(chip)


def test_a_fault_that_goes_on_is_raised_anew_in_the_same_words():
    # read() raises at every call while the cells are silent; the words are
    # composed once per outage (a loop polling a dead tray must not build
    # them again and again), each raise a new SensorFault.
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=5)
        chip.set_fault(DEAD)
        first = raises(SensorFault, hx.read)
        again = raises(SensorFault, hx.read)
        assert again is not first and again.code == first.code and again.cells == first.cells
        assert again.args[0] is first.args[0] and "load cell 0" in str(again)
        chip.set_fault(None)
        assert hx.read() == 5 and hx.fault == 0
        chip.set_fault(SHORTED)  # another fault: its own words
        assert "shorted to ground" in str(raises(SensorFault, hx.read))


def test_unplugged_dout_reads_as_no_sensor_thanks_to_the_pull_up():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=5)
        chip.set_fault(DISCONNECTED)
        assert raises(SensorFault, hx.read, 50).code == hx711.NO_DATA


def test_dout_shorted_low_is_not_mistaken_for_a_zero_reading():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=0)
        assert hx.read() == 0  # a genuine zero is fine
        chip.set_fault(SHORTED)
        fault = raises(SensorFault, hx.read)
        assert fault.code == hx711.STUCK_LOW
        assert "shorted to ground" in str(fault)


def test_rate_80_reads_at_12_5_ms_per_conversion():
    with VirtualClock() as clock:
        chip, hx = _single(clock, a=-8, rate=80)
        start = clock.now_us()
        assert hx.read() == -8
        assert 50000 <= clock.now_us() - start < 51000  # datasheet: 50 ms settling
        t = clock.now_us()
        for _ in range(10):
            hx.read()
        assert 125000 - 1000 <= clock.now_us() - t <= 125000 + 1000
        assert hx.timeout_ms == 65
        no_violations(chip)


def test_bad_configuration_is_refused():
    assert "10 or 80" in message(ValueError, HX711, SCK, DOUTS[0], rate=20)
    assert "A128, B32 or A64" in message(ValueError, HX711, SCK, DOUTS[0], input=0)
    assert "at least one DOUT" in message(ValueError, HX711Group, SCK, ())


def test_four_cells_read_in_one_clocking_pass():
    with VirtualClock() as clock:
        chips, a, b = models(clock, 4, periods=(100000, 100300, 99800, 100100))
        group = HX711Group(SCK, DOUTS, clock=clock)
        rises = []

        def on_sck(pin, level, t):
            if level:
                rises.append(t)

        chips[0].board.watch(SCK, on_sck)
        check_reads(group, a, b, [(A128, 1000, 5), (A64, -3000, 8), (B32, 0, -40),
                                  (A128, 0x7FFFFF, 0), (A128, -0x800000, 0)])
        words = [c.words_read for c in chips]
        assert words[0] == words[1] == words[2] == words[3]
        # Every rising edge clocked all four chips: 24 data pulses plus 1-3
        # selection pulses per pass, nothing else (the power cycle at start
        # is one long pulse).
        assert 25 * words[0] <= len(rises) - 1 <= 27 * words[0]
        no_violations(*chips)


def test_one_dead_cell_of_four_is_named():
    with VirtualClock() as clock:
        chips, a, b = models(clock, 4)
        group = HX711Group(SCK, DOUTS, clock=clock)
        group.read()
        chips[2].set_fault(DEAD)
        fault = raises(SensorFault, group.read)
        assert fault.cells == 0b0100
        assert "load cell 2 (DOUT GPIO5)" in str(fault)
        assert "load cell 0" not in str(fault)
        no_violations(*chips)


def test_a_fault_names_each_cell_by_its_pins_name_not_its_whole_repr():
    # The rp2 port's Pin repr carries its mode and pull: a four-cell fault
    # worded with it ran to some 300 characters.
    from catnip.drivers.hx711_faults import NO_DATA, describe

    class Rp2Pin:
        def __init__(self, n):
            self.n = n

        def __repr__(self):
            return "Pin(GPIO%d, mode=IN, pull=PULL_UP)" % self.n

    douts = [Rp2Pin(n) for n in (16, 17, 18, 19)]
    text = describe(NO_DATA, 0b1111, douts, 500, 0, 0, 10).args[0]
    assert "0 (DOUT GPIO16), 1 (DOUT GPIO17), 2 (DOUT GPIO18), 3 (DOUT GPIO19)" in text
    assert "mode" not in text and len(text) < 200
