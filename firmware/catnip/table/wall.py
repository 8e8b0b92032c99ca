# The date at the table: the DS3231's time if one is fitted and answers,
# else the RP2040's own clock's when a laptop set it earlier in this
# power-up (the app began again after a soft reset), else a laptop's once
# one connects, else none (games go undated). It counts on from the moment
# it was learnt by the table's ticks.
from catnip import forget
from catnip.keys import ticks_diff


class Wall:
    """The wall clock of the table's hardware `hw` (its clocks(), the DS3231
    and the RP2040's, catnip.drivers.chip_rtc, built when asked) on `clock`
    (ticks_ms())."""

    def __init__(self, hw, clock, boot=None):
        self.hw = hw
        self.clock = clock
        self.boot = boot  # this run's token (the hello's): which run of ticks
        self.known = None  # (Unix seconds, ticks) the clock counts from; None: unknown
        for source in _clocks(hw):  # the battery-backed module first
            try:
                t = source.time()
            except OSError:  # the clock module does not answer
                continue
            if t is not None:
                self.known = (t, clock.ticks_ms())
                break
        _let_go()

    def set(self, t):
        """A laptop's clock (Unix seconds, UTC), sent whenever one connects:
        the table keeps it, and sets its clocks: the RP2040's, for the rest
        of this power-up, and the DS3231 if one is fitted."""
        self.known = (t, self.clock.ticks_ms())
        for source in _clocks(self.hw):
            try:
                source.set(t)
            except (OSError, ValueError):
                pass  # the date holds until the next power cut, as without a module
        _let_go()

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


def _clocks(hw):
    clocks = getattr(hw, "clocks", None)  # (a stand-in for the hardware may have none)
    return clocks() if clocks is not None else ()


def _let_go():
    # The clocks' drivers and the date's arithmetic (the DS3231 module's,
    # which the RP2040's clock borrows) are needed only to read or set them:
    # they leave the heap in between.
    forget("catnip.drivers.ds3231")
    forget("catnip.drivers.chip_rtc")
