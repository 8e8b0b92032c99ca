"""Stack O' Cats turns played onto a load-cell trace (devsim.traces), with the
ground truth of each: what happened, when the load settled, how many cats
are on the tray. Runs on CPython and the unix port, never on the Pico."""
import math

from catnip.rules.rng import Rng
from devsim.effects import Bump, Creep, Ramp, Ring, Tremor, impulse_ring
from devsim.traces import GAUSS_ONE, US_PER_MS, Trace, gauss, weights_at


# ---- a session of play on the tray --------------------------------------------


class Session:
    """Stack O' Cats turns played onto a trace, with the ground truth.

    per_cat: mean counts one cat adds; cat_spread: its standard deviation in
    percent (cats differ in pose and wood). Times are microseconds; each turn
    starts after a pause and returns its truth record:

        {"kind": "placed" | "collapse" | "removed" | "touch" | "fault",
         "start": us, "settle": us (when the load stops moving),
         "n": change in cats on the tray, "cats": cats on the tray after,
         "left": cats that left the tray, "stayed": cats that fell but stayed
         on it, "fell": left + stayed, "hit": cats that struck the tray
         (the rest fell clear of it), "lean": thousandths (4 cells), ...}

    The settle time is physical: the conversions that complete up to one
    period later still average some of the motion in.
    """

    WEDGED = 4  # cats wedged into the base at setup; they never fall

    def __init__(self, seed, rate_hz=80, cells=1, noise=80, per_cat=4300, cat_spread=5,
                 offset=None, drift_per_min=None, vibration=None, creep_permille=5,
                 stay=35, bounce=40, gains=None):
        self.rng = Rng("%s:play" % seed)
        self.per_cat = per_cat
        self.cat_spread = cat_spread
        self.creep_permille = creep_permille
        self.stay = stay
        self.bounce = bounce
        if offset is None:
            offset = self.between(-200000, 200000)
        if drift_per_min is None:
            drift_per_min = per_cat * self.between(-200, 200) // 10000  # up to 2% of a cat
        if vibration is None:
            vibration = noise
        self.trace = Trace(seed, rate_hz, cells, noise, offset, drift_per_min, vibration,
                           gains=gains)
        self.cells = cells
        self.truth = []
        self.tower = []  # cats on the tower, bottom first: [mass, x, y]
        self.loose = []  # cats that fell but stayed on the tray
        self.t = 0

    # ---- drawing ---------------------------------------------------------

    def between(self, lo, hi):
        """A uniform integer in [lo, hi]."""
        span = hi - lo + 1
        if span <= 65536:
            return lo + self.rng.below(span)
        return lo + (self.rng.next16() << 16 | self.rng.next16()) % span

    def ms(self, lo, hi):
        return self.between(lo, hi) * US_PER_MS

    def share(self, amount, lo_pct, hi_pct):
        return amount * self.between(lo_pct, hi_pct) // 100

    def new_cat(self):
        m = self.per_cat + gauss(self.rng) * self.per_cat * self.cat_spread // (100 * GAUSS_ONE)
        return max(self.per_cat // 4, m)

    def _w(self, x=0, y=0):
        return weights_at(self.cells, x, y)

    def _add(self, effect):
        return self.trace.add(effect)

    # ---- what the tray holds ---------------------------------------------

    def cats(self):
        return len(self.tower) + len(self.loose)

    def lean(self):
        """Centre of the cats' weight from the tray centre, thousandths of
        half the cell spacing: (distance, x, y)."""
        every = self.tower + self.loose
        total = sum(c[0] for c in every)
        if not total:
            return (0, 0, 0)
        x = sum(c[0] * c[1] for c in every) / total
        y = sum(c[0] * c[2] for c in every) / total
        return (int(math.sqrt(x * x + y * y) + 0.5), int(round(x)), int(round(y)))

    def _record(self, kind, start, settle, before, **more):
        rec = {"kind": kind, "start": start, "settle": settle, "n": self.cats() - before,
               "cats": self.cats(), "tower": len(self.tower)}
        if self.cells == 4:
            rec["lean"] = self.lean()
        rec.update(more)
        self.truth.append(rec)
        self.t = max(self.t, settle)
        return rec

    def _settles(self, ring):
        """When a ring has decayed below a twentieth of a cat."""
        band = self.per_cat / 20
        a = abs(ring.amount)
        if a <= band:
            return ring.t0
        return ring.t0 + int(ring.tau * math.log(a / band)) + 1

    # ---- turns -----------------------------------------------------------

    def wait(self, lo_ms=800, hi_ms=2500):
        self.t += self.ms(lo_ms, hi_ms)
        return self.t

    def _next_spot(self):
        if self.tower:
            _, x, y = self.tower[-1]
        else:
            x = y = 0
        x = max(-600, min(600, x + self.between(-120, 120)))
        y = max(-600, min(600, y + self.between(-120, 120)))
        return x, y

    def _hand(self, t0, dur, m, w, press=True):
        """A hand on the tower for `dur` us: tremor, a slow wander, and a
        push or a lift. Fingers cannot hold a force of a few grams steadier
        than about 0.01 N, a tenth of a 10 g cat: physiological tremor at
        8-12 Hz (4-15% of a cat), and most of the fluctuation, below 5 Hz,
        as a wander at 1-3 Hz (3-10% of a cat) that survives the averaging
        of a 10/s conversion."""
        self._add(Tremor(t0, dur, self.ms(80, 125), self.between(0, 628) / 100,
                         self.share(self.per_cat, 4, 15), w))
        self._add(Tremor(t0, dur, self.ms(300, 1000), self.between(0, 628) / 100,
                         self.share(self.per_cat, 3, 10), w))
        if press and dur > 200 * US_PER_MS:
            pdur = self.between(200 * US_PER_MS, dur)
            self._add(Bump(t0 + self.between(0, dur - pdur), pdur, self.share(m, -30, 60), w))

    def _load_change(self, t0, dur, amount, w):
        self._add(Ramp(t0, dur, amount, w))
        if self.creep_permille:
            self._add(Creep(t0 + dur, self.ms(1000, 4000),
                            amount * self.creep_permille / 1000, w))

    def place(self):
        """A cat placed on the tower: contact, partial support, release, wobble."""
        start = self.wait()
        before = self.cats()
        m = self.new_cat()
        x, y = self._next_spot()
        w = self._w(x, y)
        contact = self.ms(300, 1500)
        first = self.share(m, 0, 100)
        self._load_change(start, self.ms(50, 300), first, w)
        release = self.ms(30, 150)
        self._hand(start, contact - release, m, w)
        self._load_change(start + contact - release, release, m - first, w)
        end = start + contact
        wobble = self._add(Ring(end, self.ms(40, 200), self.ms(20, 100),
                                self.share(m, -25, 25), w))
        self.tower.append([m, x, y])
        return self._record("placed", start, max(end, self._settles(wobble)), before)

    def touch(self):
        """A hand on the tower that changes nothing: a push, a sharp poke, or
        a cat lifted and set back."""
        start = self.wait()
        before = self.cats()
        m = self.per_cat
        x, y = self._next_spot()
        w = self._w(x, y)
        style = self.between(0, 2)
        if style == 0:
            dur = self.ms(300, 1500)
            self._hand(start, dur, m, w)
            end = start + dur
        elif style == 1:
            dur = self.ms(60, 250)
            self._add(Bump(start, dur, self.share(m, 50, 300), w))
            end = start + dur
        else:
            # A cat lifted a little and reseated: part or all of its weight
            # leaves the tower for a moment.
            lift = self.ms(80, 250)
            hold = self.ms(100, 400)
            part = self.share(m, 30, 100)
            self._hand(start, 2 * lift + hold, m, w, press=False)
            self._add(Ramp(start, lift, -part, w))
            self._add(Ramp(start + lift + hold, lift, part, w))
            end = start + 2 * lift + hold
        return self._record("touch", start, end, before)

    def collapse(self):
        """A placement that brings the tower down: some top cats fall, each
        leaving the tray or landing on it (a thud), some bouncing off."""
        start = self.wait()
        before = self.cats()
        m = self.new_cat()
        x, y = self._next_spot()
        w = self._w(x, y)
        contact = self.ms(300, 1500)
        first = self.share(m, 0, 100)
        self._add(Ramp(start, self.ms(50, 300), first, w))
        self._hand(start, contact, m, w)
        crash = start + self.between(200 * US_PER_MS, contact)
        above = len(self.tower) - self.WEDGED
        k = 0
        while k < above and (k == 0 or self.rng.below(100) < 55):
            k += 1
        # Each falling cat: [mass, x, y, load it puts on the tray until it tips].
        falling = [c + [c[0]] for c in (self.tower.pop() for _ in range(k))]
        held = self.rng.below(2) == 0
        end = max(start + contact, crash)
        if held:
            # The player keeps the cat and lifts it away to try again.
            lift = crash + self.ms(100, 400)
            dur = self.ms(100, 300)
            self._add(Ramp(lift, dur, -first, w))
            end = max(end, lift + dur)
        else:
            falling.append([m, x, y, first])
        left = stayed = hit = 0
        fallen_mass = 0
        for cm, cx, cy, on in falling:
            tip = crash + self.ms(0, 150)
            self._add(Ramp(tip, self.ms(20, 80), -on, self._w(cx, cy)))
            fallen_mass += cm
            land = tip + self.ms(100, 250)
            fate = self.rng.below(100)
            lx = max(-1000, min(1000, cx + self.between(-500, 500)))
            ly = max(-1000, min(1000, cy + self.between(-500, 500)))
            lw = self._w(lx, ly)
            if fate < self.stay + self.bounce:
                # It hits the tray: the impulse of its fall rings the tray,
                # and it bounces back up with e percent of its speed.
                e = self.between(20, 60) if fate < self.stay else self.between(10, 30)
                impulse = cm * (land - tip) * (100 + e) // 100
                period, tau = self.ms(14, 30), self.ms(10, 40)
                thud = self._add(impulse_ring(land, period, tau, impulse, lw))
                end = max(end, self._settles(thud))
                hit += 1
            if fate < self.stay:
                # It stays: in the air for 2e percent of its fall (its weight
                # still off the tray), it lands again and stops, so the
                # impulses add up to its weight over all the time it was off,
                # as momentum requires (a cat at rest before and after).
                again = land + (land - tip) * 2 * e // 100
                second = self._add(impulse_ring(again, period, tau,
                                                cm * (land - tip) * e // 100, lw))
                end = max(end, self._settles(second))
                self._add(Ramp(again, self.ms(10, 40), cm, lw))
                self.loose.append([cm, lx, ly])
                stayed += 1
                land = again
            else:
                left += 1
            end = max(end, land + 40 * US_PER_MS)
        rock = self._add(Ring(crash + 150 * US_PER_MS, self.ms(150, 400), self.ms(80, 250),
                              fallen_mass * self.between(-50, 50) // 100, self._w()))
        end = max(end, self._settles(rock))
        return self._record("collapse", start, end, before, left=left, stayed=stayed,
                            fell=left + stayed, hit=hit, held=held)

    def remove(self, most=3):
        """Fallen cats lifted off the tray by hand (put aside, as the rules say)."""
        if not self.loose:
            raise ValueError("no fallen cats on the tray to remove")
        start = self.wait()
        before = self.cats()
        n = min(len(self.loose), 1 + self.rng.below(most))
        took = [self.loose.pop() for _ in range(n)]
        mass = sum(c[0] for c in took)
        w = self._w(took[0][1], took[0][2])
        grip = self.ms(150, 400)
        self._add(Bump(start, grip, self.share(mass, 10, 40), w))
        lift = self.ms(100, 400)
        self._load_change(start + grip - lift // 2, lift, -mass, w)
        self._hand(start, grip + lift, mass, w, press=False)
        return self._record("removed", start, start + grip + lift, before)

    def fail(self, kind, cell=None):
        """The sensor dies now."""
        start = self.wait()
        self.trace.fault(start, kind, cell)
        return self._record("fault", start, start, self.cats(), fault=kind)

    # ---- whole sequences -------------------------------------------------

    def calibrate(self, cats=5, corners=False):
        """The maker's calibration: the empty base, hands off, then cats added
        one at a time. Returns [(t_us, k)]: when OK was pressed with k cats on
        the tray; the tray stays still for half a second longer than a
        capture takes after each press (1 s at 80 readings/s, 2 s at 10).
        With corners (four cells), the cats are then lifted off and one cat
        is set above each corner in turn: (t_us, "corner", i) when OK was
        pressed."""
        hold = (1500 if self.trace.rate_hz == 80 else 2500) * US_PER_MS
        self.t = self.ms(300, 800)
        marks = [(self.t, 0)]
        self.t += hold
        for k in range(1, cats + 1):
            self.place()
            self.t += self.ms(400, 1200)
            marks.append((self.t, k))
            self.t += hold
        if corners:
            weight = self.tower[0][0]
            for cat in self.tower:
                self._add(Ramp(self.t, self.ms(100, 300), -cat[0], self._w(cat[1], cat[2])))
            self.tower = []
            self.t += 1500 * US_PER_MS
            for i, (x, y) in enumerate(((-1000, -1000), (1000, -1000), (1000, 1000),
                                        (-1000, 1000))):
                w = self._w(x, y)
                self._add(Ramp(self.t, self.ms(100, 300), weight, w))
                self.t += self.ms(800, 1500)
                marks.append((self.t, "corner", i))
                self.t += hold
                self._add(Ramp(self.t, self.ms(100, 300), -weight, w))
                self.t += 1000 * US_PER_MS
        return marks

    def calibrated(self, calibrator, cats=5, corners=False, after_us=1500000):
        """The maker's calibration (calibrate()) played into `calibrator`
        (catnip.tray's Calibrator for this trace's rate and cells): every
        conversion fed straight in, each capture started when OK was
        pressed, until after_us past the last press. Returns the answers
        its captures gave, in order."""
        marks = self.calibrate(cats, corners)
        trace, answers = self.trace, []
        k = mark = 0
        while k * trace.period < self.t + after_us:
            t = k * trace.period
            if mark < len(marks) and t >= marks[mark][0]:
                if len(marks[mark]) == 3:
                    calibrator.capture_corner(marks[mark][2])
                else:
                    calibrator.capture(marks[mark][1])
                mark += 1
            if trace.cells == 1:
                got = calibrator.feed(trace.counts_at(t))
            else:
                got = calibrator.feed4(*trace.counts4_at(t))
            if got is not None:
                answers.append(got)
            k += 1
        return answers

    def game(self, bag=36, touch_pct=5):
        """A whole game: tare time, the wedged cats, then placements with
        collapses (likelier as the tower grows), tidying and the odd touch,
        until the bag is empty."""
        self.t = 2000 * US_PER_MS
        self.tare_at = self.t - 1000 * US_PER_MS
        for _ in range(self.WEDGED):
            self.place()
        while bag > 0:
            if self.loose:
                self.remove()
                continue
            if self.rng.below(100) < touch_pct:
                self.touch()
                continue
            height = len(self.tower) - self.WEDGED
            if self.rng.below(1000) < min(400, 12 * height):
                rec = self.collapse()
                bag -= 0 if rec["held"] else 1
            else:
                self.place()
                bag -= 1
        self.t += 2000 * US_PER_MS
        return self.truth
