# Is the sensor alive? Stuck, saturated and silent cells, judged reading by
# reading before anything is made of the load.
from array import array

from catnip.tray.common import ALL_ONES, FULL_SCALE, MIN_COUNT, const

# Identical readings in a row that mean a stuck sensor. An HX711's noise is
# tens of counts, so even two equal readings are unusual; eight are not chance.
_STUCK_RUN = const(8)
_RAIL_RUN = const(3)  # readings at full scale in a row: saturated


class Sensor:
    """Per cell: how many identical readings in a row, how many at full
    scale; and how many readings were due and missed. `why` names the fault
    found ("stuck", "saturated", "no data")."""

    def __init__(self, cells, rate):
        self.cells = cells
        self._runs = array("i", bytes(4 * cells))
        self._prev = array("i", [0x7FFFFFFF] * cells)
        self._rails = array("i", bytes(4 * cells))
        self._missing = 0
        self._no_data = max(3, rate * 3 // 10)  # 300 ms without readings
        self.why = None

    def judge(self, c, raw):
        """1 if cell c reads stuck or saturated, else 0."""
        self._missing = 0
        runs, prev, rails = self._runs, self._prev, self._rails
        if raw == prev[c]:
            runs[c] += 1
        else:
            runs[c] = 1
            prev[c] = raw
        if raw >= FULL_SCALE or raw <= MIN_COUNT:
            rails[c] += 1
        else:
            rails[c] = 0
        if rails[c] >= _RAIL_RUN:
            self.why = "saturated"
            return 1
        if runs[c] >= _STUCK_RUN:
            self.why = "saturated" if raw == ALL_ONES else "stuck"
            return 1
        return 0

    def missed(self):
        """A reading was due and none came: True once it makes no data."""
        self._missing += 1
        if self._missing >= self._no_data:
            self.why = "no data"
            return True
        return False

    def suspect(self):
        """Repeated or full-scale readings: a sensor that may be dying is no
        evidence of a hand."""
        runs, rails = self._runs, self._rails
        for c in range(self.cells):
            if runs[c] > 1 or rails[c]:
                return True
        return False
