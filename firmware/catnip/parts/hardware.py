# The table's hardware, built from the board config (catnip.board): the I2C
# buses, the TCA9548A if there is one, a Screen and a button source per
# station, the tray's load cells, the buzzer and the table display. Nothing
# here knows a layout by name: every part comes from what the config lists.
#
# One event stream. The button poller's queue carries everything: button
# events, and OFFLINE/ONLINE reports from each station's two parts (the
# buttons report as part 0, the screen as part SCREEN). next()/get() fold
# the parts into one station (catnip.parts.health): it is online while both
# answer, so the application sees one OFFLINE when either part goes and one
# ONLINE when both are back, and no button event from a station that is
# not online. The table display (TABLE) and the tray (TRAY) report
# OFFLINE/ONLINE in the same stream.
#
# Buttons arrive as UP, DOWN, OK, BACK whichever pins they are wired to.
import asyncio

from machine import I2C, PWM, Pin

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from catnip.layout import BUTTONS, BoardError
from catnip.drivers.buttons import Buttons, ExpanderSource, GpioSource
from catnip.parts.health import StationEvents
# Button numbers and the table's and the tray's station numbers, as events carry them.
from catnip.keys import BACK, DOWN, OK, OFFLINE, ONLINE, TABLE, TRAY, UP  # noqa: F401
from catnip.drivers.ssd1306 import Canvas
from catnip.parts.screen import SCREEN, Screen
REPEATING = ("up", "down")  # held, they repeat (list navigation); ok and back give LONG

BUZZER_HZ = const(2000)



class Channel:
    """One channel of a TCA9548A, used like an I2C bus: every transfer first
    selects the channel (a no-op when it already is) in the same call, so no
    task can switch the mux in between. A failed transfer makes the mux
    forget its channel: the failure may have been the mux losing power."""

    def __init__(self, i2c, mux, channel):
        self.i2c = i2c
        self.mux = mux
        self.channel = channel

    def writeto(self, addr, buf, stop=True):
        self.mux.select(self.channel)
        try:
            return self.i2c.writeto(addr, buf, stop)
        except OSError:
            self.mux.invalidate()
            raise

    def readfrom_into(self, addr, buf, stop=True):
        self.mux.select(self.channel)
        try:
            self.i2c.readfrom_into(addr, buf, stop)
        except OSError:
            self.mux.invalidate()
            raise

    def writeto_mem(self, addr, memaddr, buf):
        self.mux.select(self.channel)
        try:
            self.i2c.writeto_mem(addr, memaddr, buf)
        except OSError:
            self.mux.invalidate()
            raise

    def readfrom_mem_into(self, addr, memaddr, buf):
        self.mux.select(self.channel)
        try:
            self.i2c.readfrom_mem_into(addr, memaddr, buf)
        except OSError:
            self.mux.invalidate()
            raise


class Hardware:
    """Every driver a `players`-player game needs on `board` (a validated
    catnip.board.Board). `clock` goes to the load-cell driver (tests pass a
    virtual one); the other keyword arguments to the button poller.

    screens[k] and table (or None) are the Screens; draw on `canvas` (one
    for them all), hand it to a screen with take(canvas); flush(now) sends
    them, poll(now) reads the buttons (or start both with run()), next() and
    get() give the events. Building sends nothing on the I2C buses."""

    def __init__(self, board, players, clock=None, **timing):
        stations = board.stations_for(players)
        self.players = players
        self._buses = [None, None]
        self._board = board
        self.board = board  # its name and layout, for whoever asks (the serial line)
        self.mux = None
        self.mux_reset = None
        if board.mux is not None:
            from catnip.drivers.tca9548a import TCA9548A

            if board.mux["reset"] is not None:  # active low: hold it high
                self.mux_reset = Pin(board.mux["reset"], Pin.OUT, value=1)
            self.mux = TCA9548A(self._bus(board.mux["bus"]), board.mux["addr"])
        self.buttons = Buttons(irq=_interrupt(stations), **timing)
        queue = self.buttons.queue
        retry_ms = self.buttons.retry_ms
        self.canvas = Canvas()
        self.screens = []
        self._keys = []  # per station: source bit -> button number
        keymaps = {}  # stations wired alike share one table
        for k in range(players):
            port = self._port(stations[k])
            self.screens.append(Screen(port, stations[k]["oled"], queue, k, retry_ms))
            source, bits = _source(stations[k]["buttons"], port)
            if bits not in keymaps:
                keymaps[bits] = _keymap(bits)
            keys, repeat = keymaps[bits]
            self._keys.append(keys)
            self.buttons.add(source, repeat, max(bits) + 1)
        self.health = StationEvents(players, SCREEN + 1)  # part 0: the buttons
        self.table = None
        if board.table is not None:
            self.table = Screen(self._port(board.table), board.table["oled"], queue, TABLE,
                                retry_ms)
        self._cells = None  # the tray's load cells, built at first use (the tray property)
        self._clock = clock
        self.tray_fault = None  # the SensorFault being reported, None while the cells answer
        self.buzzer = None
        if board.buzzer is not None:
            self.buzzer = PWM(Pin(board.buzzer["pin"]), freq=BUZZER_HZ, duty_u16=0)

    @property
    def tray(self):
        """The tray's load cells (catnip.drivers.hx711.HX711Group), or None on a
        board without a tray. Built when first asked for: until a game weighs,
        the driver's code takes no heap."""
        if self._cells is None and self._board.tray is not None:
            self._cells = _tray(self._board.tray, self._clock)
        return self._cells

    def sleep_tray(self):
        """Power the tray's cells down (PD_SCK held high), through the driver
        once it is built, else by the clock pin alone: a tray with nothing to
        weigh for loads no driver code (heap, where code is imported from
        files) until a game or a calibration asks for the cells, and the
        driver starts the chips afresh when it is built."""
        if self._cells is not None:
            self._cells.power_down()
        elif self._board.tray is not None:
            Pin(self._board.tray["cells"][0]["sck"], Pin.OUT, value=1)

    def _bus(self, bus_id):
        if self._buses[bus_id] is None:
            b = self._board.i2c[bus_id]
            self._buses[bus_id] = I2C(bus_id, scl=Pin(b["scl"]), sda=Pin(b["sda"]),
                                      freq=b["freq"])
        return self._buses[bus_id]

    def clocks(self):
        """The table's clocks, the one with a battery first: a DS3231 if the
        board has one, then the RP2040's (catnip.drivers.chip_rtc: it keeps
        the time through a soft reset). Built when asked, not kept: the wall
        reads them at power-up and sets them when a laptop sends its time,
        and their code leaves the heap in between."""
        found = []
        if self._board.rtc is not None:
            from catnip.drivers.ds3231 import DS3231

            found.append(DS3231(self._port(self._board.rtc)))
        from catnip.drivers.chip_rtc import ChipRTC

        found.append(ChipRTC())
        return found

    def _port(self, place):
        """What a part talks through: its bus, or its channel of the mux."""
        bus = self._bus(place["bus"])
        if place.get("channel") is None:
            return bus
        return Channel(bus, self.mux, place["channel"])

    # ---- running --------------------------------------------------------

    def poll(self, now):
        """Read the buttons at `now` (ms ticks)."""
        self.buttons.poll(now)

    def flush(self, now):
        """Send every screen's changes at `now` (ms ticks); retry and probe the
        panels. Never raises OSError; allocates nothing."""
        for screen in self.screens:
            screen.flush(now)
        if self.table is not None:
            self.table.flush(now)
        if self.buttons.queue.count:
            self.buttons.ready.set()

    async def run(self, frame_ms=40):
        """Poll the buttons (their own task) and flush the screens every
        frame_ms, for ever."""
        from time import ticks_ms

        asyncio.create_task(self.buttons.run())
        while True:
            self.flush(ticks_ms())
            await asyncio.sleep_ms(frame_ms)

    async def weigh(self, on_counts, on_fault=None):
        """Read the tray for the whole session: on_counts(counts) after every
        settled reading. Cells that stop answering give one (TRAY, OFFLINE, 0)
        event, on_fault(error) if given, and `tray_fault` (a SensorFault:
        which cells, and why) until the next reading, which gives
        (TRAY, ONLINE, 0). catnip.tray.TrayFeed takes both callbacks."""
        if self.tray is None:
            raise ValueError("board '%s' has no tray: add \"tray\" to board.json to weigh"
                             % self._board.name)

        def counts(values):
            if self.tray_fault is not None:
                self.tray_fault = None
                self._push(TRAY, ONLINE)
            on_counts(values)

        def fault(error):
            self.tray_fault = error
            self._push(TRAY, OFFLINE)
            if on_fault is not None:
                on_fault(error)

        await self.tray.run(counts, fault)

    def _push(self, station, kind):
        self.buttons.queue.push(station << 8 | kind << 4)
        self.buttons.ready.set()

    # ---- events ---------------------------------------------------------

    def next(self):
        """The oldest event as (station, kind, button), or None. Kinds are
        catnip.drivers.debounce's; OFFLINE and ONLINE have button 0."""
        code = self.health.take(self.buttons.queue)
        if code < 0:
            return None
        station, kind, low = code >> 8, code >> 4 & 15, code & 15
        if station < self.players:
            low = self._keys[station][low]
        return station, kind, low

    async def get(self):
        """Wait for the next event."""
        while True:
            event = self.next()
            if event is not None:
                return event
            self.buttons.ready.clear()
            await self.buttons.ready.wait()

    def online(self, k):
        """Whether station k is online, as of the events taken so far."""
        return self.health.online(k)

    def answering(self):
        """The stations that answer (or have not yet said they do not)."""
        return [k for k in range(len(self.screens)) if self.online(k) is not False]

    def missing(self, k):
        """Station k's parts that do not answer: bit 0 the buttons, bit
        SCREEN the screen (as of the events taken so far)."""
        return self.health.missing(k)


def _interrupt(stations):
    """The one shared expander INT line, as an input Pin, or None."""
    pins = []
    for st in stations:
        e = st["buttons"].get("expander")
        if e is not None and e["int"] is not None and e["int"] not in pins:
            pins.append(e["int"])
    if len(pins) > 1:
        raise BoardError(["expander INT pins %s: catnip reads one shared interrupt line; wire "
                          "every expander's INT to one pin (they are open drain)"
                          % ", ".join("GP%d" % p for p in sorted(pins))])
    return Pin(pins[0], Pin.IN, Pin.PULL_UP) if pins else None


def _source(buttons, port):
    """A station's button source and, per button in BUTTONS order, its bit."""
    if "gpio" in buttons:
        return GpioSource([buttons["gpio"][n] for n in BUTTONS]), tuple(range(len(BUTTONS)))
    e = buttons["expander"]
    if e["chip"] == "mcp23017":
        from catnip.drivers.mcp23017 import MCP23017 as chip
    else:
        from catnip.drivers.pcf8574 import PCF8574 as chip
    bits = tuple(e["pins"][n] for n in BUTTONS)
    mask = 0
    for b in bits:
        mask |= 1 << b
    return ExpanderSource(chip(port, e["addr"]), mask, irq=e["int"] is not None), bits


def _keymap(bits):
    """From each button's source bit (in BUTTONS order): the table from
    source bit to button number, and the mask of source bits that repeat."""
    keys = bytearray(16)
    repeat = 0
    for n in range(len(BUTTONS)):
        keys[bits[n]] = n
        if BUTTONS[n] in REPEATING:
            repeat |= 1 << bits[n]
    return keys, repeat


def _tray(tray, clock):
    if tray is None:
        return None
    from catnip.drivers.hx711 import HX711Group

    cells = tray["cells"]  # board.py checked that they share one clock pin
    return HX711Group(cells[0]["sck"], [c["dout"] for c in cells], rate=tray["rate"],
                      clock=clock)
