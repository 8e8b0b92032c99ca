# Button debouncing as a pure state machine: successive bitmasks of pressed
# buttons plus the time in ms ticks go in, events come out. No I/O, no sleeping,
# no allocation per update, so it runs identically under tests and on the Pico.
#
# Debounce by polling period: a sample is taken every poll (10-20 ms, longer
# than a contact bounces). A press counts at the first sample that shows it,
# so latency is one poll at most. A release counts only once the button has
# read released for `release_ms`; contact chatter while held, or bounce on the
# way up, therefore never splits one press into two. Polls can come late (the
# app busy drawing, or the flash being erased): a button that read released,
# then pressed again after a gap of more than half `release_ms` without a poll
# and `release_ms` or more after it first read released, was let go and
# pressed anew: two presses. One held before a gap longer than `release_ms`
# and read released after it was let go in the gap (a contact bounces for a
# few ms): released at once, so a press read right after is a press of its own.
from array import array

from catnip.keys import (LONG, NAMES, OFFLINE, ONLINE, PRESS, RELEASE, REPEAT,  # noqa: F401
                         STUCK, UNSTUCK, pack, ticks_add, ticks_diff, unpack)

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# The event kinds, pack/unpack and tick arithmetic live in catnip.keys (the
# screens and the app read them too); they are named here for the drivers.
MAX_BUTTONS = const(16)


class EventQueue:
    """A fixed ring of packed events. When full, new events are dropped and
    counted: the consumer has stalled, and the oldest events explain why."""

    def __init__(self, size=64):
        self._ring = array("H", bytes(2 * size))
        self._head = 0
        self.count = 0
        self.dropped = 0

    def push(self, code):
        size = len(self._ring)
        if self.count == size:
            self.dropped += 1
            return
        i = self._head + self.count
        self._ring[i - size if i >= size else i] = code
        self.count += 1

    def pop(self):
        """The oldest event code; IndexError when empty."""
        if not self.count:
            raise IndexError("no button event is waiting")
        code = self._ring[self._head]
        self._head = (self._head + 1) % len(self._ring)
        self.count -= 1
        return code

    def clear(self):
        self._head = self.count = 0

    def waiting(self, kind):
        """Whether an event of `kind` (PRESS, RELEASE...) is waiting."""
        ring, size = self._ring, len(self._ring)
        for i in range(self._head, self._head + self.count):
            if ring[i - size if i >= size else i] >> 4 & 15 == kind:
                return True
        return False


class Debouncer:
    """Turns samples of `width` (up to 16) buttons into events pushed to
    `queue`.

    Bit i of a sample is button i (1 = pressed), i < width. Buttons in `repeat` repeat
    while held (for up/down navigation); the others report one LONG instead.
    A button held for `stuck_ms` is reported STUCK once and stops repeating;
    its release reports RELEASE and UNSTUCK."""

    # The timing every station shares, unless it is given another: a
    # station's own copy would take its heap seven times over.
    release_ms = 30
    long_ms = 800
    repeat_delay_ms = 450
    repeat_ms = 120
    stuck_ms = 20000

    def __init__(self, queue, station=0, repeat=0, release_ms=30, long_ms=800,
                 repeat_delay_ms=450, repeat_ms=120, stuck_ms=20000, width=MAX_BUTTONS):
        if not 0 <= station < 256:
            raise ValueError("station %r: a station number is 0..255" % (station,))
        if not 0 < width <= MAX_BUTTONS:
            raise ValueError("width %r: a source has 1 to %d buttons" % (width, MAX_BUTTONS))
        if not 0 <= repeat < 1 << width:
            raise ValueError("repeat mask 0x%x names buttons beyond the %d a source has"
                             % (repeat, width))
        if not 0 < release_ms < long_ms < stuck_ms or not 0 < repeat_delay_ms < stuck_ms \
                or repeat_ms <= 0:
            raise ValueError("button timing needs 0 < release_ms < long_ms < stuck_ms and "
                             "0 < repeat_delay_ms < stuck_ms, repeat_ms > 0")
        self.queue = queue
        self.base = station << 8
        self.repeat = repeat
        for name, value in (("release_ms", release_ms), ("long_ms", long_ms),
                            ("repeat_delay_ms", repeat_delay_ms), ("repeat_ms", repeat_ms),
                            ("stuck_ms", stuck_ms)):
            if value != getattr(Debouncer, name):
                setattr(self, name, value)
        self.down = 0  # debounced: pressed
        self.rising = 0  # pressed buttons that read released, not yet for release_ms
        self.done = 0  # pressed buttons whose LONG is reported
        self.stuck = 0
        # Tick times per button i: when pressed at [3 * i], read released
        # at [3 * i + 1], due to repeat at [3 * i + 2], for the source's
        # `width` bits only (a station's four buttons: 12 slots, not 48).
        # A list, not an array: a tick is a small int on every port, while
        # the unix port's ticks overflow a 32-bit array slot.
        self._at = [0] * (3 * width)
        self._polled_at = 0  # the previous update

    def update(self, sample, now):
        """One poll: `sample` is the raw pressed mask, `now` ms ticks."""
        busy = sample | self.down
        i = 0
        while busy:  # idle, the common case, costs one test
            if busy & 1:
                self._step(i, 1 << i, sample, now)
            busy >>= 1
            i += 1
        self._polled_at = now

    def _step(self, i, bit, sample, now):
        if not self.down & bit:
            self._press(i, bit, now)
        elif sample & bit:
            if self.rising & bit and ticks_diff(now, self._at[3 * i + 1]) >= self.release_ms \
                    and 2 * ticks_diff(now, self._polled_at) > self.release_ms:
                self._release(i, bit)  # released long enough, unseen between late polls
                self._press(i, bit, now)
                return
            self.rising &= ~bit
            self._held(i, bit, now)
        elif not self.rising & bit:
            if ticks_diff(now, self._polled_at) > self.release_ms:
                # Read released after a gap longer than release_ms (a flash
                # erase holds the Pico some 100 ms): it was let go in the gap.
                self._release(i, bit)
                return
            # Reads released: hold the long/repeat/stuck clocks until it
            # either stays released or turns out to be chatter.
            self.rising |= bit
            self._at[3 * i + 1] = now
        elif ticks_diff(now, self._at[3 * i + 1]) >= self.release_ms:
            self._release(i, bit)

    def release_all(self):
        """Release every held button at once: its source went away."""
        for i in range(len(self._at) // 3):
            if self.down & 1 << i:
                self._release(i, 1 << i)

    def _press(self, i, bit, now):
        self.down |= bit
        self._at[3 * i] = now
        self._at[3 * i + 2] = ticks_add(now, self.repeat_delay_ms)
        self.queue.push(self.base | PRESS << 4 | i)

    def _held(self, i, bit, now):
        if self.stuck & bit:
            return
        if ticks_diff(now, self._at[3 * i]) >= self.stuck_ms:
            self.stuck |= bit
            self.queue.push(self.base | STUCK << 4 | i)
        elif self.repeat & bit:
            due = self._at[3 * i + 2]
            if ticks_diff(now, due) >= 0:
                due = ticks_add(due, self.repeat_ms)
                # A late poll gives one repeat, not a burst to catch up.
                self._at[3 * i + 2] = due if ticks_diff(due, now) > 0 \
                    else ticks_add(now, self.repeat_ms)
                self.queue.push(self.base | REPEAT << 4 | i)
        elif not self.done & bit and ticks_diff(now, self._at[3 * i]) >= self.long_ms:
            self.done |= bit
            self.queue.push(self.base | LONG << 4 | i)

    def _release(self, i, bit):
        keep = ~bit
        self.down &= keep
        self.rising &= keep
        self.done &= keep
        self.queue.push(self.base | RELEASE << 4 | i)
        if self.stuck & bit:
            self.stuck &= keep
            self.queue.push(self.base | UNSTUCK << 4 | i)
