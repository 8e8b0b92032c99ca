# Whole cats: how many cats a change of load is, judged against the last
# quiet state, with the average cat learned from clean placements.
from catnip.tray.common import confidence, const, is_clean, is_whole, scaled
from catnip.tray.readings import SHORT

_POOL_MOST = const(400)  # cats pooled into the average at most (keeps the sum < 2**30)


class Counter:
    """The count (`cats`, `mass` in counts above the zero, `conf` in percent)
    and the quiet states it is judged against.

    Counting against the last quiet state (the mass and count when the tray
    was last still for half a second), not against each episode, keeps a cat
    that a hand lets go of in several steps from being lost. The last clean
    quiet state (whole cats from the clean one before) is kept too: a change
    only it explains means the last turn was not over."""

    def __init__(self, cal, readings):
        self._cat_sd = cal.cat_sd
        self._readings = readings  # for the noise, which a tare remeasures
        # The average cat: the calibration's, then pooled with every cat
        # placed cleanly during play (learn).
        self.per_cat = cal.per_cat
        self._pool = cal.per_cat * cal.cats
        self.pooled = cal.cats
        self.cats = 0
        self.mass = 0  # counts above the zero
        self.conf = 0
        self.anchor = self._clean = 0
        self.anchor_cats = self._clean_cats = 0
        self.anchor_conf = self._clean_conf = 0
        self._unclean = 0  # quiet states since the last clean one
        self._whole = False  # the anchor is whole cats from the clean one before it
        # The quiet state before the anchor, if it was whole cats from a
        # clean one: a change only it explains means the last turn was not
        # over (rewind).
        self._back = self._back_cats = self._back_conf = 0
        self._back_whole = False
        self._learned = 0  # the cat the anchor taught the average, if any
        self.total = self.r = self.var = 0  # the last judgement (see whole)
        self._off = self._var = 0  # the last judgement of a quiet state (see _clean_from)

    def weighs(self, mass):
        """The load is `mass` counts above the zero (a verdict, a refinement)."""
        self.mass = mass

    def counted(self, cats, conf):
        """The tray counts `cats`, with `conf` percent confidence."""
        self.cats = cats
        self.conf = conf

    def whole(self, mass, anchor):
        """Is the change from anchor to mass whole cats? Leaves the cats
        (total), the remainder in thousandths of a cat (r) and the variance
        expected of it (var), without allocating."""
        pc = self.per_cat
        change = mass - anchor
        self.total = total = (2 * change + pc) // (2 * pc)
        self.r = r = scaled(change - total * pc, 1000, pc)
        self.var = var = self.step_var(total)
        return is_whole(r, var)

    def step_var(self, n):
        """Variance of a change of n cats, in thousandths of a cat squared:
        the cats' own spread, the error of the average cat (pooled over the
        cats weighed so far), and the noise of the window and the level."""
        pc = self.per_cat
        sd = scaled(self._cat_sd, 1000, pc)
        noise = scaled(self._readings.noise, 1000, pc)
        a = min(n if n >= 0 else -n, 40)
        return a * sd * sd + a * a * (sd * sd // self.pooled) + 2 * noise * noise // SHORT + 1

    def confidence(self):
        return confidence(self.r, self.var)

    def clean_step(self, change):
        """Is `change` (counts, from the anchor) a clean whole number of
        cats, as close as a clean quiet state? Leaves the judgement."""
        self.whole(change + self.anchor, self.anchor)
        return is_clean(self.r, self.var)

    def anchor_here(self, clean=False):
        """This is a quiet state. It is clean if a person said so, or if it
        is whole cats from the last clean one, within two standard deviations
        of what the cats' differences and the noise allow (and never more
        than 0.15): no hand held part of a cat when the tray went quiet. Or
        if cats came or went since the last quiet state and the change from
        it is clean: a hand that held part of a cat there would have to hold
        the same part here. Without that, one heavy cat (or an average cat a
        few percent off) would leave every later state judged over more and
        more cats, whose differences soon pass 0.15: never clean again, the
        average cat never learned, no turn gone back to."""
        last, last_cats = self.anchor, self.anchor_cats
        self._back = last
        self._back_cats = last_cats
        self._back_conf = self.anchor_conf
        self._back_whole = self._whole and not clean  # never back past an answer
        self._learned = 0
        self.anchor = self.mass
        self.anchor_cats = self.cats
        self.anchor_conf = self.conf
        if clean or self._clean_from(self._clean, self._clean_cats) or (
                self.cats != last_cats and self._clean_from(last, last_cats)):
            self._clean = self.mass
            self._clean_cats = self.cats
            self._clean_conf = self.conf
            self._unclean = 0
            self._whole = True
        else:
            self._unclean += 1
            self._whole = False
            if self._unclean == 1:
                self._judge(self._clean, self._clean_cats)
                self._whole = is_whole(self._off, self._var)

    def _clean_from(self, mass, cats):
        """Is the count and mass now a clean whole number of cats from that
        state? One cat so is one more weighing of the average cat."""
        self._judge(mass, cats)
        if not is_clean(self._off, self._var):
            return False
        if self.cats - cats == 1:
            self._learn(self.mass - mass)
        return True

    def _judge(self, mass, cats):
        """The count and mass now against that state: leaves the remainder
        (thousandths of a cat) in _off and its expected variance in _var."""
        n = self.cats - cats
        self._off = scaled(self.mass - mass - n * self.per_cat, 1000, self.per_cat)
        self._var = self.step_var(n)

    def rewind(self, mass):
        """Judged against the quiet state before the last one, if that was
        whole cats from the clean state just before it, is the change whole
        cats? Then the last turn was not over: go back to it, and forget the
        cat the last state taught the average (a hand held part of it). The
        last state may have passed for clean: a hand that still held a tenth
        of a cat looks like a light cat. The state before need not have been
        clean: a light cat is whole but not clean (two cat deviations light,
        or lighter by the drift the zero lagged behind), and it is the light
        cat that lets a hand's fraction pass for clean. Only one quiet state
        back: further, the cats' differences add up until anything looks
        whole."""
        if not self._back_whole or not self.whole(mass, self._back):
            self.whole(mass, self.anchor)  # the verdict uses the current anchor
            return False
        if self._learned:
            self._pool -= self._learned
            self.pooled -= 1
            self.per_cat = self._pool // self.pooled
            self._learned = 0
        self.anchor = self._clean = self._back
        self.anchor_cats = self._clean_cats = self._back_cats
        self.anchor_conf = self._clean_conf = self._back_conf
        self._unclean = 0
        self._whole = True  # the rest of the cats showed it was
        self._back_whole = False  # nothing further back
        return True

    def _learn(self, cat):
        """One cat placed cleanly weighs `cat`: pool it with the calibration's
        cats, so the average cat is known better as the game goes on. Over a
        big collapse the average's error is what adds up fastest."""
        if self.pooled < _POOL_MOST and cat > 0:
            self._pool += cat
            self.pooled += 1
            self.per_cat = self._pool // self.pooled
            self._learned = cat

    def in_cats(self, counts):
        """counts as a decimal number of cats, "1.25"."""
        c = scaled(counts, 100, self.per_cat)
        sign = "-" if c < 0 else ""
        c = -c if c < 0 else c
        return "%s%d.%02d" % (sign, c // 100, c % 100)

    def hundredths(self):
        return scaled(self.mass, 100, self.per_cat)
