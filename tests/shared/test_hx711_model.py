# The HX711 model itself, clocked by hand through machine.Pin in virtual
# time: these pin the datasheet behaviour the driver tests rely on.
from check import message
from hx711_rig import Level

from devsim.models.hx711 import (A64, A128, B32, DEAD, DISCONNECTED, RELOAD_US, SHORTED,
                                 HX711Model, constant)
from devsim.timing import VirtualClock
from machine import Pin

SCK, DOUT = 10, 11


def _rig(clock, a=0, b=0, rate=10):
    chip = HX711Model(clock, SCK, DOUT, Level(a), rate=rate, channel_b=Level(b))
    sck = Pin(SCK, Pin.OUT, value=0)
    dout = Pin(DOUT, Pin.IN, Pin.PULL_UP)
    return chip, sck, dout


def _wait_ready(clock, dout):
    while dout():
        clock.sleep_us(100)


def _clock_word(sck, dout, pulses=25):
    """Clock one word out by hand; return (word, DOUT after the pulses)."""
    word = 0
    for i in range(pulses):
        sck(1)
        sck(0)
        if i < 24:
            word = word << 1 | dout()
    return word, dout()


def test_dout_goes_low_one_conversion_period_after_reset():
    for rate, period in ((10, 100000), (80, 12500)):
        with VirtualClock() as clock:
            chip, sck, dout = _rig(clock, rate=rate)
            clock.sleep_us(period - 10 - clock.now_us())  # the model started at t=0
            assert dout() == 1
            clock.sleep_us(20)
            assert dout() == 0
            assert chip.conversions == 1


def test_word_is_24_bit_twos_complement_msb_first():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock)
        for value, code in ((-2, 0xFFFFFE), (0x123456, 0x123456), (-0x800000, 0x800000), (0, 0)):
            chip.counts_at.value = value
            chip.settle_step = 4  # look past settling: this test is about bits
            _wait_ready(clock, dout)
            word, after = _clock_word(sck, dout)
            assert word == code, (value, hex(word))
            assert after == 1  # the 25th pulse pulled DOUT high
        assert chip.violations == []


def test_first_three_conversions_after_reset_are_unsettled():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=80000)
        words = []
        for _ in range(5):
            _wait_ready(clock, dout)
            words.append(_clock_word(sck, dout)[0])
        assert words == [20000, 40000, 60000, 80000, 80000]


def test_pulse_count_picks_the_input_of_the_next_conversion():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=8000, b=-400)
        for _ in range(4):  # settle on A x128
            _wait_ready(clock, dout)
            _clock_word(sck, dout)
        _wait_ready(clock, dout)
        assert _clock_word(sck, dout, 26)[0] == 8000  # this word is still A
        _wait_ready(clock, dout)
        assert chip.input == B32
        # B's first conversion is a quarter of the way from 8000 to -400.
        assert _clock_word(sck, dout, 27)[0] == 5900
        _wait_ready(clock, dout)
        assert chip.input == A64
        assert chip.violations == []


def test_saturates_outside_the_24_bit_range():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=1 << 26)
        chip.settle_step = 4
        _wait_ready(clock, dout)
        assert _clock_word(sck, dout)[0] == 0x7FFFFF
        chip.counts_at.value = -(1 << 26)
        _wait_ready(clock, dout)
        assert _clock_word(sck, dout)[0] == 0x800000


def test_gain_64_halves_channel_a():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=-1001)
        chip.input = A64
        chip.settle_step = 4
        _wait_ready(clock, dout)
        assert _clock_word(sck, dout, 27)[0] == (-501) & 0xFFFFFF


def test_long_pulse_mid_read_powers_down_and_is_recorded():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=5)
        _wait_ready(clock, dout)
        for _ in range(5):
            sck(1)
            sck(0)
        sck(1)
        clock.sleep_us(61)
        assert not chip.powered and dout() == 1
        sck(0)
        assert chip.powered and chip.input == A128
        assert len(chip.violations) == 1
        assert "bit 6 of a read" in chip.violations[0][1]
        assert chip.longest_pulse_us >= 61


def test_60us_is_the_limit_not_a_violation():
    with VirtualClock(pin_op_us=0) as clock:
        chip, sck, dout = _rig(clock, a=5)
        _wait_ready(clock, dout)
        for _ in range(25):
            sck(1)
            clock.sleep_us(60)
            sck(0)
        assert chip.powered and chip.violations == [] and chip.longest_pulse_us == 60


def test_deliberate_power_down_is_not_a_violation():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=5)
        _wait_ready(clock, dout)  # a word waits: the first rise shifts bit 1
        sck(1)
        clock.sleep_ms(50)
        sck(0)
        assert chip.power_downs == 1 and chip.powered
        _wait_ready(clock, dout)  # the firmware waits for data: no read was cut
        assert chip.violations == []


def test_serial_errors_are_recorded():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock)
        sck(1)
        sck(0)  # no conversion ready
        _wait_ready(clock, dout)
        _clock_word(sck, dout, 28)
        _wait_ready(clock, dout)
        whats = [what for t, what in chip.violations]
        assert "no conversion was ready" in whats[0]
        assert "28 PD_SCK pulses" in whats[1]


def test_an_unread_word_is_replaced_with_dout_high_during_the_reload():
    # Measured on real chips: DOUT goes high for about 75 us at each
    # conversion, read or not, then low with the new word.
    with VirtualClock(pin_op_us=0) as clock:
        chip, sck, dout = _rig(clock, a=1000, rate=80)
        chip.settle_step = 4
        clock.sleep_us(12500 - clock.now_us())
        assert dout() == 0 and chip.conversions == 1
        chip.counts_at.value = 2000
        clock.sleep_us(25000 - RELOAD_US - 1 - clock.now_us())
        assert dout() == 0  # the first word still waits
        clock.sleep_us(2)
        assert dout() == 1  # reloading
        clock.sleep_us(25000 - clock.now_us())
        assert dout() == 0 and chip.conversions == 2
        assert _clock_word(sck, dout) == (2000, 1)  # the first word is gone
        assert chip.violations == []


def test_a_conversion_during_a_read_loses_the_word():
    # All of a read's pulses belong in one conversion period (datasheet). What
    # a reload does to a word half clocked out is not specified; the model
    # takes the worst case: the rest of the pulses clock out the new word.
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=0x0F0F0F)
        chip.settle_step = 4
        _wait_ready(clock, dout)
        word = 0
        for _ in range(10):
            sck(1)
            sck(0)
            word = word << 1 | dout()
        chip.counts_at.value = 0x700000
        clock.sleep_ms(100)  # the next conversion comes meanwhile
        for _ in range(14):
            sck(1)
            sck(0)
            word = word << 1 | dout()
        assert word not in (0x0F0F0F, 0x700000)
        whats = [what for t, what in chip.violations]
        assert "bit 10 of 24" in whats[0] and "word is lost" in whats[0], whats


def test_a_pulse_during_the_reload_is_a_violation():
    # A slow read whose last selection pulse lands as the next conversion
    # reloads the output: its pulses did not fit in one conversion period.
    with VirtualClock(pin_op_us=0) as clock:
        chip, sck, dout = _rig(clock, a=5, rate=80)
        _wait_ready(clock, dout)
        _clock_word(sck, dout, 26)
        clock.sleep_us(25000 - RELOAD_US + 10 - clock.now_us())
        sck(1)
        sck(0)  # a 27th pulse, too late
        assert "reloading the output" in chip.violations[0][1], chip.violations


def test_a_read_left_unfinished_is_a_serial_error():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock)
        _wait_ready(clock, dout)
        for _ in range(10):
            sck(1)
            sck(0)
        clock.sleep_ms(250)
        assert "bit 10 of 24" in chip.violations[0][1]
        assert dout() == 0  # a fresh conversion is ready again


def test_faults_drive_dout_as_the_wiring_would():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock)
        _wait_ready(clock, dout)
        chip.set_fault(DEAD)
        assert dout() == 1
        chip.set_fault(SHORTED)
        assert dout() == 0
        chip.set_fault(DISCONNECTED)
        assert dout() == 1  # the pull-up
        dout.init(Pin.IN, Pin.PULL_DOWN)
        assert dout() == 0  # or the pull-down
        chip.set_fault(None)
        assert dout() == 0  # the waiting word is still there


def test_a_dead_chip_ignores_the_clock_and_restarts_from_reset():
    with VirtualClock() as clock:
        chip, sck, dout = _rig(clock, a=4)
        chip.set_fault(DEAD)
        clock.sleep_ms(500)
        sck(1)
        sck(0)
        assert chip.conversions == 0 and chip.violations == []
        chip.set_fault(None)
        clock.sleep_ms(99)
        assert dout() == 1
        clock.sleep_ms(2)
        assert dout() == 0


def test_rate_is_checked():
    with VirtualClock() as clock:
        assert "10 or 80" in message(ValueError, HX711Model, clock, SCK, DOUT, constant(0), rate=40)
