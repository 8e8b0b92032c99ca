# The calls: what the load means each time it comes to rest. The Tray
# (estimator.py) says when: an episode's window went flat, the tray has been
# still for half a second, a loss was not set back, the zero was measured.
# The Caller says what: cats placed, cats removed, a collapse, or a question
# (how many cats are on the tray?), as the events the app is given, each
# with the count, its confidence and, with four cells, the lean.
#
# Called once an episode or a turn ends, not on every reading; it allocates
# only the event it returns.
from catnip.tray.common import const, isqrt
from catnip.tray.lean import lean
from catnip.tray.readings import FRAC, SETTLED, SHORT

_PLACED = const(0)
_REMOVED = const(1)
_COLLAPSE = const(2)


class Caller:
    """The calls of a tray with calibration `cal`, over its stages (the
    readings, the episode, the count, the turn); `handling`: readings an
    episode may last before it is a hand (the Tray's window)."""

    def __init__(self, cal, readings, episode, count, turn, handling):
        self.cal = cal
        self._cells = cal.cells
        self.readings = readings
        self.episode = episode
        self.count = count
        self.turn = turn
        self._handling = handling
        self._ask_after = cal.rate_hz * 3 // 2  # flat for 1.5 s but not whole cats
        self.absolute = True  # the first verdict counts from the calibration zero
        self.report = False  # this turn has something to report when quiet

    # ---- the load starts moving ------------------------------------------

    def new_episode(self):
        """An episode begins at the still level."""
        r = self.readings
        self.episode.start(r.level >> FRAC, self.count.per_cat, r.noise)

    def moved(self):
        """A reading left the still band: the still readings' refinement goes
        into the mass, and the load is moving."""
        r, c = self.readings, self.count
        c.weighs(c.mass + r.refine())
        r.move()
        self.new_episode()

    def handling(self):
        """The load has moved for a while with no impact: a hand."""
        self.report = True
        return {"ev": "handling", "t": self.readings.ms()}

    # ---- the load comes to rest ------------------------------------------

    def early(self, w, m):
        """May the early window (w readings) end the episode at mean m? Only for
        cats placed, a clean whole number of them (as close as a clean quiet
        state), with no impact, on a sensor quiet enough (noise within 3% of
        a cat) that the remainder tells a hand's fraction from a whole cat.
        Anything else waits for the long window."""
        c, ep = self.count, self.episode
        pc = c.per_cat
        if self.absolute or self.readings.noise * 32 > pc:
            return False
        if w < SHORT and ep.since <= self._handling:
            # Two conversions at 10/s: a poke whose crest sits centred
            # between them reads the same twice. A poke is over by now.
            return False
        change = c.mass + m - ep.before - c.anchor
        off = (change + (pc >> 1)) % pc - (pc >> 1)  # counts from the nearest whole cats
        if (off if off >= 0 else -off) * 1000 > 150 * pc:
            return False  # the common case while a hand moves: cheap to rule out
        if not c.clean_step(change):
            return False
        n = c.anchor_cats + c.total - c.cats
        return (n > 0 and c.anchor_cats + c.total <= self.turn.in_play
                and not ep.impact(m, pc, self.turn.attempt))

    def at(self, m):
        """The episode's window is flat at mean m: the verdict, as an event
        (or None). A load that is no whole number of cats is waited on
        (the tray stays moving); otherwise the tray is still from here."""
        c, ep, r = self.count, self.episode, self.readings
        absolute = self.absolute
        # Mass above the zero: the first verdict measures it from the
        # calibration zero, later ones add the step since the episode began.
        mass = m if absolute else c.mass + m - ep.before
        plausible = c.whole(mass, c.anchor)
        impact = not absolute and ep.impact(m, c.per_cat, self.turn.attempt)
        if not plausible:
            # Still but not whole cats: a hand resting, or a hand that rested
            # so long the last turn looked over, or something else on the
            # tray. Wait; if it stays so, look back a turn, then ask. After
            # an impact there is nothing more to wait for: something fell,
            # and the collapse is called with no confidence in the count.
            odd = ep.odd()
            if odd < 2 * r.quiet_after:
                return None
            if not absolute and c.rewind(mass):
                plausible = True
            elif odd < 2 * self._ask_after and not impact:
                return None
        total = c.total
        r.settle_at(m)
        r.remember_cells(absolute)
        c.weighs(mass)
        conf = c.confidence() if plausible else 0
        if not self._possible(c.anchor_cats + total):
            self.absolute = False
            return self._ask_cats(total)
        if absolute:
            self.absolute = False
            c.counted(total, conf)
            self.turn.counted(total)
            self.anchor()
            self.report = True
            return None
        n = c.anchor_cats + total - c.cats
        if impact:
            # A call that waited for an odd load to stay still comes after
            # the cats stopped falling: the follow-on window starts there.
            return self._count(n, conf, _COLLAPSE, ep.flat_odd >> 1, True)
        if not plausible:
            return self._ask_cats(total)
        if n > 0:
            return self._count(n, conf, _PLACED)
        if n < 0 and r.samples - self.turn.fell_at <= self.turn.follow:
            # Cats lost just after the tower came down were still falling.
            return self._count(n, conf, _COLLAPSE)
        # Cats gone without an impact: a hand lifting them, perhaps to set
        # one back at once. Called when the tray is quiet.
        return None

    def quiet(self):
        """Half a second still: refine the level, call what is still
        uncalled (removals), and close the turn with one event. A slow,
        steady slide within the noise band (a hand letting go very gently)
        is not still: the episode goes on."""
        c, r = self.count, self.readings
        trend = r.trending()
        c.weighs(c.mass + r.refine())
        if trend:
            r.move()
            self.new_episode()
            return None
        c.whole(c.mass, c.anchor)
        total = c.total
        n = c.anchor_cats + total - c.cats
        report, self.report = self.report, False
        if not -450 <= c.r <= 450 or not self._possible(c.anchor_cats + total):
            return self._ask_cats(total)
        conf = c.confidence()
        if n > 0:
            return self._count(n, conf, _PLACED)
        if n < 0:
            return self._count(n, conf, self._loss(n))
        c.counted(c.cats, c.anchor_conf * conf // 100)
        self.anchor()
        return self._event("settled", 0, None) if report else None

    def lost(self):
        """Cats went without an impact and were not set back: call it."""
        c, r = self.count, self.readings
        mass = c.mass + (r.level >> FRAC) - r.verdict_level
        if not c.whole(mass, c.anchor) or not self._possible(c.anchor_cats + c.total):
            return None
        n = c.anchor_cats + c.total - c.cats
        return self._count(n, c.confidence(), self._loss(n)) if n < 0 else None

    def tared(self, got):
        """The tare's still second, got = (per-cell means, variance): the zero,
        no cats, and the noise measured now."""
        means, var = got
        cal = self.cal.noise
        r, c, turn = self.readings, self.count, self.turn
        r.set_noise(min(max(isqrt(var), (cal + 1) >> 1), 4 * cal))
        self.absolute = False
        c.weighs(0)
        c.counted(0, 100)
        turn.counted(0)
        r.zero_here(means)
        self.anchor(clean=True)
        return self._event("settled", 0, None)

    def decided(self):
        """Is there nothing left to call: the load still, no loss waiting to
        be called? (Cats still falling after a collapse make another
        collapse event, whose verdict replaces this one.)"""
        r, c = self.readings, self.count
        if r.state != SETTLED:
            return False
        if r.quiet <= r.quiet_after:
            c.whole(c.mass + (r.level >> FRAC) - r.verdict_level, c.anchor)
            return c.anchor_cats + c.total == c.cats
        return True

    def anchor(self, clean=False):
        """This is a quiet state: the count and the turn start from it."""
        self.count.anchor_here(clean)
        self.turn.quiet_state()

    def lean(self):
        """Where the cats' weight sits (four cells; None with one): see lean.py."""
        if self._cells != 4:
            return None
        return lean(self.readings.cell_mass, self.cal.gain, self.count.per_cat)

    # ---- what the call says -----------------------------------------------

    def _possible(self, cats):
        """A count the game allows: never below none, never above in play."""
        return 0 <= cats <= self.turn.in_play

    def _loss(self, n):
        """n (< 0) cats gone without an impact are a removal between attempts
        (tidying), and during one too when they could all be fallen cats
        lying on the tray (lifted off while the player tries again); any
        more, during an attempt, are a collapse (the tower lost them)."""
        turn = self.turn
        if turn.attempt and -n > turn.loose(self.count.cats):
            return _COLLAPSE
        return _REMOVED

    def _count(self, n, conf, kind, still=0, struck=False):
        c, turn, r = self.count, self.turn, self.readings
        t = r.ms()
        c.counted(c.cats + n, c.anchor_conf * conf // 100)
        left = ask = None
        if kind == _PLACED:
            turn.placed(n, c.cats, conf)
            ev = "placed"
        elif kind == _REMOVED:
            turn.removed(n, c.cats)
            ev = "removed"
        else:
            if r.samples - turn.fell_at > turn.follow:
                turn.fell(r.samples - still)
            ask = turn.collapse(c.anchor_cats, c.cats, conf, struck, t)
            left = ask["left"]
            ev = "collapse"
        out = self._event(ev, n, ask, left)
        if r.quiet > r.quiet_after:
            self.anchor()
        else:
            self.report = True
        return out

    def _ask_cats(self, total):
        """The load is no whole number of cats from the last quiet state, or
        one the game does not allow: take the nearest possible count as a
        guess with no confidence, and ask."""
        c, turn = self.count, self.turn
        said = c.anchor_cats + total
        guess = 0 if said < 0 else turn.in_play if said > turn.in_play else said
        if said == guess:
            why = ("the load changed by %s cats, not a whole number: how many cats are on "
                   "the tray?" % c.in_cats(c.mass - c.anchor))
        else:
            why = ("the load says %d cats, outside the 0 to %d in play (a zero that moved, "
                   "or something else on the tray): how many cats are on the tray?"
                   % (said, turn.in_play))
        n = guess - c.cats
        c.counted(guess, 0)
        self.anchor()
        return self._event("settled", n, turn.ask_cats(guess, why, self.readings.ms()))

    def _event(self, kind, n, ask, left=None):
        c = self.count
        ev = {"ev": kind, "t": self.readings.ms(), "n": n, "cats": c.cats,
              "mass": c.hundredths(), "conf": c.conf}
        if left is not None:
            ev["left"] = left
        if self._cells == 4:
            ev["lean"] = self.lean()
        if ask is not None:
            ev["ask"] = ask
        return ev
