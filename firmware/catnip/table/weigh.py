# The tray during a Stack O' Cats game. Load-cell readings go to the tray
# estimator (catnip.tray); each attempt of the active player gets one
# verdict from it (a cat placed, k cats fallen, or "how many cats are on the
# tray?"), shown on that player's station with how sure the tray is of
# exactly that. A placement's height is the player's to say (weight cannot
# tell it); a collapse where cats may have landed on the tray is a question.
# The answer a person gives is confirmed to the tray and journaled with the
# proposal (design principle 4).
#
# An attempt starts when the active player holds a cat to place (the
# "place" step) and ends with the report the player sends, whatever the
# tray said: the station's manual path always works, and a tray that was
# overruled is journaled as such. Without a calibration, or while the cells
# are silent, the stations offer the manual path only and say why.
#
# catnip.tray is imported only when a Stack O' Cats game begins: on the Pico
# its code takes heap that the other games need.
#
# What the stations show of the tray (the proposal, the lean, a fault) is
# theirs to ask (view(), through the game's side); it also goes on the serial line as a "tray" frame when it changes: at once for what
# a person did and for a fault, at most once per TELL_MS of readings for a
# proposal or lean the tray saw, so that a shaking tray cannot flood the line.
#
# Between games a calibration (catnip.table.calibrate, which powers the cells and
# sets `wanted`) may take the readings instead: `taker`. A tray with no
# calibration is read only while one runs; otherwise its HX711s sleep.
import asyncio

from catnip import wire
from catnip.flash import flashfile

_REPORTS = {"added": "place", "fell": "collapse", "cats": "cats"}
BASE_CATS = 4  # wedged into the base at setup (the rulebook's four)
TELL_MS = 250  # of the tray's readings, between two "tray" frames it caused
_UNTOLD = 0  # never a proposal: the next tell sends


class Weigh:
    def __init__(self, hw, calibration_file):
        self.hw = hw
        self.path = calibration_file
        self.cal = None  # the saved calibration, as read from flash
        self.problem = None
        self.tray = None
        self.game = None  # the Stack O' Cats game in play
        self.changed = None
        self.verdict = None  # the attempt's proposal on the active station
        self.asked = None  # the seat it is for
        self.fault = None  # what the stations say is wrong with the tray, or None
        self.lean = None  # the tower's lean, as the tray last saw it
        self.attempt = None  # (turn, log length) of the last attempt begun
        self.open = False  # the tray has an attempt waiting for its verdict
        self.send = None  # the line's send(kind, **fields), for "tray" frames
        self._told = (_UNTOLD, None, None)  # (proposal, lean, fault) the line has
        self._told_at = 0  # the tray's readings when it was sent
        self._due = False  # a change waits for TELL_MS to pass
        try:
            self.cal = flashfile.read(calibration_file)
        except OSError:
            self.problem = "not calibrated"
        except ValueError as e:
            self.problem = "calibration unreadable: %s" % e
        self.feed = None  # TrayFeed of the game's Tray; readings between games are dropped
        self.taker = None  # a calibration taking the readings: .counts(c), .fault(e)
        self.wanted = asyncio.Event()  # set when there is something to weigh for
        if self.cal is None:
            hw.sleep_tray()  # nothing to weigh with until a calibration begins

    def begin(self, game, changed, send=None):
        """A Stack O' Cats `game` starts (or resumes); changed() says the
        stations' view of the tray changed, send(kind, **fields) puts "tray"
        frames on the line."""
        self.game = game
        self.changed = changed
        self.send = send
        self._told = (_UNTOLD, None, None)
        self._due = False
        self.verdict = self.attempt = None
        self.open = False
        self.counted = False  # the tray has been still once: it knows the cats on it
        self.fault, self.lean = self.problem, None
        if self.cal is not None:
            from catnip.tray import Calibration, Tray, TrayError, TrayFeed

            try:
                cal = Calibration.from_dict(self.cal)
            except (ValueError, TrayError) as e:
                self.cal, self.problem = None, "calibration unreadable: %s" % e
                self.fault = self.problem
                return
            c = game.config
            in_play = len(c["colours"]) * c["per_colour"] + c["black_cats"]
            # No tare: the base is already on the tray with its cats, and the
            # calibration's zero is the empty base.
            self.tray = Tray(cal, wedged=BASE_CATS, in_play=in_play)
            self.feed = TrayFeed(self.tray, self.on_tray)
            _ = self.hw.tray  # the cells' driver loads now, with the game's code, not mid-game
        self.turn_changed()
        self.tell()
        self.wanted.set()

    def finished(self):
        """The game is over: what the tray learned of the average cat from
        its placements is saved as the calibration the next game starts from
        (the zero, the cells' signs and gains stay the maker's). A flash
        that refuses the write keeps the old one, and nothing is lost."""
        if self.tray is None:
            return
        learned = self.tray.calibration().to_dict()
        if learned == self.cal:
            return
        from catnip.flash import flashfile

        try:
            flashfile.save(self.path, learned)
        except OSError:
            return
        self.cal = learned

    def calibrated(self, saved):
        """A calibration was saved (catnip.table.calibrate): the next game's."""
        self.cal, self.problem = saved, None

    def listen(self, taker):
        """The readings go to `taker` (a calibration: .counts(c), .fault(e)),
        or back to the game (None); an uncalibrated tray's cells sleep when
        nobody listens."""
        self.taker = taker
        if taker is not None:
            self.hw.tray.power_up()
            self.wanted.set()
        elif self.cal is None:
            self.hw.tray.power_down()

    def view(self, seat):
        """What `seat`'s view shows of the tray (None: the public view):
        its fault and the lean, and to the seat it asks, the proposal; None
        with no game."""
        if self.game is None:
            return None
        shown = {"fault": self.fault, "lean": self.lean}
        if self.verdict is not None and seat is not None and seat == self.asked:
            shown["proposal"] = self.verdict
        return {"tray": shown}

    def stop(self):
        """No Stack O' Cats game any more: readings are dropped."""
        self.game = self.feed = self.tray = None
        self.verdict = self.attempt = None
        self.open = False

    async def run(self):
        """Read the cells once there is something to weigh for: a Stack O'
        Cats game on a calibrated tray, or a calibration. A session of other
        games never loads the load-cell driver."""
        while not self._weighing():
            self.wanted.clear()
            await self.wanted.wait()
        await self.hw.weigh(self._counts, self._silent)

    def _weighing(self):
        return self.taker is not None or (self.cal is not None and self.game is not None)

    def poll(self):
        """One reading if the cells have one waiting: for a loop without
        asyncio (Loop.step, the virtual table). run() is the device's way."""
        if not self._weighing():
            return  # between games readings are dropped: the cells are not even built
        tray = self.hw.tray
        if tray is None or not tray.powered or not tray.ready():
            return
        from catnip.drivers.hx711 import SensorFault

        try:
            self._counts(tray.read())
        except SensorFault as e:
            self._silent(e)

    def _counts(self, counts):
        if self.taker is not None:
            self.taker.counts(counts)
        elif self.feed is not None:
            self.feed.counts(counts)
            if self._due:
                self.tell(True)

    def _silent(self, error):
        if self.taker is not None:
            self.taker.fault(error)
        elif self.feed is not None:
            self.feed.fault(error)

    def health(self, ok):
        self._fault(None if ok else "no readings: check the load cell cable")

    def _fault(self, why):
        if self.game is not None:
            self.fault = why or self.problem
            self.changed()
            self.tell()

    def tell(self, soon=False):
        """Send what the stations show of the tray if the line does not have
        it yet; `soon`: the tray saw it, so not within TELL_MS of the last."""
        if self.send is None or self.game is None:
            return
        told = self._told
        if told[0] is self.verdict and told[1] == self.lean and told[2] == self.fault:
            self._due = False
            return
        if soon and self.tray is not None:
            if self.tray.samples - self._told_at < self.tray.rate * TELL_MS // 1000:
                self._due = True  # the next reading past TELL_MS sends it
                return
        p = self.verdict or {}
        self.send(wire.TRAY, proposes=p.get("kind"), value=p.get("value"), conf=p.get("conf"),
                  lean=self.lean, fault=self.fault)
        self._told = (self.verdict, self.lean, self.fault)
        self._told_at = self.tray.samples if self.tray is not None else 0
        self._due = False

    def retell(self):
        """A laptop asked for the state now: the tray's goes with it."""
        self._told = (_UNTOLD, None, None)
        self.tell()

    # ---- the game's side --------------------------------------------------

    def turn_changed(self):
        """After every action: an attempt starts when a cat is to be placed."""
        if self.tray is None or self.game is None:
            return
        game = self.game
        v = game.public()
        key = (v["turn"], len(game.log))
        if v["step"] == "place" and game.result() is None and self.attempt != key:
            self.attempt = key
            if self.counted:  # else from the first still tray: before it, the count is none
                self.tray.begin_attempt()
            self.open = True
            self._clear()

    def acted(self, seat, action):
        """The player reported `action`: confirm the tray's verdict with it.
        Returns the record to journal, or None."""
        p = self.verdict
        self._clear()
        self.open = False  # the player's report ends the attempt, whatever the tray said
        record = None
        if p is not None and action[0] == p["kind"]:
            # A placement confirms the cat the tray saw added; its height is
            # in the action. A collapse answers how many fell.
            record = self._confirm(p, action[1] if p["kind"] == "collapse" else p["value"])
        elif p is not None:
            record = {"ev": "overruled", "proposal": p, "report": list(action)}
        if self.tray is not None:
            # The rules are the authority on the tower: whatever the tray
            # proposed, it suggests from what the player reported.
            tower = self.game.public()["tower"]
            self.tray.agree(tower)
        self.turn_changed()
        self.tell()
        return record

    def answer(self, value):
        """A person said how many cats are on the tray."""
        p = self.verdict
        self._clear()
        self.tell()
        if p is None or p["kind"] != "cats":
            return None
        return self._confirm(p, value)

    # ---- the tray's side ----------------------------------------------------

    def on_tray(self, ev):
        if self.game is None or self.game.result() is not None:
            return
        kind = ev.get("ev")
        if kind == "fault":
            # At once: with the cells silent no reading would send it later.
            self._fault(None if ev["sensor"] == "ok" else "sensor " + ev["sensor"])
            return
        if ev.get("lean") is not None:
            self.lean = ev["lean"]
        if kind == "settled" and not self.counted:
            self.counted = True  # the base's cats counted: an attempt begun meanwhile starts here
            if self.open:
                self.tray.begin_attempt()
        if kind == "collapse" and self.open:
            self._clear()  # the tower fell after a proposal: it is out of date
        if kind in ("settled", "collapse") and self.open and self.verdict is None:
            from catnip.tray import TrayError

            try:
                v = self.tray.verdict()
            except TrayError:  # no attempt after all: the manual path stays
                v = None
            if v is not None and v["kind"] != "none":
                self._propose(v)
        self.changed()
        self.tell(True)

    def _propose(self, v):
        game = self.game
        report = _REPORTS[v["ask"]]
        lo, hi = v["min"], v["max"]
        if report != "cats":
            if game.public()["step"] != "place":
                return
        if report == "collapse":
            lim = game.limits()["fallen"]
            lo, hi = max(lo, lim[0]), min(hi, lim[1])
            if lo > hi:
                return  # the rules rule it out: the manual path stays
        # conf 0: the tray asks, starting from its default; otherwise it
        # proposes the default at conf percent.
        proposal = {"kind": report, "id": v["id"], "value": max(lo, min(hi, v["default"])),
                    "lo": lo, "hi": hi, "conf": v["conf"]}
        self.verdict = proposal
        self.asked = game.public()["turn"]

    def _confirm(self, p, value):
        from catnip.tray import TrayError

        try:
            record = self.tray.confirm(p["id"], value)
        except TrayError as e:  # the tray moved on meanwhile: say so in the journal
            return {"ev": "unconfirmed", "proposal": p, "value": value, "why": str(e)}
        record["proposal"] = p
        return record

    def _clear(self):
        self.verdict = None
