# The fake machine behaves like rp2's where the firmware can tell.
from devsim import machine
from check import message, raises
from devsim import pins, soc


def fresh():
    pins.reset()
    return soc.reset()


def test_pin_latch_drives_when_the_pin_becomes_an_output():
    fresh()
    p = machine.Pin(3, machine.Pin.IN)
    p.value(1)  # remembered, not driven
    assert pins.board.pin(3).firmware is None
    p.init(machine.Pin.OUT)
    assert p.value() == 1
    p.toggle()
    assert p() == 0


def test_irq_waits_while_interrupts_are_disabled():
    fresh()
    seen = []
    p = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_UP)
    p.irq(lambda pin: seen.append(pin.value()), machine.Pin.IRQ_FALLING)
    state = machine.disable_irq()
    pins.board.drive(7, 0)
    assert seen == []
    machine.enable_irq(state)
    assert seen == [0]


def test_pwm_slices_share_their_frequency():
    chip = fresh()
    buzzer = machine.PWM(machine.Pin(16), freq=2000, duty_u16=32768)
    assert chip.tone(16) == (2000, 32768)
    other = machine.PWM(17, freq=440)  # GP17 is slice 0 channel B, like GP16
    assert buzzer.freq() == 440 and other.duty_u16() == 0
    buzzer.duty_ns(1000000)  # 1 ms of a 2.27 ms period
    assert 28000 < buzzer.duty_u16() < 30000
    buzzer.deinit()
    assert chip.tone(16) is None
    assert "out of range" in message(ValueError, buzzer.freq, 2)
    raises(ValueError, buzzer.duty_u16, 70000)


def test_timers_fire_when_the_simulation_services_them():
    chip = fresh()
    now = [1000]
    chip.clock_ms = lambda: now[0]
    ticks = []
    t = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=10, callback=ticks.append)
    once = []
    machine.Timer(-1, mode=machine.Timer.ONE_SHOT, freq=50, callback=once.append)  # 20 ms
    now[0] += 35
    machine.idle()
    assert len(ticks) == 3 and len(once) == 1
    t.deinit()
    now[0] += 100
    machine.idle()
    assert len(ticks) == 3 and len(once) == 1
    assert "virtual" in message(ValueError, machine.Timer, 0)


def test_an_unfed_watchdog_resets_the_board():
    chip = fresh()
    now = [0]
    chip.clock_ms = lambda: now[0]
    dog = machine.WDT(timeout=1000)
    now[0] = 900
    dog.feed()
    now[0] = 1800
    machine.idle()
    now[0] = 2000
    e = raises(soc.Reset, machine.idle)
    assert e.cause == machine.WDT_RESET and machine.reset_cause() == machine.WDT_RESET
    raises(ValueError, machine.WDT, timeout=9000)


def test_resets_and_clock():
    fresh()
    assert machine.reset_cause() == machine.PWRON_RESET
    assert raises(soc.Reset, machine.soft_reset).soft
    assert raises(soc.Reset, machine.reset).cause == machine.WDT_RESET
    assert machine.freq() == 125000000
    machine.freq(133000000)
    assert machine.freq() == 133000000
    raises(ValueError, machine.freq, 1000)
    assert len(machine.unique_id()) == 8


def test_i2c_pins_follow_the_rp2040_function_table():
    assert "SDA" in message(ValueError, machine.I2C, 0, scl=5, sda=6)
    assert "SCL" in message(ValueError, machine.I2C, 1, scl=5, sda=6)
    machine.I2C(1, scl=machine.Pin(27), sda=machine.Pin(26))
