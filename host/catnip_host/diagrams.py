"""Wiring diagrams (SVG) drawn with schemdraw from a board file.

The Pico sits on the left with the pins the board uses; every other part is a block in one
column on the right. Each signal gets its own vertical track between them, so a wire can be
followed from a Pico pin to a part pin without guessing; a dot marks where a wire branches.
Power is drawn the way schematics do it, a 3V3 arrow and a ground symbol at each part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import schemdraw
import schemdraw.elements as elm

from catnip import board

from catnip_host import cables, check_board

PITCH = 0.6  # between pins
TRACK = 0.45  # between tracks
GAP = 1.2  # between blocks
CHAR_W = 0.17  # of a 10 pt title, in drawing units: blocks are as wide as their titles
# The Pico's header: GPIO number -> physical pin (Raspberry Pi Pico datasheet, pinout).
HEADER_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
              12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
              22: 29, 26: 31, 27: 32, 28: 34}


@dataclass
class Block:
    key: str
    title: str
    pins: list[str]  # top to bottom
    supply: bool = True  # draw a 3V3 symbol at its right edge
    ground: bool = True  # and a GND symbol (with supply)
    switch: bool = False  # a push button to ground instead of a box


@dataclass
class Net:
    ends: list[tuple[str, str]] = field(default_factory=list)  # (block key, pin); "pico" first


def _parts(b: board.Board) -> tuple[list[Block], dict[str, Net]]:
    """The blocks on the right and every signal net, from the board."""
    blocks: list[Block] = []
    nets: dict[str, Net] = {}

    def connect(net: str, key: str, pin: str) -> None:
        nets.setdefault(net, Net()).ends.append((key, pin))

    for bus_id, bus in sorted(b.i2c.items()):
        connect(f"SDA{bus_id}", "pico", f"GP{bus['sda']}")
        connect(f"SCL{bus_id}", "pico", f"GP{bus['scl']}")
    for bus_id, bus in sorted(b.i2c.items()):
        if bus.get("pullup_ohm"):  # fitted at the Pico, from SDA and SCL to 3V3
            blocks.append(Block(f"pu{bus_id}", f"I2C{bus_id} pull-ups: 2 x "
                                f"{check_board._ohm(bus['pullup_ohm'])} to 3V3", ["SDA", "SCL"],
                                ground=False))
            connect(f"SDA{bus_id}", f"pu{bus_id}", "SDA")
            connect(f"SCL{bus_id}", f"pu{bus_id}", "SCL")
    if b.mux:
        m = b.mux
        pins = ["SDA", "SCL"] + (["RST"] if m["reset"] is not None else [])
        channels = sorted({p["channel"] for p in _places(b) if p["channel"] is not None})
        for ch in channels:
            pins += [f"SD{ch}", f"SC{ch}"]
        blocks.append(Block("mux", f"TCA9548A at 0x{m['addr']:02X}", pins))
        connect(f"SDA{m['bus']}", "mux", "SDA")
        connect(f"SCL{m['bus']}", "mux", "SCL")
        if m["reset"] is not None:
            connect("RST", "pico", f"GP{m['reset']}")
            connect("RST", "mux", "RST")
        for ch in channels:
            connect(f"SD{ch}", "mux", f"SD{ch}")
            connect(f"SC{ch}", "mux", f"SC{ch}")
    places = [(f"station {k}", f"s{k}", s) for k, s in enumerate(b.stations, 1)]
    if b.table:
        places.append(("table display", "table", b.table))
    for name, key, place in places:
        sda = f"SDA{place['bus']}" if place["channel"] is None else f"SD{place['channel']}"
        scl = f"SCL{place['bus']}" if place["channel"] is None else f"SC{place['channel']}"
        pins = ["SDA", "SCL"]
        parts = [f"{place['oled']['panel'].upper()} 0x{place['oled']['addr']:02X}"]
        connect(sda, key, "SDA")
        connect(scl, key, "SCL")
        buttons = place.get("buttons") or {}
        if "gpio" in buttons:
            for button in board.BUTTONS:
                pins.append(button.upper())
                connect(f"GP{buttons['gpio'][button]}", "pico", f"GP{buttons['gpio'][button]}")
                connect(f"GP{buttons['gpio'][button]}", key, button.upper())
            parts.append("buttons to GND")
        elif "expander" in buttons:
            e = buttons["expander"]
            parts.append(f"{e['chip'].upper()} 0x{e['addr']:02X}")
            if e["int"] is not None:
                pins.append("INT")
                connect(f"INT{e['int']}", "pico", f"GP{e['int']}")
                connect(f"INT{e['int']}", key, "INT")
        where = "" if place["channel"] is None else f", mux ch {place['channel']}"
        blocks.append(Block(key, f"{name}: {' + '.join(parts)}{where}", pins))
    # The clock: as board.json places it, or where hardware/README.md says to add one (bus 0,
    # upstream of any mux).
    rtc = b.rtc or {"bus": 0, "channel": None}
    blocks.append(Block("rtc", f"DS3231 clock at 0x{board.RTC_ADDR:02X} + CR2032 cell"
                        + ("" if b.rtc else " (optional)"), ["SDA", "SCL"]))
    connect(f"SDA{rtc['bus']}" if rtc["channel"] is None else f"SD{rtc['channel']}", "rtc", "SDA")
    connect(f"SCL{rtc['bus']}" if rtc["channel"] is None else f"SC{rtc['channel']}", "rtc", "SCL")
    if b.tray:
        for i, cell in enumerate(b.tray["cells"], 1):
            blocks.append(Block(f"hx{i}", f"HX711 {i} (load cell {i})", ["DT", "SCK"]))
            connect(f"DT{i}", "pico", f"GP{cell['dout']}")
            connect(f"DT{i}", f"hx{i}", "DT")
            connect(f"SCK{cell['sck']}", "pico", f"GP{cell['sck']}")
            connect(f"SCK{cell['sck']}", f"hx{i}", "SCK")
    if b.buzzer:
        blocks.append(Block("buzzer", "piezo buzzer (- to GND)", ["+"], supply=False))
        connect("BUZ", "pico", f"GP{b.buzzer['pin']}")
        connect("BUZ", "buzzer", "+")
    for net in nets.values():  # one Pico pin per net, listed once
        pico = list(dict.fromkeys(e for e in net.ends if e[0] == "pico"))
        net.ends = pico + [e for e in net.ends if e[0] != "pico"]
    return blocks, nets


def _places(b: board.Board) -> list[dict]:
    return list(b.stations) + [p for p in (b.table, b.rtc) if p]


def _ic(pins: list[str], height: float, width: float) -> elm.Ic:
    # schemdraw stacks a side's pins from the bottom up; ours are listed top down.
    return elm.Ic(pins=[elm.IcPin(name=p, side="left", anchorname=f"p{i}")
                        for i, p in reversed(list(enumerate(pins)))],
                  size=(width, height), pinspacing=PITCH, edgepadH=PITCH / 2, leadlen=0.3,
                  lsize=9)


Where = dict[tuple[str, str], tuple[float, float]]


def _column(d: schemdraw.Drawing, blocks: list[Block], x: float) -> Where:
    """The right column, top down, each block's pins reachable from the left at x. Pins sit
    half a pitch off the left block's, so the wires' horizontal runs never overlap."""
    where: Where = {}
    width = max(3.0, CHAR_W * max(len(block.title) for block in blocks))
    y = -PITCH / 2
    for block in blocks:
        left = x + 0.3
        d += elm.Label().at((left, y + PITCH * 0.9)).label(block.title, fontsize=10,
                                                          halign="left")
        if block.switch:  # a push button from its wire to ground
            d += elm.Line().right(0.3).at((x, y))
            d += elm.Button().right(1.2)
            d += elm.Ground(lead=False)
            where[(block.key, block.pins[0])] = (x, y)
            y -= PITCH + GAP
            continue
        ic = _ic(block.pins, PITCH * len(block.pins), width)
        d += ic.at((x, y)).anchor("p0")
        for i, pin in enumerate(block.pins):
            point = getattr(ic, f"p{i}")
            where[(block.key, pin)] = (point[0], point[1])
        last = y - PITCH * (len(block.pins) - 1)
        if block.supply:
            d += elm.Line().right(0.4).at((left + width, y))
            d += elm.Vdd().label("3V3", fontsize=8)
        if block.supply and block.ground:
            d += elm.Line().right(0.4).at((left + width, last))
            d += elm.Ground()
        y = last - PITCH - GAP
    return where


def _tracks(d: schemdraw.Drawing, nets: dict[str, Net], where: Where, x0: float) -> None:
    """Each net with two or more ends on a vertical track of its own, right of x0."""
    for t, net in enumerate(n for n in nets.values() if len(n.ends) > 1):
        x = x0 + TRACK * (t + 1)
        ends = [where[e] for e in net.ends]
        ys = sorted(p[1] for p in ends)
        d += elm.Line().at((x, ys[0])).to((x, ys[-1]))
        for px, py in ends:
            d += elm.Line().at((px, py)).to((x, py))
            if ys[0] < py < ys[-1]:
                d += elm.Dot(radius=0.07).at((x, py))


def _left(d: schemdraw.Drawing, title: str, pins: list[tuple[str, str]], where: Where,
          key: str, supply: tuple[str, str] | None = None) -> None:
    """The block on the left: (anchor, label) pins down its right edge, top first; `supply`
    labels a 3V3 and a GND pin on its left edge, drawn with their symbols."""
    ic_pins = [elm.IcPin(name=label, side="right", anchorname=anchor)
               for anchor, label in reversed(pins)]
    if supply:
        ic_pins += [elm.IcPin(name=supply[1], side="left", anchorname="gnd", slot="1/2"),
                    elm.IcPin(name=supply[0], side="left", anchorname="vdd", slot="2/2")]
    chars = max(len(label) for _, label in pins) + (max(map(len, supply)) if supply else 0)
    width = CHAR_W * 0.8 * chars + 1.0
    ic = elm.Ic(pins=ic_pins, size=(width, PITCH * (len(pins) + 1)),
                pinspacing=PITCH, edgepadH=PITCH / 2, leadlen=0.6, lsize=9)
    d += ic.at((0, 0)).anchor(pins[0][0])
    if supply:
        d += elm.Vdd().at(ic.vdd).label("3V3", fontsize=8)
        d += elm.Ground().at(ic.gnd)
    for anchor, _ in pins:
        point = getattr(ic, anchor)
        where[(key, anchor)] = (point[0], point[1])
    box_left = where[(key, pins[0][0])][0] - 0.6 - width
    d += elm.Label().at((box_left, PITCH)).label(title, fontsize=11, halign="left")


def _svg(draw_on: Callable[[schemdraw.Drawing], None]) -> bytes:
    schemdraw.use("svg")
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=10, unit=1, lw=1.2)
        draw_on(d)
    return d.get_imagedata("svg")


def _x_blocks(nets: dict[str, Net], x_tracks: float) -> float:
    return x_tracks + TRACK * (sum(1 for n in nets.values() if len(n.ends) > 1) + 1)


def draw(b: board.Board) -> bytes:
    """The board's wiring diagram as SVG bytes: the Pico and every part it talks to."""
    blocks, nets = _parts(b)
    pico_pins = sorted({pin for n in nets.values() for key, pin in n.ends if key == "pico"},
                       key=lambda p: int(p[2:]))
    x_tracks = 4.0

    def on(d: schemdraw.Drawing) -> None:
        where = _column(d, blocks, _x_blocks(nets, x_tracks))
        pins = [(p, f"{p} ({HEADER_PIN[int(p[2:])]})") for p in pico_pins]
        _left(d, "Raspberry Pi Pico (header pin)", pins, where, "pico",
              supply=("3V3 (36)", "GND (38)"))
        _tracks(d, nets, where, x_tracks)

    return _svg(on)


def _station_parts(b: board.Board) -> tuple[list[Block], dict[str, Net]]:
    """Inside the first station: the cable's breakout, the OLED, the buttons (and their
    expander). The others are built alike, apart from the OLED address where it differs."""
    station = b.stations[0]
    nets: dict[str, Net] = {}

    def connect(net: str, key: str, pin: str) -> None:
        nets.setdefault(net, Net()).ends.append((key, pin))

    for number, _, role in cables.wires(station):
        connect(role, "rj45", f"p{number}")
    addr = station["oled"]["addr"]
    others = [str(k) for k, s in enumerate(b.stations, 1) if s["oled"]["addr"] != addr]
    title = f"{station['oled']['panel'].upper()} OLED at 0x{addr:02X}"
    if others:
        title += f" (0x{addr ^ 1:02X} on stations {', '.join(others)})"
    blocks = [Block("oled", title, ["SDA", "SCL", "VCC", "GND"], supply=False)]
    for pin, net in (("SDA", "SDA"), ("SCL", "SCL"), ("VCC", "3V3"), ("GND", "GND")):
        connect(net, "oled", pin)
    buttons = station["buttons"]
    if "gpio" in buttons:
        for name in board.BUTTONS:
            blocks.append(Block(f"b_{name}", f"{name} (to GND)", ["in"], supply=False,
                                switch=True))
            connect(name.upper(), f"b_{name}", "in")
    else:
        e = buttons["expander"]
        low = board.EXPANDERS[e["chip"]][0]
        straps = ", ".join(f"A{bit} {'3V3' if (e['addr'] - low) >> bit & 1 else 'GND'}"
                           for bit in range(3))
        pins = ["SDA", "SCL"] + (["INT"] if e["int"] is not None else [])
        pins += [f"P{e['pins'][name]}" for name in board.BUTTONS] + ["VCC", "GND"]
        blocks.append(Block("exp", f"{e['chip'].upper()} at 0x{e['addr']:02X} ({straps})",
                            pins, supply=False))
        for net in ("SDA", "SCL") + (("INT",) if e["int"] is not None else ()):
            connect(net, "exp", net)
        connect("3V3", "exp", "VCC")
        connect("GND", "exp", "GND")
        for name in board.BUTTONS:
            p = f"P{e['pins'][name]}"
            blocks.append(Block(f"b_{name}", f"{name} (to GND)", ["in"], supply=False,
                                switch=True))
            connect(f"exp {p}", "exp", p)
            connect(f"exp {p}", f"b_{name}", "in")
    return blocks, nets


def draw_station(b: board.Board) -> bytes:
    """Inside the board's first station (all of a layout's stations are built alike), from
    the RJ45 breakout its cable plugs into."""
    station = b.stations[0]
    blocks, nets = _station_parts(b)
    x_tracks = 5.2

    def on(d: schemdraw.Drawing) -> None:
        where = _column(d, blocks, _x_blocks(nets, x_tracks))
        pins = [(f"p{pin}", f"{pin} {role} ({colour})")
                for pin, colour, role in cables.wires(station)]
        _left(d, "RJ45 breakout (station end of the Cat5e cable)", pins, where, "rj45")
        _tracks(d, nets, where, x_tracks)

    return _svg(on)
