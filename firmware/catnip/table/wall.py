# The date at the table: the DS3231's time if one is fitted and answers,
# else the RP2040's own clock's when a laptop set it earlier in this
# power-up (the app began again after a soft reset), else a laptop's once
# one connects, else none (games go undated). It counts on from the moment
# it was learnt by the table's ticks.
from catnip import forget
from catnip.keys import ticks_diff


class Wall:
    """The wall clock of the table's hardware `hw` (its `rtc`, the DS3231,
    and `chip_rtc`, the RP2040's clock, catnip.drivers.chip_rtc: either may
    be missing or None) on `clock` (ticks_ms())."""

    def __init__(self, hw, clock, boot=None):
        self.rtc = rtc = getattr(hw, "rtc", None)
        self.chip = chip = getattr(hw, "chip_rtc", None)
        self.clock = clock
        self.boot = boot  # this run's token (the hello's): which run of ticks
        self.known = None  # (Unix seconds, ticks) the clock counts from; None: unknown
        for source in (rtc, chip):  # the battery-backed module first
            if source is None:
                continue
            try:
                t = source.time()
            except OSError:  # the clock module does not answer
                continue
            if t is not None:
                self.known = (t, clock.ticks_ms())
                break
        # The date's arithmetic (ChipRTC's) is needed again only when a
        # laptop sets the clock: it leaves the heap meanwhile.
        forget("catnip.drivers.ds3231")

    def set(self, t):
        """A laptop's clock (Unix seconds, UTC), sent whenever one connects:
        the table keeps it, and sets its clocks: the RP2040's, for the rest
        of this power-up, and the DS3231 if one is fitted."""
        self.known = (t, self.clock.ticks_ms())
        for source in (self.chip, self.rtc):
            if source is None:
                continue
            try:
                source.set(t)
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
