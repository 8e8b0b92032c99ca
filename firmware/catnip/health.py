# Whether each station is online, folded from the reports of its parts.
#
# A station has two parts that fail on their own: its buttons (the button
# poller reports them as part 0) and its screen (part catnip.screen.SCREEN).
# Unplugging a station's cable silences both, but each notices at its own
# time; a bare panel or a cut button wire silences one. The application
# wants neither twice nor half: a station is online while every part
# answers, so the first part to go gives the one OFFLINE and the last part
# back gives the one ONLINE. A station is unknown until every part has
# reported; a part missing from the start gives OFFLINE at once.
#
# PURE: no I/O, no allocation per report.
from catnip.drivers.debounce import OFFLINE, ONLINE

UNKNOWN = 0
UP = 1
DOWN = 2


class StationHealth:
    """`stations` stations of `parts` parts each (parts numbered 0..parts-1)."""

    def __init__(self, stations, parts=2):
        if not 0 < parts <= 8:
            raise ValueError("a station has 1 to 8 parts, not %r" % (parts,))
        self.parts = parts
        self.all = (1 << parts) - 1
        self.heard = bytearray(stations)  # per station, a bit per part that reported
        self.down = bytearray(stations)  # per station, a bit per part not answering
        self.state = bytearray(stations)  # UNKNOWN, UP or DOWN

    def report(self, station, kind, part):
        """Part `part` of `station` reported OFFLINE or ONLINE. Returns True
        when the station as a whole changed (the event to pass on)."""
        if kind != OFFLINE and kind != ONLINE:
            raise ValueError("a part reports OFFLINE or ONLINE, not kind %r" % (kind,))
        if not 0 <= part < self.parts:
            raise ValueError("part %r: a station here has parts 0..%d" % (part, self.parts - 1))
        bit = 1 << part
        self.heard[station] |= bit
        if kind == OFFLINE:
            self.down[station] |= bit
            if self.state[station] == DOWN:
                return False
            self.state[station] = DOWN
            return True
        self.down[station] &= ~bit
        if self.heard[station] != self.all or self.down[station] or self.state[station] == UP:
            return False
        self.state[station] = UP
        return True

    def online(self, station):
        return self.state[station] == UP

    def missing(self, station):
        """Mask of the station's parts that do not answer."""
        return self.down[station]

