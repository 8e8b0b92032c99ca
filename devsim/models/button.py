# A push button with a real contact: closing or opening it gives a burst of
# transitions over a few milliseconds before it settles, and a worn contact
# can chatter while held. The button connects a pin to ground (or to 3V3 with
# active_low=False): a Pico GPIO (on=None, through devsim.pins) or a pin of an
# expander model (on=the model, anything with drive(pin, level)).
#
# Time is the test's: press()/release() plan transitions at given ms, and
# advance(now_ms) applies those that are due, so polling can be interleaved
# with bounce deterministically. Bounce comes from catnip's Rng, so a seed
# gives the same contact on both interpreters.
from catnip.rules.rng import Rng

from devsim import pins


class Button:
    def __init__(self, pin, on=None, seed="button", bounce_us=(500, 5000), gap_us=(40, 900),
                 active_low=True):
        self.pin = pin
        self.on = on
        self.rng = Rng(seed)
        self.bounce_us = bounce_us
        self.gap_us = gap_us
        self.closed_level = 0 if active_low else 1
        self.closed = False  # where the contact is heading
        self.contact = False  # where it is now
        self.plan = []  # (t_us, closed) transitions still to come
        self.transitions = 0  # applied so far

    def press(self, t_ms):
        self._burst(t_ms * 1000, True, self._between(self.bounce_us))

    def release(self, t_ms):
        self._burst(t_ms * 1000, False, self._between(self.bounce_us))

    def tap(self, t_ms, hold_ms):
        self.press(t_ms)
        self.release(t_ms + hold_ms)

    def chatter(self, t_ms, ms):
        """A dirty contact flickers for `ms`, then settles where it was."""
        self._burst(t_ms * 1000, self.closed, ms * 1000)

    def advance(self, now_ms):
        """Apply every transition due at or before now_ms."""
        now_us = now_ms * 1000
        while self.plan and self.plan[0][0] <= now_us:
            self._set(self.plan.pop(0)[1])

    def settle(self):
        """Apply every planned transition now."""
        while self.plan:
            self._set(self.plan.pop(0)[1])

    def _burst(self, t_us, closed, length_us):
        # Alternate away from and back to the final state, ending on it.
        self.closed = closed
        steps = []
        t = t_us
        state = closed
        while t < t_us + length_us:
            steps.append((t, state))
            state = not state
            t += self._between(self.gap_us)
        if steps and steps[-1][1] != closed:
            steps.append((t, closed))
        if not steps:
            steps.append((t_us, closed))
        self.plan = [s for s in self.plan if s[0] < t_us] + steps

    def _between(self, bounds):
        lo, hi = bounds
        return lo + self.rng.below(hi - lo + 1) if hi > lo else lo

    def _set(self, closed):
        if closed == self.contact:
            return
        self.contact = closed
        self.transitions += 1
        target = self.on if self.on is not None else pins.board
        target.drive(self.pin, self.closed_level if closed else None)
