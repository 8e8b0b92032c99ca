# Falls: the DOUT interrupt that times conversions for the RP2040 path of
# catnip.drivers.hx711 (pure logic; the interrupt is called by hand here).
from catnip.drivers.hx711_pins import Falls


class FakePin:
    IRQ_FALLING = 2

    def __init__(self):
        self.handler = None

    def irq(self, handler, trigger, hard=False):
        assert trigger == self.IRQ_FALLING and hard
        self.handler = handler


class Ticks:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


def make():
    pins = [FakePin(), FakePin()]
    ticks = Ticks()
    return Falls(pins, ticks), pins, ticks


def test_a_fall_is_stamped_once():
    falls, pins, ticks = make()
    assert falls.take(0) == -1
    ticks.now = 5000
    pins[0].handler(pins[0])
    assert falls.take(1) == -1
    assert falls.take(0) == 5000
    assert falls.take(0) == -1  # taken


def test_the_latest_fall_wins():
    falls, pins, ticks = make()
    ticks.now = 5000
    pins[1].handler(pins[1])
    ticks.now = 17500  # a reload of the unread word: a later conversion
    pins[1].handler(pins[1])
    assert falls.take(1) == 17500


def test_edges_of_a_pass_are_data_bits():
    falls, pins, ticks = make()
    falls.shifting = True
    ticks.now = 9000
    pins[0].handler(pins[0])
    falls.shifting = False
    assert falls.take(0) == -1


def test_stamping_allocates_nothing():
    # The handler runs as a hard interrupt, where allocating raises.
    falls, pins, ticks = make()
    try:
        import micropython
    except ImportError:
        return  # CPython: nothing to check
    micropython.heap_lock()
    try:
        pins[0].handler(pins[0])
    finally:
        micropython.heap_unlock()
    assert falls.take(0) == 1000


def test_the_native_pass_finds_the_gpio_set_and_clear_registers_of_each_chip():
    # The RP2350 has GPIO_HI_OUT at 0xd0000014, where the RP2040 has
    # GPIO_OUT_SET: writing it would never clock the HX711s.
    from catnip.drivers.sio import out_registers

    assert out_registers("Raspberry Pi Pico with RP2040") == (0xD0000014, 0xD0000018)
    assert out_registers("Raspberry Pi Pico2 with RP2350") == (0xD0000018, 0xD0000020)
    assert out_registers("Raspberry Pi Pico2 with RP2350-RISCV") == (0xD0000018, 0xD0000020)
