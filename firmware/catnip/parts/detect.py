# A first power-up with no board.json: which shipped layout is wired?
#
# The shipped boards (firmware/boards/, made into catnip/shipped.py by each
# build) are matched against what answers on their buses: a TCA9548A at
# 0x70 on I2C0 means the mux layout, whose stations are its channels from
# the first on (a screen at 0x3C and a PCF8574 at 0x20 on each) and whose
# table display answers at 0x3D before the mux; otherwise the direct layout,
# whose stations are the panels at 0x3C/0x3D on I2C0 then I2C1 (its buttons
# are plain GPIO, which nothing can tell apart from pins left open). Two
# stations or more from the first on make a match. boot shows the match on
# the stations and writes board.json only once a person confirms.
import json

from machine import I2C, Pin

from catnip.shipped import BOARDS  # ImportError in a tree run as source: boot says so

MUX = 0x70
FEWEST = 2  # stations: the fewest any game seats


def survey():
    """(board dict or None, found, missing): the shipped layout cut to the
    stations that answer, what answered and what did not, in words."""
    found, missing = [], []
    i2c0 = _bus(0, 0, 1)
    seen = _scan(i2c0)
    if MUX in seen:
        board = json.loads(BOARDS["mux"])
        found.append("a TCA9548A mux at 0x70 on I2C0 (GP0/GP1)")
        stations = _mux_stations(i2c0, board["stations"], found, missing)
        _table(i2c0, board, found, missing)
    else:
        board = json.loads(BOARDS["direct"])
        buses = {0: seen, 1: _scan(_bus(1, 2, 3))}
        stations = _direct_stations(board["stations"], buses, found, missing)
    if len(stations) < FEWEST:
        if not found:
            missing.insert(0, "nothing answers on I2C0 (GP0/GP1) or I2C1 (GP2/GP3)")
        missing.append("the %s layout needs at least %d stations" % (board["name"], FEWEST))
        return None, found, missing
    board["stations"] = stations
    return board, found, missing


def _bus(bus_id, sda, scl):
    try:
        return I2C(bus_id, sda=Pin(sda), scl=Pin(scl), freq=100000)
    except (OSError, ValueError):
        return None


def _scan(i2c):
    if i2c is None:
        return []
    try:
        return i2c.scan()
    except OSError:
        return []


def _addr(text):
    return int(text, 16) if isinstance(text, str) else text


def _mux_stations(i2c, stations, found, missing):
    out = []
    for k, st in enumerate(stations):
        i2c.writeto(MUX, bytes((1 << st["channel"],)))
        seen = _scan(i2c)
        oled, buttons = _addr(st["oled"]["addr"]), _addr(st["buttons"]["expander"]["addr"])
        where = "station %d (mux channel %d)" % (k + 1, st["channel"])
        if oled in seen and buttons in seen:
            out.append(st)
            continue
        if oled in seen or buttons in seen:
            missing.append("%s: %s answers, %s does not" % (
                where, "its screen (0x%02X)" % oled if oled in seen else
                "its buttons' PCF8574 (0x%02X)" % buttons,
                "its buttons' PCF8574 (0x%02X)" % buttons if oled in seen else
                "its screen (0x%02X)" % oled))
        break
    i2c.writeto(MUX, b"\x00")
    if out:
        found.append("%d station%s on mux channels 0-%d, each a screen and buttons"
                     % (len(out), "" if len(out) == 1 else "s", len(out) - 1))
    return out


def _table(i2c, board, found, missing):
    table = board.get("table")
    if table is None:
        return
    addr = _addr(table["oled"]["addr"])
    if addr in _scan(i2c):
        found.append("the table display at 0x%02X" % addr)
    else:
        missing.append("no table display at 0x%02X: the board is written without one" % addr)
        board["table"] = None


def _direct_stations(stations, buses, found, missing):
    out = []
    for k, st in enumerate(stations):
        addr = _addr(st["oled"]["addr"])
        if addr not in buses[st["bus"]]:
            if k:
                missing.append("station %d: no screen at 0x%02X on I2C%d"
                               % (k + 1, addr, st["bus"]))
            break
        out.append(st)
    if out:
        found.append("%d screen%s at 0x3C/0x3D on I2C0 and I2C1 (the direct layout; its "
                     "GPIO buttons cannot be checked)" % (len(out), "" if len(out) == 1 else "s"))
    elif any(buses.values()):
        found.append("I2C devices at %s" % ", ".join(
            "0x%02X on I2C%d" % (a, b) for b in buses for a in buses[b]))
        missing.append("station 1: no screen at 0x3C on I2C0 and no TCA9548A at 0x70")
    return out
