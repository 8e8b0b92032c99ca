# Station health, and the event stream the application sees.
#
# A station has parts that fail on their own: its buttons (the button
# poller reports them as part 0) and its screen (part catnip.parts.screen.SCREEN).
# Unplugging a station's cable silences both, but each notices at its own
# time; a bare panel or a cut button wire silences one. The application
# wants neither two reports nor half a one: a station is online while every
# part answers, so the first part to go gives the one OFFLINE and the last
# part back gives the one ONLINE. A station is unknown until every part has
# reported; a part missing from the start gives OFFLINE at once.
#
# Button events keep the input layer's promises across the fold: no button
# event from a station that is not online, and every PRESS gets exactly one
# RELEASE (and a STUCK its UNSTUCK), before the OFFLINE if the station goes
# away while a button is held, even when only its screen went.
#
# Events are the packed codes of catnip.keys (station << 8 |
# kind << 4 | button). Codes for stations past the last (the table display,
# the tray) pass through with button 0. PURE: no I/O, nothing allocated per
# event.
from array import array

from catnip.keys import OFFLINE, ONLINE, PRESS, RELEASE, STUCK, UNSTUCK

UNKNOWN = 0
UP = 1
DOWN = 2


class StationEvents:
    """The fold for `stations` stations of `parts` parts each."""

    def __init__(self, stations, parts=2):
        if not 0 < parts <= 8:
            raise ValueError("a station has 1 to 8 parts, not %r" % (parts,))
        self.stations = stations
        self.parts = parts
        self.all = (1 << parts) - 1
        self.heard = bytearray(stations)  # per station, a bit per part that reported
        self.down = bytearray(stations)  # per station, a bit per part not answering
        self.state = bytearray(stations)  # UNKNOWN, UP or DOWN
        self.held = array("H", bytes(2 * stations))  # buttons pressed, as passed on
        self.stuck = array("H", bytes(2 * stations))
        self._closing = -1  # a station whose held buttons are released before its OFFLINE
        self._unstick = -1  # a button of it whose UNSTUCK comes next

    def online(self, station):
        return self.state[station] == UP

    def missing(self, station):
        """Mask of the station's parts that do not answer."""
        return self.down[station]

    def take(self, queue):
        """The next event for the application from `queue` (an EventQueue of
        raw reports and button events), as a packed code; -1 when none."""
        while True:
            if self._closing >= 0:
                return self._close()
            if not queue.count:
                return -1
            code = self.fold(queue.pop())
            if code >= 0:
                return code

    def fold(self, code):
        """One raw code in: the code to pass on, or -1 to drop it. After an
        OFFLINE that must wait for releases, take() gives those first."""
        station = code >> 8
        kind = code >> 4 & 15
        if station >= self.stations:
            return code & ~15
        if kind == OFFLINE or kind == ONLINE:
            if not self.report(station, kind, code & 15):
                return -1
            if kind == OFFLINE and self.held[station]:
                self._closing = station
                return self._close()
            return code & ~15
        bit = 1 << (code & 15)
        if kind == PRESS:
            if self.state[station] != UP:
                return -1
            self.held[station] |= bit
        elif kind == UNSTUCK:
            if not self.stuck[station] & bit:
                return -1
            self.stuck[station] &= ~bit
        elif not self.held[station] & bit:
            return -1
        elif kind == RELEASE:
            self.held[station] &= ~bit
        elif kind == STUCK:
            self.stuck[station] |= bit
        return code

    def report(self, station, kind, part):
        """Part `part` of `station` reported OFFLINE or ONLINE. True when the
        station as a whole changed."""
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

    def _close(self):
        """The next of: RELEASE (and UNSTUCK) per held button, then OFFLINE."""
        k = self._closing
        base = k << 8
        if self._unstick >= 0:
            button, self._unstick = self._unstick, -1
            return base | UNSTUCK << 4 | button
        held = self.held[k]
        if held:
            button = 0
            while not held >> button & 1:
                button += 1
            bit = 1 << button
            self.held[k] = held & ~bit
            if self.stuck[k] & bit:
                self.stuck[k] &= ~bit
                self._unstick = button
            return base | RELEASE << 4 | button
        self._closing = -1
        return base | OFFLINE << 4
