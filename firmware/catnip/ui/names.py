# A station's name, picked at setup without a laptop: from the names the
# table knows (newest first), or typed letter by letter with the four
# buttons. Imported when a station opens it; its code leaves the heap with
# the setup (catnip.ui.setup's modules()).
from catnip.keys import BACK, DOWN, OK, UP
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, Cursor
from catnip.wire import MAX_NAME

NEW = "New name"
NONE = "No name (P1..)"
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -'."
END = len(LETTERS)  # the place in the letters' cycle that ends the name: UP from "a"


class NamePicker:
    """The names in `known`, then "New name" and "No name"; the cursor on
    `now` (the station's name) if known. press() answers None while it is
    being picked, CANCEL (BACK on the list) or ("name", text)."""

    def __init__(self, known, now=""):
        self.labels = list(known) + [NEW, NONE]
        at = self.labels.index(now) if now in known else len(known)
        self.cursor = Cursor(len(self.labels), at)
        self.typed = None  # the letters typed so far while typing a new name
        self.letter = 0  # the letter under the cursor: an index in LETTERS, or END

    def press(self, button):
        if self.typed is not None:
            return self._type(button)
        result = self.cursor.press(button)
        if result == CANCEL:
            return CANCEL
        if result != DONE:
            return None
        label = self.labels[self.cursor.at]
        if label == NEW:
            self.typed = ""
            self.letter = LETTERS.index("A")
            return None
        return ("name", "" if label == NONE else label)

    def _type(self, button):
        if button == DOWN:
            self.letter = (self.letter + 1) % (END + 1)
        elif button == UP:
            self.letter = (self.letter - 1) % (END + 1)
        elif button == OK:
            if self.letter == END:
                name = self.typed.strip()
                return ("name", name) if name else None
            self.typed += LETTERS[self.letter]
            self.letter = END if len(self.typed) >= MAX_NAME else 0  # then small letters
        elif button == BACK:
            if not self.typed:
                self.typed = None  # back to the list
            else:
                self.letter = LETTERS.index(self.typed[-1])
                self.typed = self.typed[:-1]
        return None

    def draw(self, fb, station):
        draw.clear(fb)
        if self.typed is None:
            draw.title(fb, "Your name", "S%d" % (station + 1))
            draw.items(fb, self.labels, self.cursor.at, 1, 6)
            draw.hint(fb, "OK pick BACK no")
            return
        draw.title(fb, "New name", "S%d" % (station + 1))
        typed = self.typed
        draw.text(fb, 2, typed)
        mark = "end" if self.letter == END else LETTERS[self.letter].replace(" ", "_")
        draw.text(fb, 2, mark, len(typed), inverse=True)
        draw.text(fb, 4, "UP/DOWN: letter")
        draw.text(fb, 5, "OK: keep it")
        draw.text(fb, 6, "BACK: rub out")
        draw.hint(fb, "end: UP from a")
