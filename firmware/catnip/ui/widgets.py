# The two controls every screen is built from: a list cursor and a number
# picker. Each takes a button and says what happened; drawing is the
# screen's. UP/DOWN repeat while held (catnip.parts.hardware), so long lists and
# big numbers need no extra buttons.
from catnip.keys import BACK, DOWN, OK, UP

DONE = 1  # OK: the choice is made
CANCEL = 2  # BACK: leave without choosing
UNCHOSEN = 3  # OK on a picker that has no value yet: nothing is chosen


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
    """A whole number from lo to hi; UP adds one, and it stops at its ends
    (no wrap: from 1, DOWN does not jump to the most). `value` None: it opens
    with nothing chosen, for a question the table cannot answer; the first
    UP gives lo, the first DOWN hi, and OK says UNCHOSEN until then. `note`:
    a short line (or two, instead of the range) saying what it counts (the
    cat in hand or not).
    Any value it gives is within the limits the rules set."""

    def __init__(self, label, lo, hi, value=None, note=()):
        self.label = label
        self.lo = lo
        self.hi = hi
        self.value = None if value is None else max(lo, min(hi, value))
        self.note = note

    def press(self, button):
        value = self.value
        if button == UP:
            self.value = self.lo if value is None else min(self.hi, value + 1)
        elif button == DOWN:
            self.value = self.hi if value is None else max(self.lo, value - 1)
        elif button == OK:
            return UNCHOSEN if value is None else DONE
        elif button == BACK:
            return CANCEL
        return None

    def draw(self, fb, row):
        from catnip.ui.draw import text

        text(fb, row, self.label)
        text(fb, row + 1, "< %s >" % ("?" if self.value is None else self.value), 4,
             inverse=True)
        note = self.note
        if len(note) < 2:  # two lines of note say the bound themselves
            text(fb, row + 2, "%d to %d" % (self.lo, self.hi), 4)
            row += 1
        for i in range(len(note)):
            text(fb, row + 2 + i, note[i])
