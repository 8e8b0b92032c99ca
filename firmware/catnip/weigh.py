# The tray during a Stack O' Cats game: load-cell readings go to the tray
# estimator (catnip.tray), and what it proposes (a placement's height, how
# many cats fell, or "how many cats are on the tray?") goes to the active
# player's station for a one-press confirmation. The answer a person gives
# is confirmed to the tray and journaled with the proposal.
#
# Without a calibration, or while the cells are silent, the stations offer
# the manual path only and say why.
import json

from catnip.tray import Calibration, Tray, TrayError, TrayFeed

_KINDS = {"height": "place", "fell": "collapse", "cats": "cats"}


class Weigh:
    def __init__(self, hw, calibration_file):
        self.hw = hw
        self.tray = None
        self.problem = None
        self.scene = None
        self.changed = None
        self.pending = None  # the proposal on the active station
        try:
            with open(calibration_file) as f:
                self.tray = Tray(Calibration.from_dict(json.load(f)))
        except OSError:
            self.problem = "not calibrated"
        except (ValueError, TrayError) as e:
            self.problem = "calibration unreadable: %s" % e
        self.feed = TrayFeed(self.tray, self.on_tray) if self.tray is not None else None

    def begin(self, scene, changed):
        """A Stack O' Cats game starts on `scene` (catnip.ui.play.Play)."""
        self.scene = scene
        self.changed = changed
        self.pending = None
        scene.extra["tray"] = {"fault": self.problem, "lean": None}

    async def run(self):
        if self.feed is not None:
            await self.hw.weigh(self.feed.counts, self.feed.fault)

    def health(self, ok):
        self._status(None if ok else "no readings: check the load cell cable")

    def _status(self, fault):
        if self.scene is not None:
            self.scene.extra["tray"]["fault"] = fault or self.problem
            self.changed()

    # ---- the tray's events ------------------------------------------------

    def on_tray(self, ev):
        if self.scene is None or self.scene.game.result() is not None:
            return
        kind = ev.get("ev")
        if kind == "fault":
            self._status(None if ev["sensor"] == "ok" else "sensor " + ev["sensor"])
            return
        if ev.get("lean") is not None:
            self.scene.extra["tray"]["lean"] = ev["lean"]
        ask = ev.get("ask")
        if ask is not None and ask.get("ask") in _KINDS:
            self._propose(ask)
        self.changed()

    def _propose(self, ask):
        v = self.scene.game.public()
        lim = self.scene.game.limits() if v["step"] == "place" else None
        kind = _KINDS[ask["ask"]]
        lo, hi = ask["min"], ask["max"]
        if kind != "cats":
            if lim is None:
                return  # nothing is being placed: a removal between turns
            key = "height" if kind == "place" else "fallen"
            lo, hi = max(lo, lim[key][0]), min(hi, lim[key][1])
            if lo > hi:
                return  # the rules rule it out: the manual path stays
        default = ask["default"] if ask["default"] is not None else lo
        proposal = {"kind": kind, "id": ask["id"], "value": max(lo, min(hi, default)),
                    "lo": lo, "hi": hi, "conf": ask["conf"]}
        self.pending = proposal
        station = self.scene.seats[v["turn"]]
        self.scene.local[station].proposal = proposal

    # ---- answers ------------------------------------------------------------

    def acted(self, seat, action):
        """The game took `action`: if it answers the proposal, confirm it to
        the tray. Returns the record to journal, or None."""
        p = self.pending
        self._clear()
        if p is None or action[0] != p["kind"]:
            return None
        return self._confirm(p, action[1])

    def answer(self, value):
        """A person said how many cats are on the tray."""
        p = self.pending
        self._clear()
        if p is None or p["kind"] != "cats":
            return None
        return self._confirm(p, value)

    def _confirm(self, p, value):
        try:
            record = self.tray.confirm(p["id"], value)
        except TrayError:
            return None  # the tray replaced that question meanwhile
        record["proposal"] = p
        return record

    def _clear(self):
        self.pending = None
        if self.scene is not None:
            for local in self.scene.local:
                local.proposal = None
