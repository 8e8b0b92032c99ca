# Raw report streams for catnip.parts.health, and the checks on what it passes on;
# shared by the seeded tests (both interpreters) and the hypothesis ones.
#
# A raw stream is what the button poller and the screens put in the queue:
# per station, button events that keep the input layer's promises, and part
# reports (part 0 the buttons, part 1 the screen). The buttons part releases
# its held buttons before its own OFFLINE and says nothing while offline.
from buttoncheck import check_stream

from catnip.drivers.debounce import (LONG, NAMES, OFFLINE, ONLINE, PRESS, RELEASE, REPEAT,
                                     STUCK, UNSTUCK, EventQueue, pack, unpack)
from catnip.parts.health import StationEvents

STATIONS = 3
PARTS = 2
BUTTONS = 4
ACTIONS = 7  # what a step may do; see Raw.step


class Raw:
    """Builds a well-formed raw stream from a sequence of choices."""

    def __init__(self):
        self.codes = []
        self.parts = [[None] * PARTS for _ in range(STATIONS)]  # last report per part
        # Per button: 0 up, 1 held, 2 stuck, 3 held after its LONG.
        self.held = [[0] * BUTTONS for _ in range(STATIONS)]

    def step(self, station, action, which):
        """One choice: action 0-1 a part report, 2-6 a button event."""
        held = self.held[station]
        b = which % BUTTONS
        if action < 2:  # part `action` goes offline (which even) or online
            part = action
            kind = OFFLINE if which % 2 == 0 else ONLINE
            if part == 0 and kind == OFFLINE:
                for n in range(BUTTONS):
                    self._release(station, n)
            self.parts[station][part] = kind
            self.codes.append(pack(station, kind, part))
            return
        if self.parts[station][0] != ONLINE:
            return  # the poller says nothing for buttons it cannot read
        if action == 2 and not held[b]:
            held[b] = 1
            self.codes.append(pack(station, PRESS, b))
        elif action == 3:
            self._release(station, b)
        elif action == 4 and held[b] in (1, 3):
            held[b] = 2
            self.codes.append(pack(station, STUCK, b))
        elif held[b] == 1 and b % 2:  # odd buttons repeat, even ones give one LONG
            self.codes.append(pack(station, REPEAT, b))
        elif held[b] == 1:
            held[b] = 3
            self.codes.append(pack(station, LONG, b))

    def _release(self, station, b):
        state = self.held[station][b]
        if state:
            self.held[station][b] = 0
            self.codes.append(pack(station, RELEASE, b))
            if state == 2:
                self.codes.append(pack(station, UNSTUCK, b))


def play(steps):
    """Feed the raw stream of `steps` ((station, action, which) triples)
    through StationEvents one code at a time; check what comes out."""
    raw = Raw()
    fold = StationEvents(STATIONS, PARTS)
    queue = EventQueue(64)
    parts = [[None] * PARTS for _ in range(STATIONS)]
    said = [None] * STATIONS  # last station event passed on
    out = []
    for station, action, which in steps:
        start = len(raw.codes)
        raw.step(station % STATIONS, action % ACTIONS, which)
        for code in raw.codes[start:]:
            queue.push(code)
            k, kind, low = unpack(code)
            if kind in (OFFLINE, ONLINE):
                parts[k][low] = kind
            got = []
            while True:
                event = fold.take(queue)
                if event < 0:
                    break
                got.append(unpack(event))
            _check_station(k, kind, parts[k], said, got, fold)
            out.extend((s, NAMES[c], b) for s, c, b in got)
    check_stream(out)
    return out


def _check_station(k, kind, parts, said, got, fold):
    """The station events of one raw code: exactly the changes of state."""
    mine = [e for e in got if e[1] in (OFFLINE, ONLINE)]
    assert all(e[0] == k and e[2] == 0 for e in mine), got
    down = OFFLINE in parts
    up = all(p == ONLINE for p in parts)
    want = []
    if down and said[k] != OFFLINE:
        want = [(k, OFFLINE, 0)]
    elif up and said[k] != ONLINE:
        want = [(k, ONLINE, 0)]
    assert mine == want, "station %d parts %r after %s: got %r, want %r" % (
        k, parts, NAMES[kind], got, want)
    if want:
        said[k] = want[0][1]
        assert got[-1] == want[0], "the station event comes after the releases: %r" % got
    assert fold.online(k) == (said[k] == ONLINE)
    missing = sum(1 << p for p in range(len(parts)) if parts[p] == OFFLINE)
    assert fold.missing(k) == missing, (parts, fold.missing(k))
