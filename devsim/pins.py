# The board's GPIO levels, shared by the fake machine.Pin and the chip models.
#
# The firmware drives a pin through machine.Pin; a model drives one by
# calling drive(). Each pin's level is what its driver says, else what its
# pull says, else 0. Watchers (models, IRQ handlers) hear every change.
try:
    from time import ticks_us  # type: ignore[attr-defined]  # MicroPython's
except ImportError:  # CPython
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000


PULL_NONE = 0
PULL_UP = 1
PULL_DOWN = 2
PIN_COUNT = 30  # GPIO0..GPIO29 on the RP2040


class PinState:
    __slots__ = ("id", "firmware", "external", "pull", "watchers")

    def __init__(self, pin_id):
        self.id = pin_id
        self.firmware = None  # level the firmware drives, None when input
        self.external = None  # level a model drives, None when released
        self.pull = PULL_NONE
        self.watchers = []

    def level(self):
        if self.firmware is not None:
            return self.firmware
        if self.external is not None:
            return self.external
        return 1 if self.pull == PULL_UP else 0


class Board:
    """All the GPIO pins of one simulated Pico."""

    def __init__(self):
        self.pins = [PinState(i) for i in range(PIN_COUNT)]
        self.clock = ticks_us

    def pin(self, pin_id):
        if not 0 <= pin_id < PIN_COUNT:
            raise ValueError("invalid pin: GPIO%s does not exist on the RP2040" % pin_id)
        return self.pins[pin_id]

    def level(self, pin_id):
        return self.pin(pin_id).level()

    def watch(self, pin_id, callback):
        """callback(pin_id, level, t_us) after every change of the level."""
        self.pin(pin_id).watchers.append(callback)

    def unwatch(self, pin_id, callback):
        w = self.pin(pin_id).watchers
        if callback in w:
            w.remove(callback)

    def drive(self, pin_id, level):
        """A model drives the pin (level 0/1) or releases it (None)."""
        self._change(self.pin(pin_id), "external", level)

    def set_firmware(self, pin_id, level):
        self._change(self.pin(pin_id), "firmware", level)

    def set_pull(self, pin_id, pull):
        self._change(self.pin(pin_id), "pull", pull)

    def _change(self, p, field, value):
        before = p.level()
        setattr(p, field, value)
        after = p.level()
        if after != before:
            t = self.clock()
            for cb in list(p.watchers):
                cb(p.id, after, t)


# The one board the fake machine module talks to. Tests may replace it with
# reset() to start from a clean slate.
board = Board()


def reset():
    global board
    board = Board()
    return board
