# The date at the table: the DS3231's time if one is fitted and answers,
# else a laptop's once one connects, else none (games go undated). It
# counts on from the moment it was learnt by the table's ticks.
from catnip.keys import ticks_diff


class Wall:
    """The wall clock of a table with `rtc` (the DS3231, or None) on
    `clock` (ticks_ms())."""

    def __init__(self, rtc, clock, boot=None):
        self.rtc = rtc
        self.clock = clock
        self.boot = boot  # this power-up's token (the hello's): which run of ticks
        self.known = None  # (Unix seconds, ticks) the clock counts from; None: unknown
        if rtc is None:
            return
        try:
            t = rtc.time()
        except OSError:  # the clock module does not answer: games go undated
            return
        if t is not None:
            self.known = (t, clock.ticks_ms())

    def set(self, t):
        """A laptop's clock (Unix seconds, UTC), sent whenever one connects:
        the table keeps it, and sets the DS3231 if one is fitted."""
        self.known = (t, self.clock.ticks_ms())
        if self.rtc is not None:
            try:
                self.rtc.set(t)
            except (OSError, ValueError):
                pass  # the date holds until the next power cut, as without a module

    def time(self):
        """Unix seconds now, or None while the table does not know the time."""
        if self.known is None:
            return None
        t, at = self.known
        return t + ticks_diff(self.clock.ticks_ms(), at) // 1000

    def note(self, what):
        """The journal's note of when the game began, resumed or ended, by
        this clock (None when the table has none), and its ticks: the
        laptop's date and length for a game it did not watch. The boot token
        says which power-up's ticks: a game the table could not date is dated
        at its pull from them, when that is the same power-up."""
        note = {"clock": what, "at": self.time(), "ms": self.clock.ticks_ms()}
        if self.boot is not None:
            note["boot"] = self.boot
        return note
