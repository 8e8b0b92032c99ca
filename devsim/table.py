# The simulated table, built from the same board config the firmware reads:
# an SSD1306 model per station on its bus (and mux channel), the station's
# buttons on Pico pins or on an expander model, the shared interrupt wire,
# the tray's HX711 models, the mux with its reset pin, and the table display.
# The unmodified firmware runs on it through the fake `machine`.
#
#     with Table(board) as table:            # a fresh simulated Pico
#         hw = Hardware(board, 4, clock=table.clock)
#         table.stations[2].tap("ok")
#         table.advance(50)
#         table.stations[2].unplug()
#         table.stations[2].lines()          # what its screen shows, as text
#
# Time is the table's clock (devsim.timing): VirtualClock by default, so a
# test decides when everything happens; RealClock for a live table. Button
# contacts and load-cell conversions follow that clock.
from catnip.board import BUTTONS
from devsim import bus as buses
from devsim import glyphs, pins, soc
from devsim.models.button import Button
from devsim.models.hx711 import HX711Model
from devsim.models.line import Line
from devsim.models.mcp23017 import MCP23017
from devsim.models.ds3231 import DS3231
from devsim.models.pcf8574 import PCF8574
from devsim.models.sh1106 import SH1106
from devsim.models.ssd1306 import SSD1306, render
from devsim.models.tca9548a import TCA9548A
from devsim.timing import VirtualClock

# The corner cells' HX711s run on their own internal oscillators: each
# starts converting at its own moment and keeps a rate a little apart
# (per mille of the nominal period), so their conversions drift.
CELL_PHASES_US = (0, 23000, 51000, 77000)
CELL_SPREAD = (0, 7, -6, 12)
# What an empty tray reads: a real bridge is never balanced to exactly 0.
EMPTY_TRAY = 21000


class Table:
    """Every part of `board` (a catnip.board.Board) as device models.

    counts: what the load cells weigh, as a signed HX711 count at channel A
    x128: a number, or counts_at(t_us) returning a number (every cell reads
    it) or one number per cell, or a load-cell trace (devsim.traces.Trace,
    one cell or four, as many as the board's tray has); an empty tray's
    offset by default. Assign `table.counts` to change it later. None from
    a source is a conversion with no data (DOUT stays high).
    rate: the HX711s' 10 or 80 samples/s, as their RATE pins are wired."""

    def __init__(self, board, clock=None, counts=EMPTY_TRAY, rate=10, rtc_unix=None):
        self.board = board
        self.rtc_unix = rtc_unix  # the time a fitted DS3231's battery kept (None: lost)
        self.clock = clock or VirtualClock()
        self._cell_count = len(board.tray["cells"]) if board.tray is not None else 0
        self.counts = counts
        self.clock.__enter__()  # a fresh pin board, timed by the clock
        self._installed = True
        try:
            self._build(board, rate)
        except BaseException:
            self.close()
            raise

    def _build(self, board, rate):
        buses.reset()
        soc.reset()
        self._lines = {}  # INT wires by Pico pin
        self.mux = None
        if board.mux is not None:
            self.mux = _Mux(board.mux)
            self.bus(board.mux["bus"]).attach(board.mux["addr"], self.mux.model)
        self.stations = [Station(self, k, config) for k, config in enumerate(board.stations)]
        self.display = None  # the table display's SSD1306 model
        if board.table is not None:
            self.display = self._panel(board.table)
        self.rtc = None  # the DS3231 model, holding the time its battery kept
        if getattr(board, "rtc", None) is not None:
            self.rtc = self.segment(board.rtc).attach(0x68, DS3231(self.now_ms, self.rtc_unix))
        self.cells = []  # HX711 models, in the order of tray.cells
        if board.tray is not None:
            period = 100000 if rate == 10 else 12500
            for i, cell in enumerate(board.tray["cells"]):
                self.cells.append(HX711Model(
                    self.clock, cell["sck"], cell["dout"], _CellSource(self, i), rate=rate,
                    phase_us=CELL_PHASES_US[i % 4] * period // 100000,
                    period_us=period + period * CELL_SPREAD[i % 4] // 1000))

    # ---- what the load cells weigh ---------------------------------------

    @property
    def counts(self):
        return self._counts

    @counts.setter
    def counts(self, counts):
        cells = getattr(counts, "cells", None) if hasattr(counts, "cell") else None
        if cells is not None and cells != self._cell_count:
            raise ValueError("a %d-cell trace cannot weigh on a tray of %d load cells; build the "
                             "trace with cells=%d" % (cells, self._cell_count, self._cell_count))
        self._counts = counts

    # ---- wiring -----------------------------------------------------------

    def bus(self, bus_id):
        """The I2C bus model the firmware's machine.I2C(bus_id) talks on."""
        return buses.bus(bus_id)

    def segment(self, place):
        """The bus a part listed at `place` ({"bus", "channel"}) hangs on."""
        if place.get("channel") is None:
            return self.bus(place["bus"])
        return self.mux.model.channels[place["channel"]]

    def line(self, pin):
        """The wire on Pico pin `pin` that expander INT outputs share."""
        wire = self._lines.get(pin)
        if wire is None:
            wire = self._lines[pin] = Line(pin)
        return wire

    def _panel(self, place):
        oled = place["oled"]
        model = SH1106() if oled.get("panel") == "sh1106" else SSD1306(oled["height"])
        return self.segment(place).attach(oled["addr"], model)

    # ---- time -------------------------------------------------------------

    def now_ms(self):
        return self.clock.now_us() // 1000

    def ticks_ms(self):
        """The time as the firmware's ticks_ms() would give it."""
        return self.clock.ticks_ms()

    def advance(self, ms):
        """Let `ms` pass (virtual clock): conversions complete, contacts move."""
        self.advance_to(self.now_ms() + ms)

    def advance_to(self, t_ms):
        if t_ms * 1000 > self.clock.now_us():
            self.clock.run_until(t_ms * 1000)
        self.update()

    def update(self):
        """Apply the button contact changes due by now (either clock)."""
        now = self.now_ms()
        for st in self.stations:
            for key in st.keys:
                key.advance(now)

    # ---- the rest of the board ----------------------------------------------

    def buzzer(self):
        """(Hz, duty 0..65535) on the buzzer pin, or None while it is silent."""
        if self.board.buzzer is None:
            return None
        return soc.soc.tone(self.board.buzzer["pin"])

    def traffic(self):
        """Every bus's recorded transactions, bus by bus: (bus id, [(addr, 'w'/'r', n)])."""
        return [(b, self.bus(b).transactions) for b in sorted(self.board.i2c)]

    def clear_traffic(self):
        """Forget the recorded transfers and panel commands (a long run would
        fill the heap), behind the mux too."""
        for b in sorted(self.board.i2c):
            self.bus(b).clear()
        if self.mux is not None:
            for channel in self.mux.model.channels:
                channel.clear()
        for panel in [st.oled for st in self.stations] + [self.display]:
            if panel is not None:
                panel.commands.clear()

    def close(self):
        """Put back the pin board that was there before."""
        if self._installed:
            self._installed = False
            self.clock.__exit__(None, None, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class AppClock:
    """What catnip.table.app.App asks of a clock, at this simulated table: its
    ticks, and asyncio sleeps in its time (devsim.timing)."""

    def __init__(self, table):
        self.table = table

    def ticks_ms(self):
        return self.table.ticks_ms()

    def sleep_ms(self, ms):
        return self.table.clock.pause_ms(ms)


class Station:
    """One player's station: `oled` (SSD1306 model), `expander` (PCF8574 or
    MCP23017 model, or None for buttons on Pico pins), `keys` (button models
    in up, down, ok, back order)."""

    def __init__(self, table, index, config):
        self.table = table
        self.index = index
        self.config = config
        self.plugged = True
        self.oled = table._panel(config)
        self.expander = None
        buttons = config["buttons"]
        seed = "station %d %s"
        if "gpio" in buttons:
            self._cable = _Cable()
            self.keys = tuple(Button(buttons["gpio"][n], on=self._cable, seed=seed % (index, n))
                              for n in BUTTONS)
        else:
            e = buttons["expander"]
            wire = table.line(e["int"]) if e["int"] is not None else None
            chip = MCP23017(inta=wire) if e["chip"] == "mcp23017" else PCF8574(wire)
            self.expander = table.segment(config).attach(e["addr"], chip)
            self.keys = tuple(Button(e["pins"][n], on=chip, seed=seed % (index, n))
                              for n in BUTTONS)

    def key(self, name):
        """The button model for "up", "down", "ok" or "back"."""
        if name not in BUTTONS:
            raise ValueError("a station has buttons %s, not %r" % (", ".join(BUTTONS), name))
        return self.keys[BUTTONS.index(name)]

    # ---- a player's hands ---------------------------------------------------

    def press(self, name, at_ms=None):
        self.key(name).press(self._when(at_ms))

    def release(self, name, at_ms=None):
        self.key(name).release(self._when(at_ms))

    def tap(self, name, at_ms=None, hold_ms=80):
        self.key(name).tap(self._when(at_ms), hold_ms)

    def _when(self, at_ms):
        return self.table.now_ms() if at_ms is None else at_ms

    # ---- the cable ----------------------------------------------------------

    def unplug(self):
        """Pull the station's cable: its panel and expander lose power, its
        buttons' wires to the Pico are cut."""
        self.plugged = False
        self.oled.unplug()
        if self.expander is not None:
            self.expander.unplug()
        else:
            self._cable.cut()

    def plug(self):
        """Plug it back: panel and expander power up from reset."""
        self.plugged = True
        self.oled.plug()
        if self.expander is not None:
            self.expander.plug()
        else:
            self._cable.join()

    # ---- its screen -----------------------------------------------------------

    def screen(self):
        """What the glass shows, as a MONO_VLSB image."""
        return self.oled.screen()

    def picture(self):
        """The screen drawn with half blocks, for a terminal or a failure message."""
        return render(self.oled.screen(), self.oled.height)

    def lines(self):
        """The text on the screen, one string per row (needs MicroPython)."""
        return glyphs.lines(self.oled.screen(), self.oled.height)

    def shows(self, text):
        """Whether `text` appears within one row of the screen's text."""
        return any(text in row for row in self.lines())


class _Cable:
    """The wires from a direct station's buttons to the Pico's pins."""

    def __init__(self):
        self.joined = True
        self.levels = {}  # pin -> what the button drives, even while cut

    def drive(self, pin, level):
        self.levels[pin] = level
        if self.joined:
            pins.board.drive(pin, level)

    def cut(self):
        self.joined = False
        for pin in sorted(self.levels):
            pins.board.drive(pin, None)

    def join(self):
        self.joined = True
        for pin in sorted(self.levels):
            pins.board.drive(pin, self.levels[pin])


class _Mux:
    """The TCA9548A model and its RESET pin. The breakout's pull-up holds
    RESET high; the Pico pulling it low resets the chip (no channel) and
    keeps it silent until released."""

    def __init__(self, config):
        self.model = TCA9548A()
        self.plugged = True
        self.held = False
        self.reset_pin = config["reset"]
        if self.reset_pin is not None:
            pins.board.drive(self.reset_pin, 1)  # the pull-up, overridden by an output
            pins.board.watch(self.reset_pin, self._on_reset)

    def _on_reset(self, pin, level, t_us):
        self.held = not level
        if self.held:
            self.model.control = 0
        self.model.present = self.plugged and not self.held

    def unplug(self):
        self.plugged = False
        self.model.unplug()

    def plug(self):
        self.plugged = True
        self.model.plug()
        self.model.present = not self.held


class _CellSource:
    """Load cell i's share of the table's `counts`."""

    def __init__(self, table, i):
        self.table = table
        self.i = i

    def __call__(self, t_us):
        counts = self.table.counts
        if hasattr(counts, "cell"):  # a trace: one source per cell
            return counts.cell(self.i).counts_at(t_us)
        if callable(counts):
            counts = counts(t_us)
        if isinstance(counts, (tuple, list)):
            return counts[self.i]
        return counts
