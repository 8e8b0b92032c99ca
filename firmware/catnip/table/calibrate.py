# Calibrating the tray between games, from a station or from the laptop.
# The steps are catnip.tray's Calibrator: the empty base, then cats one at a
# time, and with four load cells one cat right above each corner in turn
# (each cell's gain). After each step the figures so far (what one cat adds,
# how much cats differ, the noise) go to whoever calibrates, and "save"
# writes the calibration to flash beside the old one, then renames it over,
# so a power cut during the write leaves the old calibration whole.
#
# Every refusal is a Refused in plain words and changes nothing: a capture
# the tray refuses (the load moved, a stuck or silent sensor) keeps every
# step before it, and weighing the empty base again starts over only once
# that weighing is good.
#
# What it says to a person is catnip.table.calibrate_words.
#
# This module, catnip.table.calibrate_words, catnip.ui.calibrate and (if no game loaded it already)
# catnip.tray are imported when a calibration begins and unloaded when it
# ends (App.calibrate): the Pico's heap is the games'.
import sys

from catnip.flash import flashfile
from catnip.tray import TrayError
from catnip.tray.calibrator import Calibrator
from catnip.tray.calibration import CORNERS, capture_length
from catnip.table.calibrate_words import Refused, again, figures, plain
from catnip.ui.calibrate import Screen, percent

STEPS = ("begin", "empty", "cat", "corner", "save", "abort")
ENOUGH_CATS = 5  # what the average cat needs; more make it finer

def begin(app, station, loaded):
    """Begin calibrating `app`'s tray from station k, or from the laptop
    (station None). `loaded`: the modules loaded before this one, to be
    left when the calibration ends. Refused says why not."""
    try:
        if app.weigh is None:
            raise Refused("This table has no tray: add \"tray\" with its load cells to "
                          "board.json (hardware/tray.md)")
        game = app.in_play()[2]
        if game is not None and game.result() is None:
            raise Refused("A game is in play: calibrate the tray between games (end this one "
                          "from a station's menu, or abort it from the laptop)")
        session = Session(app, station, loaded)
    except (Refused, TrayError) as e:
        unload(loaded)
        raise Refused(plain(e) if isinstance(e, TrayError) else str(e))
    app.weigh.listen(session)
    return session


def unload(loaded):
    """Forget every module loaded since `loaded` was listed, so the heap
    they took is free again."""
    from catnip import forget

    for name in list(sys.modules):
        if name not in loaded:
            forget(name)
    import gc

    gc.collect()


class Session:
    """One calibration. `station`: where it is driven from (None: the
    laptop). Steps come through step(); readings through counts() and
    fault() (catnip.table.weigh). When a capture ends, `answer` is (step,
    why, fields) and `answers` counts one more (the stations' screen,
    catnip.ui.calibrate.Screen, asks), and reply(why, fields) tells the
    laptop if it asked."""

    def __init__(self, app, station, loaded):
        self.app = app
        self.station = station
        self.loaded = loaded
        tray = app.hw.board.tray
        self.rate = tray["rate"]
        self.cells = len(tray["cells"])
        self.path = app.weigh.path
        self.answers = 0  # weighings ended so far
        self.answer = None  # (step, why, fields) of the last
        self._reset()

    def scene(self):
        """What the stations show of it (catnip.ui.calibrate)."""
        return Screen(self)

    def _reset(self):
        self.cal = Calibrator(self.rate, self.cells)
        self.weighed = False  # the empty base
        self.cats = 0
        self.corners = 0
        self.measuring = None  # the step being measured
        self.meter = None  # the Calibrator it feeds (a fresh one for the empty base)
        self.reply = None
        self.figures = None  # after the last good step

    # ---- what may come now -----------------------------------------------------

    def next_steps(self):
        if self.measuring is not None:
            return ["abort"]
        if not self.weighed:
            return ["empty", "abort"]
        if self.corners == 4:
            return ["save", "empty", "abort"]
        if self.corners:
            return ["corner", "empty", "abort"]
        steps = ["cat"]
        if self.cats:
            steps += ["corner", "save"] if self.cells == 4 else ["save"]
        return steps + ["empty", "abort"]

    def say(self):
        """What the person calibrating does next (four rows of a station)."""
        if self.measuring is not None:
            return "Weighing: hands off the tray."
        if not self.weighed:
            return "Put the empty base on the tray. Hands off."
        if self.corners == 4:
            return "All four corners weighed: save."
        if self.corners:
            return "Move the cat above the %s cell." % CORNERS[self.corners]
        if not self.cats:
            return "Put one cat on the base. Let go."
        if self.cells == 4:
            return "Cat %d on, or cats off and one above left-front cell." % (self.cats + 1)
        if self.cats < ENOUGH_CATS:
            return "Put cat %d on the base. Let go. %d cats are enough." % (
                self.cats + 1, ENOUGH_CATS)
        return "Put cat %d on the base, or save." % (self.cats + 1)

    def status(self, step):
        fields = {"step": step, "next": self.next_steps(), "say": self.say(),
                  "cats": self.cats, "corners": self.corners}
        if self.figures is not None:
            fields.update(self.figures)
        return fields

    def begun(self):
        fields = self.status("begin")
        fields.update(cells=self.cells, rate_hz=self.rate,
                      capture_ms=capture_length(self.rate) * 1000 // self.rate)
        return fields

    # ---- steps ------------------------------------------------------------------

    def command(self, word, reply):
        """A step from the laptop; its answer goes to reply(why, fields)."""
        if self.station is not None:
            raise Refused("The tray is being calibrated at station %d: finish or stop it "
                          "there first." % (self.station + 1))
        self.step(word, reply)

    def at_station(self, station, word):
        """Step `word` chosen at `station`: a calibration the laptop drives
        may only be stopped there."""
        if self.station is None:
            self._drop_reply("Stopped at station %d: nothing was saved." % (station + 1))
            self.app.out.say("Tray calibration stopped at station %d" % (station + 1))
            self.end()
            return
        self.step(word)

    def step(self, word, reply=None):
        """Take step `word`. "empty", "cat" and "corner" start weighing: the
        answer comes when the capture ends, to reply(why, fields) if given.
        "save" and "abort" answer at once and end the calibration. Refused
        says why a step cannot be taken now; it changes nothing."""
        if word not in STEPS:
            raise Refused("%r is not a calibration step; the steps are %s"
                          % (word, ", ".join(STEPS)))
        if word == "abort":
            self._drop_reply("Stopped before this weighing ended: nothing was saved.")
            if reply is not None:
                reply(None, {"step": "abort", "saved": False})
            self.end()
            return
        if self.measuring is not None:
            raise Refused("Still weighing (%s): wait for it to end, about %d s."
                          % (self.measuring, capture_length(self.rate) // self.rate + 1))
        if word == "begin":
            self._reset()
            if reply is not None:
                reply(None, self.begun())
            self.changed()
            return
        if word == "save":
            self._save(reply)
            return
        meter = self._start(word)
        self.measuring, self.meter, self.reply = word, meter, reply
        self.changed()

    def _start(self, word):
        """Begin the capture for `word`; its Calibrator."""
        if word == "empty":
            meter = Calibrator(self.rate, self.cells)  # the old steps stay until this one is good
            meter.capture(0)
            return meter
        if not self.weighed:
            raise Refused("Weigh the empty base first: put it on the tray with nothing on it "
                          "and take your hands off.")
        if word == "cat":
            if self.corners:
                raise Refused("The corners are being weighed: finish them, or start over with "
                              "the empty base.")
            try:
                self.cal.capture(self.cats + 1)
            except TrayError as e:
                raise Refused(plain(e))
            return self.cal
        if self.cells != 4:
            raise Refused("This tray has one load cell: there are no corners to weigh.")
        if not self.cats:
            raise Refused("Weigh at least one cat before the corners: one of them is the "
                          "weight you move from corner to corner.")
        if self.corners == 4:
            raise Refused("All four corners are weighed: save, or start over.")
        self.cal.capture_corner(self.corners)
        return self.cal

    # ---- readings -----------------------------------------------------------------

    def counts(self, counts):
        meter = self.meter
        if self.measuring is None:
            return
        if self.cells == 1:
            done = meter.feed(counts[0])
        else:
            done = meter.feed4(counts[0], counts[1], counts[2], counts[3])
        if done is not None:
            self._captured(done)

    def fault(self, error):
        if self.measuring is not None:
            step = self.measuring
            self.measuring = self.meter = None
            self._answer(step, "The tray does not answer (%s): check the load cell cable and "
                               "the HX711's wiring, then weigh again." % error)

    def _captured(self, done):
        step = self.measuring
        self.measuring = None
        if not done["ok"]:
            self.meter = None
            self._answer(step, again(done["why"]))
            return
        if step == "empty":
            self.cal, self.weighed, self.cats, self.corners = self.meter, True, 0, 0
            self.figures = None
        elif step == "cat":
            odd = self._odd_cat()
            if odd is not None:
                self.cal.undo()
                self.meter = None
                self._answer(step, odd)
                return
            self.cats += 1
            self.figures = self._cat_figures()
        else:
            self.corners += 1
            if self.corners == 4:
                try:
                    self.figures = figures(self.cal.result(), self.corners)
                except TrayError as e:
                    self.cal.corners = {}
                    self.corners = 0
                    self._answer(step, plain(e) + " Weigh the corners again, from the "
                                                  "left-front one.")
                    return
        self.meter = None
        fields = self.status(step)
        if step == "corner":
            fields["corner"] = CORNERS[self.corners - 1]
        self._answer(step, None, fields)

    def _odd_cat(self):
        """Why the cat just weighed cannot be one more cat like the others
        (it added half a cat or less, or half a cat more), or None."""
        k = self.cats + 1
        if k < 2:
            return None
        levels = self.cal.levels
        zero, before, now = levels[0], levels[k - 1], levels[k]
        cells = range(self.cells)
        # Each cell's reading moves one way under load: the cats so far say which.
        sign = [1 if before[c] >= zero[c] else -1 for c in cells]
        so_far = sum((before[c] - zero[c]) * sign[c] for c in cells) // (k - 1)
        added = sum((now[c] - before[c]) * sign[c] for c in cells)
        if so_far // 2 < added < so_far * 3 // 2:
            return None
        return ("Cat %d added %d counts, but one cat has been %d: put exactly one more cat on "
                "the base, let go and weigh again." % (k, added, so_far))

    def _cat_figures(self):
        levels = self.cal.levels
        now, before = levels[self.cats], levels[self.cats - 1]
        try:
            shown = figures(self.cal.result(), self.corners)
        except TrayError as e:  # weighed, but no calibration yet: say why
            shown = {"problem": plain(e)}
        sign = shown.get("sign") or [1] * self.cells
        shown["added"] = sum((now[c] - before[c]) * sign[c] for c in range(self.cells))
        return shown

    def _answer(self, step, why, fields=None):
        reply, self.reply = self.reply, None
        if reply is not None:
            reply(why, fields)
        self.answer = (step, why, fields)
        self.answers += 1
        self.changed()

    def _drop_reply(self, why):
        reply, self.reply = self.reply, None
        if reply is not None:
            reply(why, None)

    def changed(self):
        self.app.frame.all_dirty()

    # ---- the end ------------------------------------------------------------------

    def _save(self, reply):
        if not self.cats:
            raise Refused("Nothing to save yet: weigh the empty base, then at least one cat.")
        if self.corners not in (0, 4):
            raise Refused("%d of the 4 corners are weighed: weigh the other %d, or start over "
                          "without corners." % (self.corners, 4 - self.corners))
        try:
            cal = self.cal.result()
        except TrayError as e:
            raise Refused(plain(e))
        saved = cal.to_dict()
        try:
            flashfile.save(self.path, saved)
        except OSError as e:
            raise Refused("Could not write the calibration to the Pico's flash (error %s): "
                          "the one there is unchanged. Free some space and save again."
                          % (e.args[0] if e.args else e))
        self.app.weigh.calibrated(saved)  # the next game's
        fields = self.status("save")
        fields.update(figures(cal, self.corners))
        fields.update(saved=True, file=self.path)
        if reply is not None:
            reply(None, fields)
        self.app.out.say("Tray calibrated: one cat is %d counts, noise %s of a cat"
                     % (cal.per_cat, percent(fields["noise_pm"])))
        self.end()

    def end(self):
        """Back to the setup menu; the calibration's code leaves the heap."""
        app = self.app
        app.weigh.listen(None)
        app.calibrated()
        unload(self.loaded)
