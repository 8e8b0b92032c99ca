# The firmware's Hardware running on the simulated Table built from the same
# board config, stepped in virtual time: the tests' picture of a game night.
from boardcheck import shipped
from buttoncheck import check_stream
from catnip import board as boards
from catnip.drivers.debounce import NAMES
from catnip.parts.hardware import Hardware
from devsim.table import EMPTY_TRAY, Table


PANELS = ("ssd1306", "sh1106", "mixed")  # every OLED one panel, or the two in turn


def load(name, edit=None, panel=None):
    """A shipped board, optionally changed by edit(data) before validation;
    with `panel` (one of PANELS) its OLEDs are that panel."""
    data = shipped(name)
    if edit is not None:
        edit(data)
    if panel is not None:
        places = data["stations"] + ([data["table"]] if data.get("table") else [])
        for k, place in enumerate(places):
            place["oled"]["panel"] = ("ssd1306", "sh1106")[k % 2] if panel == "mixed" else panel
    return boards.parse(data)


class Rig:
    """Table + Hardware for `players`; every step advances the clock, moves
    the buttons' contacts, polls and flushes, and keeps the events as
    (station, kind name, button). On leaving a `with` block the whole
    stream must keep the input layer's invariants (tests/shared/buttoncheck)."""

    def __init__(self, board, players, step_ms=10, counts=EMPTY_TRAY, **timing):
        self.table = Table(board, counts=counts)
        self.hw = Hardware(board, players, clock=self.table.clock, **timing)
        self.step_ms = step_ms
        self.events = []  # tests may clear this
        self.log = []  # every event, for the invariants

    def run(self, ms):
        """Step for `ms`; returns the events that came meanwhile."""
        start = len(self.events)
        for _ in range(ms // self.step_ms):
            self.table.advance(self.step_ms)
            now = self.table.ticks_ms()
            self.hw.poll(now)
            self.hw.flush(now)
            self.take()
        return self.events[start:]

    def take(self):
        while True:
            event = self.hw.next()
            if event is None:
                return
            event = (event[0], NAMES[event[1]], event[2])
            self.events.append(event)
            self.log.append(event)

    def station(self, k):
        """(the firmware's Screen, the table's Station) of station k."""
        return self.hw.screens[k], self.table.stations[k]

    def close(self):
        self.table.close()
        for screen in self.hw.screens + [self.hw.table]:
            _canvases.pop(screen, None)  # they hold the whole rig: free it for the next

    def __enter__(self):
        return self

    def __exit__(self, kind, *exc):
        self.close()
        if kind is None:
            check_stream(self.log)
        return False


_canvases = {}


def canvas(screen):
    """A canvas of the test's own for `screen`, kept between drawings (the
    app draws every screen afresh on the hardware's one canvas)."""
    if screen not in _canvases:
        from catnip.drivers.ssd1306 import Canvas

        _canvases[screen] = Canvas()
    return _canvases[screen]


def draw(screen, k, note=""):
    """Something only station k shows: its name, a note, a box at its own place."""
    c = canvas(screen)
    c.fill(0)
    c.text("Station %d" % (k + 1), 0, 0, 1)
    if note:
        c.text(note, 0, 16, 1)
    c.fill_rect(8 * k, 40, 6, 6, 1)
    screen.take(c)


def put(screen, text, x, y):
    """Text added to what `screen` shows."""
    c = canvas(screen)
    c.text(text, x, y, 1)
    screen.take(c)


def shown(screen, model):
    """'' if the panel model shows exactly what the test last drew for the
    screen, else what differs."""
    from devsim.models.ssd1306 import mismatch

    return mismatch(bytes(canvas(screen).buf), model.screen(), model.height)
