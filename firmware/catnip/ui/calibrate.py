# The tray's calibration on the stations (catnip.table.calibrate): any station
# drives it, as it drives the setup menu. A page says what to do, the steps
# possible now are a list below it; each weighing ends on a page of its
# figures (or why it was not taken) that OK puts away. While the laptop
# calibrates, every station shows its progress, and BACK stops it. A step
# chosen is the command ("calibrate", step), which the App takes to the
# session; it asks the session for the rest (what it says, its answers).
# Loaded with catnip.table.calibrate, unloaded with it.
from catnip.keys import BACK, OK, PRESS, REPEAT
from catnip.ui import draw
from catnip.ui.scene import Scene
from catnip.ui.widgets import DONE, Cursor

LABELS = {"empty": "Weigh empty", "cat": "Weigh cat %d", "corner": "Weigh corner %d",
          "save": "Save", "abort": "Stop, no save"}


class Screen(Scene):
    """The calibration `session` (catnip.table.calibrate.Session) on every station."""

    kind = "calibrate"

    def __init__(self, session):
        self.session = session
        self.cursor = Cursor()
        self.page = None  # (title, text) shown until OK: a weighing's figures, a refusal
        self.seen = session.answers  # the session's answers shown so far

    def choices(self):
        s = self.session
        if s.measuring is not None or s.station is None:
            return []
        return [w for w in s.next_steps() if w != "begin"]

    def label(self, word):
        s = self.session
        if word == "empty":
            return "Start over" if s.weighed else LABELS[word]
        if word == "cat":
            return LABELS[word] % (s.cats + 1)
        if word == "corner":
            return LABELS[word] % (s.corners + 1)
        return LABELS[word]

    # ---- buttons ------------------------------------------------------------

    def key(self, station, button, kind):
        """("calibrate", step) once a step is chosen, else None."""
        if kind != PRESS and kind != REPEAT:
            return None
        self._catch_up()
        s = self.session
        if s.station is None:  # the laptop calibrates: a station may only stop it
            return ("calibrate", "abort") if button == BACK else None
        if s.measuring is not None:
            return None
        if self.page is not None:
            if button in (OK, BACK):
                self.page = None
            return None
        words = self.choices()
        self.cursor.resize(len(words))
        if self.cursor.press(button) != DONE:
            return None
        word = words[self.cursor.at]
        self.cursor.at = 0  # the next step is first again
        return ("calibrate", word)

    def refused(self, station, why):
        self.page = ("Not now", why)  # a step refused, in its words

    def _catch_up(self):
        # A weighing that ended since: its figures, or why it was not taken.
        s = self.session
        if s.answers == self.seen:
            return
        self.seen = s.answers
        step, why, fields = s.answer
        if s.station is None:
            return
        if why is not None:
            self.page = ("Not taken", why)
        else:
            self.page = (_title(step, fields), figures_text(step, fields))

    # ---- the screen -----------------------------------------------------------

    def draw(self, station, fb):
        self._catch_up()
        s = self.session
        draw.clear(fb)
        if self.page is not None:
            draw.title(fb, self.page[0])
            draw.paragraph(fb, self.page[1], 1, 6)
            draw.hint(fb, "OK: go on")
            return
        draw.title(fb, "Tray calibration")
        if s.station is None:
            draw.paragraph(fb, "From the laptop. " + s.say(), 1, 6)
            draw.hint(fb, "BACK: stop it")
            return
        words = self.choices()
        if not words:
            draw.paragraph(fb, s.say(), 1, 6)
            draw.hint(fb, "Hands off...")
            return
        draw.paragraph(fb, s.say(), 1, 4)
        draw.items(fb, [self.label(w) for w in words], self.cursor.at, 5, 2)
        draw.hint(fb, "OK choose")


def _title(step, fields):
    if step == "cat":
        return "Cat %d weighed" % fields["cats"]
    if step == "corner":
        return "Corner %d done" % fields["corners"]
    return "Base weighed"


def percent(pm):
    """Tenths of a percent as text, the same on both interpreters."""
    return "%d.%d%%" % (pm // 10, pm % 10)


def figures_text(step, fields):
    """A weighing's figures in a few words, for a station."""
    if step == "cat" and "problem" in fields:
        return "It added %d. %s" % (fields["added"], fields["problem"])
    if step == "empty" or (step == "corner" and "gain_pm" not in fields):
        return "Next: " + fields["say"]
    if step == "corner":
        return "Cell gains: %s%%. Save now." % " ".join(
            "%d" % ((g + 5) // 10) for g in fields["gain_pm"])
    differ = ", cats differ " + percent(fields["sd_pm"]) if fields["cats"] > 1 else ""
    return "It added %d. One cat: %d%s, noise %s." % (
        fields["added"], fields["per_cat"], differ, percent(fields["noise_pm"]))
