# The turn: the tower as far as the tray knows it, the Stack O' Cats attempt
# in progress, and the proposals a person confirms. The rules engine is the
# authority on the tower; the tray keeps its own idea only to suggest.
from catnip.tray.common import TrayError, is_int

_KEPT = 8  # unanswered questions kept; older ones go stale


class Turn:
    """What happened, in the game's terms. Every proposal is a dict

        {"id", "ask": "added"|"fell"|"cats", "default", "min", "max",
         "conf", "why", "t"}

    with min <= default <= max, and confirm(id, value) accepts any whole
    number from min to max. Weight tells how many cats came onto the tray or
    left it, never where a cat stands: heights are the players' to report."""

    def __init__(self, wedged, in_play, rate):
        self.wedged = wedged
        self.in_play = in_play
        self.tower = 0  # cats on the tower, as far as the tray knows
        self.pending = {}
        self._next_id = 1
        self.follow = rate * 3 // 4  # losses this soon after an impact: still falling
        # At 10/s a conversion can average a cat's landing away entirely, so
        # no collapse rules out cats that fell and stayed on the tray; at
        # 80/s the mildest landing bends the load far beyond any hand.
        self.landings_hidden = rate < 80
        self.fell_at = -(1 << 29)  # reading of the collapse's first call
        self._fell_ask = 0  # its question, and the cats it took off the tower
        self._fell_left = 0
        self.attempt = False  # an attempt is in progress (begin_attempt)
        self._at_cats = self._at_id = 0
        self._collapsed = False
        self._struck = False  # a cat struck the tray during the attempt
        self._added_conf = 0  # confidence of the attempt's last placement
        self._verdict = 0  # the attempt's verdict proposal, once given

    def quiet_state(self):
        """A new quiet state: a new turn, a new collapse."""
        self._fell_ask = self._fell_left = 0

    def counted(self, cats):
        """The tray counted `cats` from its zero (its first verdict, a tare):
        as far as it knows, they are the tower."""
        self.tower = cats

    def fell(self, at):
        """A new collapse begins, its first call at reading `at`."""
        self.fell_at = at

    def loose(self, cats):
        """Cats on the tray that are not on the tower: fallen ones lying
        there, and a cat that fell from a hand."""
        return max(0, cats - self.tower)

    # ---- what happened ---------------------------------------------------

    def placed(self, n, cats, conf):
        """n cats more on the tray, the change known at conf percent."""
        self.tower = min(cats, self.tower + n)
        self._added_conf = conf

    def removed(self, n, cats):
        """n (< 0) cats lifted off: fallen cats lying on the tray go first,
        then the tower's. During an attempt that is the table being tidied
        while the player tries again: it is not part of the attempt."""
        loose = cats - n - self.tower
        if -n > loose:
            self.tower = self.tower + n + loose
        if self.attempt:
            self._at_cats += n
        self.fit(cats)

    def fit(self, cats):
        """The tower holds no more cats than the tray, and none below zero."""
        self.tower = max(0, min(self.tower, cats))

    def collapse(self, anchor_cats, cats, conf, struck, t):
        """The tower came down. Cats gone from the tray since the last quiet
        state are off the tower; during an attempt those that fell are the
        ones gone since it began (a cat counted onto the tower during it is
        the cat being placed, which the player picks up and tries again, and
        a cat being placed was never counted). Cats still falling after the
        first call make another call, with the total so far, whose question
        replaces the first one's. Whether more fell than left the tray is
        known only when none can have landed on it: no cat struck it
        (struck: an impact was felt), at a rate that would have felt one,
        and no cat lay loose on the tray (the loss could be those). conf:
        the confidence in the change."""
        self._collapsed = True
        self._struck = self._struck or struck
        off = max(0, anchor_cats - cats)
        left = min(off, max(0, self._at_cats - cats)) if self.attempt else off
        loose = anchor_cats - self.tower
        self.pending.pop(self._fell_ask, None)
        self.tower -= off - self._fell_left
        self.fit(cats)
        self._fell_left = off
        # As many as the game has may have fallen: the tray's idea of the
        # tower is no bound on a person's answer (the rules' is).
        most = self.in_play
        if not left:
            ask = self.propose("fell", 1, 0, most, 0,
                               "the tower came down but the cats stayed on the tray: "
                               "how many fell?", t)
        elif self._struck or self.landings_hidden or loose > 0:
            ask = self.propose("fell", left, 0, most, 0,
                               "%d left the tray; cats may have landed on it: how many "
                               "fell?" % left, t)
        else:
            ask = self.propose("fell", left, 0, most, conf,
                               "%d left the tray and none struck it" % left, t)
        ask["left"] = left
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
        self._at_id = self._next_id  # proposals from here on belong to it
        self._collapsed = self._struck = False
        self._verdict = 0

    def verdict(self, cats, t, blind=None):
        """One proposal for the attempt so far (see Tray.verdict); blind
        names the sensor fault that keeps the tray from knowing. Its conf is
        the confidence in exactly what it proposes: the cat added, or the
        cats that fell (0 when it cannot know, and then it asks)."""
        if not self.attempt:
            raise TrayError("no attempt in progress: call begin_attempt() when the "
                            "player's attempt starts")
        self.pending.pop(self._verdict, None)  # a verdict asked again is made again
        mine = [p for k, p in self.pending.items() if k >= self._at_id]
        asked = [p for p in mine if p["ask"] == "cats"]
        fell = [p for p in mine if p["ask"] == "fell"]
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
            p = None if n != 1 else {
                "ask": "added", "default": 1, "min": 1, "max": 1, "conf": self._added_conf,
                "why": "one cat more on the tray; where it stands is yours to say"}
        else:
            # Nothing changed: the attempt is not over, or the tower fell
            # with every cat staying on the tray (the scale cannot tell).
            kind = "none"
            p = {"ask": "fell", "default": 0, "min": 0, "conf": 0, "max": self.in_play,
                 "why": "nothing changed on the tray: how many cats fell, if the tower "
                        "came down (0: none)?"}
        if p is None:
            if blind:
                why = "the sensor reads %s: how many cats are on the tray?" % blind
            else:
                why = "how many cats are on the tray?"
            p = {"ask": "cats", "default": cats, "min": 0, "max": self.in_play, "conf": 0,
                 "why": why}
        conf = 0 if kind == "ask" or kind == "none" else p["conf"]
        v = self.propose(p["ask"], p["default"], p["min"], p["max"], conf, p["why"], t)
        v["kind"] = kind
        v["n"] = n
        v["cats"] = cats
        if "left" in p:
            v["left"] = p["left"]
        self._verdict = v["id"]
        return v

    # ---- answers ---------------------------------------------------------

    def confirm(self, pid, value, t, cats):
        """Check and apply an answer, with `cats` on the tray; the record to
        journal. A "cats" answer the caller applies to the count."""
        p = self.pending.get(pid) if is_int(pid) else None
        if p is None:
            raise TrayError("no open question %r: it was answered or replaced" % (pid,), "id")
        if not is_int(value) or not p["min"] <= value <= p["max"]:
            raise TrayError("%s must be a whole number from %d to %d, not %r"
                            % (p["ask"], p["min"], p["max"], value), "value")
        del self.pending[pid]
        what = p["ask"]
        if what == "fell":
            # The tower lost `value` cats, not the ones that left the tray,
            # which came off it already.
            # No more than the tray holds: the cats that left it may have
            # been counted off a tower that was already empty.
            self.tower += p.get("left", 0) - value
            self.fit(cats)
        record = {"ev": "confirmed", "id": pid, "ask": what, "default": p["default"],
                  "value": value, "conf": p["conf"], "t": t}
        if "kind" in p:
            record["kind"] = p["kind"]
            self._end_attempt()  # the verdict answered for the whole attempt
        return record

    def agree(self, tower, cats):
        """The rules' tower after a move a person reported, whatever the tray
        had proposed: the tray's idea follows it (within the cats on the
        tray), and the attempt, answered, ends."""
        self.tower = tower
        self.fit(cats)
        self._end_attempt()

    def _end_attempt(self):
        self.attempt = False
        for k in [k for k in self.pending if k >= self._at_id]:
            del self.pending[k]
