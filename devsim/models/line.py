# A wire from several chip outputs to one Pico GPIO, such as the interrupt
# line every station's expander shares. Each output drives 0, 1 or lets go
# (None, open drain); the wire is low if any output pulls it low, high if one
# drives it high, else left to the pin's pull. Drives through devsim.pins, so
# the firmware sees it with machine.Pin.
from devsim import pins


class Line:
    def __init__(self, pin_id):
        pins.board.pin(pin_id)
        self.pin_id = pin_id
        self._outputs = {}

    def set(self, output, level):
        """`output` (any hashable naming the chip pin) drives `level`."""
        if level is None:
            self._outputs.pop(output, None)
        else:
            self._outputs[output] = level
        driven = None
        for v in self._outputs.values():
            if v == 0:
                driven = 0
                break
            driven = 1
        pins.board.drive(self.pin_id, driven)

    def level(self):
        return pins.board.level(self.pin_id)
