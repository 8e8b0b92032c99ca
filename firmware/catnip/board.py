# The table's wiring, read from a JSON file on the device (board.json), and
# checked against what the RP2040 and the parts allow before any pin moves.
#
# PURE: runs on the Pico and on the laptop (which draws the wiring tables in
# docs/hardware.md from the same files). The shipped layouts are in
# firmware/boards/. Every problem in a file is reported at once, each naming
# where it is and what to do about it. The checks every part shares (its
# pins, its I2C address, a problem noted) are catnip.board_check.
import json

from catnip.layout import BUTTONS, MAX_STATIONS, Board, BoardError, is_int as _is_int  # noqa: F401
from catnip.board_check import GPIO_COUNT, NOT_ON_HEADER, Check  # noqa: F401
from catnip.rules.vet import describe

# RP2040 datasheet 1.4.3 (GPIO function table): the pins each I2C block can
# use. The RP2350 gives GP0-GP29 the same I2C pins (pico-sdk 2.2.0's rp2040
# and rp2350 hardware/regs/io_bank0.h, FUNCSEL values I2C0/I2C1).
I2C_SDA = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))
I2C_SCL = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))


OLED_ADDRS = (0x3C, 0x3D)  # the SA0 pin picks one, on the SSD1306 and the SH1106 alike
# The controllers catnip drives: the 0.96 in (or 0.91 in, 32-row) SSD1306 and
# the 1.3 in SH1106 (catnip.drivers), with the rows their modules come in.
PANELS = {"ssd1306": (64, 32), "sh1106": (64,)}
EXPANDERS = {  # chip: (first address, last address, I/O pins)
    "pcf8574": (0x20, 0x27, 8),
    "pcf8574a": (0x38, 0x3F, 8),
    "mcp23017": (0x20, 0x27, 16),
}
MUX_ADDRS = (0x70, 0x77)  # TCA9548A, A0-A2
MUX_CHANNELS = 8
TRAY_CELLS = (1, 4)  # one load cell, or one per corner
TRAY_RATES = (10, 80)  # HX711 readings a second, by its RATE pin
MIN_I2C_HZ = 10000
MAX_I2C_HZ = 400000  # the SSD1306's fastest I2C clock (datasheet 13, tcycle 2.5 µs)
PULLUP_OHMS = (1000, 100000)  # a pull-up a maker could fit on SDA/SCL to 3V3
RATED_HZ = (100000, 400000)  # I2C Standard-mode and Fast-mode parts
RTC_ADDR = 0x68  # the DS3231's one address

MAX_NAME = 32
_TOP_KEYS = ("name", "about", "i2c", "mux", "stations", "tray", "buzzer", "table", "rtc")


def load(path="board.json"):
    """Read and validate a board file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError:
        raise BoardError(["cannot read %s; copy one of firmware/boards/*.json to the device "
                          "as %s" % (path, path)])
    except ValueError as e:
        raise BoardError(["%s is not valid JSON (%s)" % (path, e)])
    except (RuntimeError, MemoryError):  # RecursionError on CPython; too big for the heap
        raise BoardError(["%s: too large or nested too deeply to be a board file; start from "
                          "one of firmware/boards/*.json" % path])
    return parse(data)


def parse(data):
    """Validate a board config (the parsed JSON) and return a Board, or raise
    BoardError listing every problem."""
    c = Check()
    if not isinstance(data, dict):
        raise BoardError(["board: a board config is a JSON object, not %s" % describe(data)])
    c.known(data, _TOP_KEYS, "board")
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        c.fail("name: give the board a name of up to %d characters, e.g. \"direct\"" % MAX_NAME)
    about = data.get("about", "")
    if not isinstance(about, str):
        c.fail("about: a line of text saying what the board is, not %s" % describe(about))
    i2c = _buses(c, data.get("i2c"))
    mux = _mux(c, data.get("mux"), i2c)
    stations = _stations(c, data.get("stations"), i2c, mux)
    table = None
    if data.get("table") is not None:
        table = _place(c, data["table"], "table", i2c, mux, ("bus", "channel", "oled"))
        table["oled"] = _oled(c, _get(data["table"], "oled"), "table.oled")
        c.device(table["bus"], table["channel"], table["oled"]["addr"], "table.oled")
    tray = _tray(c, data.get("tray"))
    buzzer = None
    if data.get("buzzer") is not None:
        b = data["buzzer"]
        c.known(b, ("pin",), "buzzer")
        buzzer = {"pin": c.pin(_get(b, "pin"), "buzzer.pin")}
    rtc = None
    if data.get("rtc") is not None:  # a DS3231 clock module, so games carry their date
        rtc = _place(c, data["rtc"], "rtc", i2c, mux, ("bus", "channel", "pullup_ohm"))
        rtc = _pullup(c, data["rtc"], "rtc", rtc)
        c.device(rtc["bus"], rtc["channel"], RTC_ADDR, "rtc")
    c.shared_pins()
    c.addresses(mux)
    if c.problems:
        raise BoardError(c.problems)
    return Board(name, about, i2c, mux, stations, tray, buzzer, table, rtc)


def _get(d, key):
    return d.get(key) if isinstance(d, dict) else None


def _buses(c, value):
    buses = {}
    if not isinstance(value, list) or not value:
        c.fail("i2c: list the I2C buses, e.g. [{\"id\": 0, \"sda\": 0, \"scl\": 1}]")
        return buses
    for i, b in enumerate(value):
        where = "i2c[%d]" % i
        c.known(b, ("id", "sda", "scl", "freq", "pullup_ohm"), where)
        bus_id = _get(b, "id")
        if not _is_int(bus_id) or bus_id not in (0, 1):
            c.fail("%s.id: the Pico has I2C buses 0 and 1, not %s" % (where, describe(bus_id)))
            continue
        if bus_id in buses:
            c.fail("%s: bus %d is listed twice" % (where, bus_id))
            continue
        sda = c.pin(_get(b, "sda"), where + ".sda")
        scl = c.pin(_get(b, "scl"), where + ".scl")
        if sda is not None and sda not in I2C_SDA[bus_id]:
            c.fail("%s.sda: GP%d cannot carry I2C%d SDA; use one of %s"
                   % (where, sda, bus_id, _gps(I2C_SDA[bus_id])))
        if scl is not None and scl not in I2C_SCL[bus_id]:
            c.fail("%s.scl: GP%d cannot carry I2C%d SCL; use one of %s"
                   % (where, scl, bus_id, _gps(I2C_SCL[bus_id])))
        freq = b.get("freq", MAX_I2C_HZ) if isinstance(b, dict) else MAX_I2C_HZ
        if not _is_int(freq) or not MIN_I2C_HZ <= freq <= MAX_I2C_HZ:
            c.fail("%s.freq: %s Hz is outside %d-%d Hz (the SSD1306 tops out at 400 kHz)"
                   % (where, describe(freq), MIN_I2C_HZ, MAX_I2C_HZ))
        buses[bus_id] = _pullup(c, b, where, {"sda": sda, "scl": scl, "freq": freq})
    return buses


def _pullup(c, value, where, out):
    """`out` with the part's stated "pullup_ohm" (a resistor from SDA and
    from SCL to 3V3; null: none fitted), if the file states one. Unstated,
    the electrical check assumes a typical module's."""
    if not isinstance(value, dict) or "pullup_ohm" not in value:
        return out
    ohm = value["pullup_ohm"]
    if ohm is not None and (not _is_int(ohm) or not PULLUP_OHMS[0] <= ohm <= PULLUP_OHMS[1]):
        c.fail("%s.pullup_ohm: the pull-up on SDA and SCL in ohms (%d-%d), or null for none, "
               "not %s" % (where, PULLUP_OHMS[0], PULLUP_OHMS[1], describe(ohm)))
    out["pullup_ohm"] = ohm
    return out


def _rated(c, value, where, out):
    """`out` with the chip's stated I2C rating ("max_hz"), if the file states one."""
    if isinstance(value, dict) and "max_hz" in value:
        if value["max_hz"] not in RATED_HZ or not _is_int(value["max_hz"]):
            c.fail("%s.max_hz: the bus speed the chip is rated for, 100000 (Standard-mode) or "
                   "400000 (Fast-mode), not %s" % (where, describe(value["max_hz"])))
        out["max_hz"] = value["max_hz"]
    return out


def _gps(pins):
    return ", ".join("GP%d" % p for p in pins)


def _mux(c, value, buses):
    if value is None:
        return None
    c.known(value, ("bus", "addr", "reset", "pullup_ohm"), "mux")
    bus = _bus_ref(c, _get(value, "bus"), "mux.bus", buses)
    addr = c.address(_get(value, "addr"), "mux.addr", MUX_ADDRS[0], MUX_ADDRS[1])
    c.device(bus, None, addr, "mux")
    reset = None
    if _get(value, "reset") is not None:
        reset = c.pin(value["reset"], "mux.reset")
    return _pullup(c, value, "mux", {"bus": bus, "addr": addr, "reset": reset})


def _bus_ref(c, value, where, buses):
    if not _is_int(value) or value not in buses:
        c.fail("%s: there is no I2C bus %s in \"i2c\" (listed: %s)"
               % (where, describe(value), ", ".join(str(b) for b in sorted(buses)) or "none"))
        return None
    return value


def _place(c, value, where, buses, mux, keys):
    """The bus and mux channel a station (or the table display) hangs on."""
    c.known(value, keys, where)
    bus = _bus_ref(c, _get(value, "bus"), where + ".bus", buses)
    channel = _get(value, "channel")
    if channel is not None:
        # With the channel wrong, where its parts sit is unknown: leave them
        # out of the address check (bus None) rather than report knock-on clashes.
        if mux is None:
            c.fail("%s.channel: there is no \"mux\" on this board; drop the channel or add "
                   "the TCA9548A" % where)
            bus = None
        elif not _is_int(channel) or not 0 <= channel < MUX_CHANNELS:
            c.fail("%s.channel: a TCA9548A has channels 0-7, not %s" % (where, describe(channel)))
            bus = None
        elif bus is not None and bus != mux["bus"]:
            c.fail("%s.channel: the mux is on bus %s, not bus %s" % (where, mux["bus"], bus))
            bus = None
    return {"bus": bus, "channel": channel}


def _oled(c, value, where):
    c.known(value, ("addr", "panel", "height", "flip", "pullup_ohm"), where)
    addr = c.address(_get(value, "addr"), where + ".addr", OLED_ADDRS[0], OLED_ADDRS[1])
    panel = value.get("panel", "ssd1306") if isinstance(value, dict) else "ssd1306"
    if not isinstance(panel, str) or panel not in PANELS:
        c.fail("%s.panel: catnip drives \"ssd1306\" (the 0.96 in module) or \"sh1106\" (the "
               "1.3 in one), not %s" % (where, describe(panel)))
        panel = None
    rows = PANELS.get(panel, (64, 32))
    height = value.get("height", 64) if isinstance(value, dict) else 64
    if not _is_int(height) or height not in rows:
        c.fail("%s.height: an %s panel is %s rows, not %s" % (
            where, (panel or "OLED").upper(), " or ".join(str(r) for r in rows), describe(height)))
    flip = value.get("flip", False) if isinstance(value, dict) else False
    if not isinstance(flip, bool):
        c.fail("%s.flip: true or false, not %s" % (where, describe(flip)))
    return _pullup(c, value, where, {"addr": addr, "panel": panel, "height": height, "flip": flip})


def _stations(c, value, buses, mux):
    stations = []
    if not isinstance(value, list) or not value:
        c.fail("stations: list at least one station")
        return stations
    if len(value) > MAX_STATIONS:
        c.fail("stations: %d listed, but games take at most 7 players and a TCA9548A has 8 "
               "channels; list up to %d" % (len(value), MAX_STATIONS))
    for i, s in enumerate(value):
        where = "stations[%d]" % i
        station = _place(c, s, where, buses, mux, ("bus", "channel", "oled", "buttons"))
        station["oled"] = _oled(c, _get(s, "oled"), where + ".oled")
        c.device(station["bus"], station["channel"], station["oled"]["addr"], where + ".oled")
        station["buttons"] = _buttons(c, _get(s, "buttons"), where + ".buttons", station)
        stations.append(station)
    return stations


def _buttons(c, value, where, station):
    c.known(value, ("gpio", "expander"), where)
    if not isinstance(value, dict) or len(value) != 1 or not ("gpio" in value or "expander" in value):
        c.fail("%s: give exactly one of \"gpio\" (a pin per button) or \"expander\"" % where)
        return None
    if "gpio" in value:
        names = _button_names(c, value["gpio"], where + ".gpio")
        return {"gpio": dict((n, c.pin(value["gpio"][n], "%s.gpio.%s" % (where, n)))
                             for n in names)}
    e = value["expander"]
    w = where + ".expander"
    c.known(e, ("chip", "addr", "pins", "int", "pullup_ohm", "max_hz"), w)
    chip = _get(e, "chip")
    if not isinstance(chip, str) or chip not in EXPANDERS:
        c.fail("%s.chip: %s is not a supported expander (%s)"
               % (w, describe(chip), ", ".join(sorted(EXPANDERS))))
        return None
    low, high, io = EXPANDERS[chip]
    addr = c.address(_get(e, "addr"), w + ".addr", low, high)
    c.device(station["bus"], station["channel"], addr, w)
    pins = {}
    names = _button_names(c, _get(e, "pins"), w + ".pins")
    for n in names:
        p = e["pins"][n]
        if not _is_int(p) or not 0 <= p < io:
            c.fail("%s.pins.%s: a %s has pins 0-%d, not %s" % (w, n, chip, io - 1, describe(p)))
        elif p in pins.values():
            c.fail("%s.pins.%s: expander pin %d is already a button" % (w, n, p))
        else:
            pins[n] = p
    interrupt = None
    if e.get("int") is not None:
        # Expander INT outputs are open drain: several may share one pin.
        interrupt = c.pin(e["int"], w + ".int", share="expander interrupt")
    out = {"chip": chip, "addr": addr, "pins": pins, "int": interrupt}
    return {"expander": _rated(c, e, w, _pullup(c, e, w, out))}


def _button_names(c, value, where):
    if not isinstance(value, dict):
        c.fail("%s: map each button (%s) to a pin" % (where, ", ".join(BUTTONS)))
        return []
    missing = [b for b in BUTTONS if b not in value]
    extra = [b for b in value if b not in BUTTONS]
    if missing:
        c.fail("%s: no pin for %s; every station has %s" % (where, ", ".join(missing),
                                                             ", ".join(BUTTONS)))
    if extra:
        c.fail("%s: unknown button %s; the buttons are %s" % (where, ", ".join(extra),
                                                               ", ".join(BUTTONS)))
    return [b for b in BUTTONS if b in value]


def _tray(c, value):
    if value is None:
        return None
    c.known(value, ("cells", "rate"), "tray")
    rate = value.get("rate", 10) if isinstance(value, dict) else 10
    if not _is_int(rate) or rate not in TRAY_RATES:
        c.fail("tray.rate: 10 or 80 readings a second, as the HX711 RATE pins are wired "
               "(low: 10, high: 80), not %s" % describe(rate))
    cells = _get(value, "cells")
    if not isinstance(cells, list) or len(cells) not in TRAY_CELLS:
        c.fail("tray.cells: list one HX711 (a single load cell) or four (one per corner), "
               "each {\"dout\": pin, \"sck\": pin}")
        return None
    out = []
    for i, cell in enumerate(cells):
        w = "tray.cells[%d]" % i
        c.known(cell, ("dout", "sck"), w)
        # HX711s may share one SCK and be read in step; each needs its own DOUT.
        out.append({"dout": c.pin(_get(cell, "dout"), w + ".dout"),
                    "sck": c.pin(_get(cell, "sck"), w + ".sck", share="HX711 clock")})
    clocks = sorted(set(cell["sck"] for cell in out if _is_int(cell["sck"])))
    if len(clocks) > 1:
        c.fail("tray.cells: the load cells are read in one pass and must share one PD_SCK "
               "pin, not %s; wire every HX711's SCK to GP%d" % (_gps(clocks), clocks[0]))
    return {"cells": out, "rate": rate}
