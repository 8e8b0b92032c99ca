# The turn: the tower as far as the tray knows it, the Stack O' Cats attempt
# in progress, and the proposals a person confirms. The rules engine is the
# authority on the tower; the tray keeps its own idea only to suggest.
from catnip.tray.common import TrayError, is_int

_KEPT = 8  # unanswered questions kept; older ones go stale


class Turn:
    """What happened, in the game's terms. Every proposal is a dict

        {"id", "ask": "height"|"fell"|"cats", "default", "min", "max",
         "conf", "why", "t"}

    with min <= default <= max, and confirm(id, value) accepts any whole
    number from min to max."""

    def __init__(self, wedged, in_play, rate):
        self.wedged = wedged
        self.in_play = in_play
        self.tower = 0  # cats on the tower, as far as the tray knows
        self.top = 0  # height of the last cat placed
        self.pending = {}
        self._asked = 0  # height questions answered, and how many as proposed
        self._accepted = 0
        self._next_id = 1
        self.follow = rate * 3 // 4  # losses this soon after an impact: still falling
        self.fell_at = -(1 << 29)  # reading of the collapse's first call
        self._fell_ask = 0  # its question, and the cats it took off the tower
        self._fell_left = 0
        self.attempt = False  # an attempt is in progress (begin_attempt)
        self._at_cats = self._at_tower = self._at_id = 0
        self._collapsed = False
        self._verdict = 0  # the attempt's verdict proposal, once given

    def quiet_state(self):
        """A new quiet state: a new turn, a new collapse."""
        self._fell_ask = self._fell_left = 0

    # ---- what happened ---------------------------------------------------

    def placed(self, n, cats, t):
        """n cats more on the tray: the height of a single cat on the tower."""
        before = self.tower
        self.tower = min(cats, before + n)
        if n != 1 or before < self.wedged or before <= 0:
            return None
        most = before - self.wedged + 1 if self.wedged else before
        guess = min(most, self.top + 1)
        self.top = guess
        # Confidence: how often players have accepted the suggestion.
        rate = (self._accepted + 1) * 100 // (self._asked + 2)
        return self.propose("height", guess, 1, most, rate,
                            "cats between the new cat and the base", t)

    def removed(self, n, cats):
        """n (< 0) cats lifted off between attempts: fallen cats lying on the
        tray go first, then the tower's."""
        loose = cats - n - self.tower
        if -n > loose:
            self.tower = self.tower + n + loose
        self.fit(cats)

    def fit(self, cats):
        """The tower holds no more cats than the tray, and none below zero;
        the last height is on it."""
        self.tower = max(0, min(self.tower, cats))
        self.top = max(0, min(self.top, self.tower))

    def collapse(self, anchor_cats, cats, conf, t):
        """The tower came down. Cats gone from the tray since the last quiet
        state (a cat being placed when the tower fell was never counted in
        it) are cats that fell; cats still falling after the first call make
        another call, with the total so far, whose question replaces the
        first one's."""
        self._collapsed = True
        left = max(0, anchor_cats - cats)
        self.pending.pop(self._fell_ask, None)
        self.tower -= left - self._fell_left
        self.fit(cats)
        self._fell_left = left
        most = min(self.in_play, max(left, self.tower + left + 1))
        if left:
            ask = self.propose("fell", left, left, most, conf,
                               "%d left the tray; add any that fell but stayed on it" % left, t)
        else:
            ask = self.propose("fell", 1, 0, most, 0,
                               "the tower came down but the cats stayed on the tray: "
                               "how many fell?", t)
        self._fell_ask = ask["id"]
        return ask

    def ask_cats(self, guess, why, t):
        """The load says no whole number of cats: ask how many are on the
        tray, with the tray's best guess (within what the game has in play)."""
        self.fit(guess)
        return self.propose("cats", guess, 0, self.in_play, 0, why, t)

    def propose(self, what, default, lo, hi, conf, why, t):
        p = {"id": self._next_id, "ask": what, "default": default, "min": lo, "max": hi,
             "conf": conf, "why": why, "t": t}
        self._next_id += 1
        self.pending[p["id"]] = p
        if len(self.pending) > _KEPT:
            del self.pending[min(self.pending)]
        return p

    # ---- the attempt -----------------------------------------------------

    def begin_attempt(self, cats):
        self.attempt = True
        self._at_cats = cats
        self._at_tower = self.tower
        self._at_id = self._next_id  # proposals from here on belong to it
        self._collapsed = False
        self._verdict = 0

    def verdict(self, cats, conf, t, blind=None):
        """One proposal for the attempt so far (see Tray.verdict); blind
        names the sensor fault that keeps the tray from knowing."""
        if not self.attempt:
            raise TrayError("no attempt in progress: call begin_attempt() when the "
                            "player's attempt starts")
        self.pending.pop(self._verdict, None)  # a verdict asked again is made again
        mine = [p for k, p in self.pending.items() if k >= self._at_id]
        asked = [p for p in mine if p["ask"] == "cats"]
        fell = [p for p in mine if p["ask"] == "fell"]
        heights = [p for p in mine if p["ask"] == "height"]
        n = cats - self._at_cats
        if blind:
            kind, p = "ask", None
        elif asked:
            kind, p = "ask", asked[-1]
        elif fell or self._collapsed:
            kind = "collapse"
            p = fell[-1] if fell else None
        elif n > 0:
            kind = "placed"
            p = heights[-1] if n == 1 and heights else None
        else:
            # Nothing changed: the attempt is not over, or the tower fell
            # with every cat staying on the tray (the scale cannot tell).
            kind = "none"
            p = {"ask": "fell", "default": 0, "min": 0, "conf": 0,
                 "max": min(self.in_play, self.tower + 1),
                 "why": "nothing changed on the tray: how many cats fell, if the tower "
                        "came down (0: none)?"}
        if p is None:
            if blind:
                why = "the sensor reads %s: how many cats are on the tray?" % blind
            else:
                why = "how many cats are on the tray?"
            p = {"ask": "cats", "default": cats, "min": 0, "max": self.in_play, "why": why}
        if kind == "ask" or kind == "none":
            conf = 0
        elif p["ask"] == "height":
            conf = conf * p["conf"] // 100  # the count's and the height's
        elif p["ask"] == "fell":
            conf = p["conf"]
        v = self.propose(p["ask"], p["default"], p["min"], p["max"], conf, p["why"], t)
        v["kind"] = kind
        v["n"] = n
        v["cats"] = cats
        self._verdict = v["id"]
        return v

    # ---- answers ---------------------------------------------------------

    def confirm(self, pid, value, t):
        """Check and apply an answer; the record to journal. A "cats" answer
        the caller applies to the count."""
        p = self.pending.get(pid) if is_int(pid) else None
        if p is None:
            raise TrayError("no open question %r: it was answered or replaced" % (pid,), "id")
        if not is_int(value) or not p["min"] <= value <= p["max"]:
            raise TrayError("%s must be a whole number from %d to %d, not %r"
                            % (p["ask"], p["min"], p["max"], value), "value")
        del self.pending[pid]
        what = p["ask"]
        if what == "height":
            self._asked += 1
            if value == p["default"]:
                self._accepted += 1
            self.top = value
            self.fit(self.tower)  # an old question: the tower may have fallen since
        elif what == "fell":
            # The tower lost `value` cats, not the `default` assumed so far.
            # Its min (the cats that left the tray) came off the tower already.
            self.tower += p["min"] - value
            self.fit(self.tower)
        record = {"ev": "confirmed", "id": pid, "ask": what, "default": p["default"],
                  "value": value, "conf": p["conf"], "t": t}
        if "kind" in p:
            record["kind"] = p["kind"]
            self._end_attempt()  # the verdict answered for the whole attempt
        return record

    def agree(self, tower, cats, top=None):
        """The rules' tower after a move a person reported, whatever the tray
        had proposed: the tray's idea follows it (within the cats on the
        tray), the last height too if the move placed a cat, and the attempt,
        answered, ends."""
        self.tower = tower
        if top is not None:
            self.top = top
        self.fit(cats)
        self._end_attempt()

    def _end_attempt(self):
        self.attempt = False
        for k in [k for k in self.pending if k >= self._at_id]:
            del self.pending[k]
