# The two controls every screen is built from: a list cursor and a number
# picker. Each takes a button and says what happened; drawing is the
# screen's. UP/DOWN repeat while held (catnip.parts.hardware), so long lists and
# big numbers need no extra buttons.
from catnip.keys import BACK, DOWN, OK, UP

DONE = 1  # OK: the choice is made
CANCEL = 2  # BACK: leave without choosing


class Cursor:
    """A position in a list of n items; wraps around at both ends."""

    def __init__(self, n=0, at=0):
        self.n = n
        self.at = at

    def resize(self, n):
        self.n = n
        if self.at >= n:
            self.at = max(0, n - 1)

    def press(self, button):
        if button == UP and self.n:
            self.at = (self.at - 1) % self.n
        elif button == DOWN and self.n:
            self.at = (self.at + 1) % self.n
        elif button == OK and self.n:
            return DONE
        elif button == BACK:
            return CANCEL
        return None


class Picker:
    """A whole number from lo to hi, starting at `value`; UP adds one. Any
    value it gives is within the limits the rules set."""

    def __init__(self, label, lo, hi, value=None):
        self.label = label
        self.lo = lo
        self.hi = hi
        self.value = lo if value is None else max(lo, min(hi, value))

    def press(self, button):
        if button == UP:
            self.value = self.value + 1 if self.value < self.hi else self.lo
        elif button == DOWN:
            self.value = self.value - 1 if self.value > self.lo else self.hi
        elif button == OK:
            return DONE
        elif button == BACK:
            return CANCEL
        return None

    def draw(self, fb, row):
        from catnip.ui.draw import text

        text(fb, row, self.label)
        text(fb, row + 1, "< %d >" % self.value, 4, inverse=True)
        text(fb, row + 2, "%d to %d" % (self.lo, self.hi), 4)
