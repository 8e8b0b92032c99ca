"""Wiring diagrams (SVG) drawn with schemdraw from a board file.

The Pico sits on the left with the pins the board uses; every other part is a block in one
column on the right. Each signal gets its own vertical track between them, so a wire can be
followed from a Pico pin to a part pin without guessing; a dot marks where a wire branches.
Power is drawn the way schematics do it, a 3V3 arrow and a ground symbol at each part.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import schemdraw
import schemdraw.elements as elm

from catnip import board

PITCH = 0.6  # between pins
TRACK = 0.45  # between tracks
GAP = 1.2  # between blocks
CHAR_W = 0.155  # of a 10 pt title, in drawing units: blocks are as wide as their titles
# The Pico's header: GPIO number -> physical pin (Raspberry Pi Pico datasheet, pinout).
HEADER_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
              12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
              22: 29, 26: 31, 27: 32, 28: 34}


@dataclass
class Block:
    key: str
    title: str
    pins: list[str]  # top to bottom
    supply: bool = True  # a 3V3 pin besides GND


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
        parts = [f"SSD1306 0x{place['oled']['addr']:02X}"]
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
    if b.tray:
        for i, cell in enumerate(b.tray["cells"], 1):
            blocks.append(Block(f"hx{i}", f"HX711 {i} (load cell {i})", ["DT", "SCK"]))
            connect(f"DT{i}", "pico", f"GP{cell['dout']}")
            connect(f"DT{i}", f"hx{i}", "DT")
            connect(f"SCK{cell['sck']}", "pico", f"GP{cell['sck']}")
            connect(f"SCK{cell['sck']}", f"hx{i}", "SCK")
    if b.buzzer:
        blocks.append(Block("buzzer", "piezo buzzer", ["+"], supply=False))
        connect("BUZ", "pico", f"GP{b.buzzer['pin']}")
        connect("BUZ", "buzzer", "+")
    for net in nets.values():  # one Pico pin per net, listed once
        pico = list(dict.fromkeys(e for e in net.ends if e[0] == "pico"))
        net.ends = pico + [e for e in net.ends if e[0] != "pico"]
    return blocks, nets


def _places(b: board.Board) -> list[dict]:
    return list(b.stations) + ([b.table] if b.table else [])


def _ic(pins: list[str], height: float, width: float) -> elm.Ic:
    # schemdraw stacks a side's pins from the bottom up; ours are listed top down.
    return elm.Ic(pins=[elm.IcPin(name=p, side="left", anchorname=f"p{i}")
                        for i, p in reversed(list(enumerate(pins)))],
                  size=(width, height), pinspacing=PITCH, edgepadH=PITCH / 2, leadlen=0.3,
                  lsize=9)


def draw(b: board.Board) -> bytes:
    """The board's wiring diagram as SVG bytes."""
    blocks, nets = _parts(b)
    pico_pins = sorted({pin for n in nets.values() for key, pin in n.ends if key == "pico"},
                       key=lambda p: int(p[2:]))
    track_nets = [name for name, n in nets.items() if len(n.ends) > 1]
    x_tracks = 4.0
    x_blocks = x_tracks + TRACK * (len(track_nets) + 1)
    width = max(3.0, CHAR_W * max(len(block.title) for block in blocks))
    schemdraw.use("svg")
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=10, unit=1, lw=1.2)
        where: dict[tuple[str, str], tuple[float, float]] = {}
        # Right column, top down; pins sit half a pitch off the Pico's so stubs never overlap.
        y = -PITCH / 2
        for block in blocks:
            ic = _ic(block.pins, PITCH * len(block.pins), width)
            d += ic.at((x_blocks, y)).anchor("p0")
            for i, pin in enumerate(block.pins):
                point = getattr(ic, f"p{i}")
                where[(block.key, pin)] = (point[0], point[1])
            left = x_blocks + 0.3
            d += elm.Label().at((left, y + PITCH * 0.9)).label(block.title, fontsize=10,
                                                              halign="left")
            last = y - PITCH * (len(block.pins) - 1)
            if block.supply:
                d += elm.Line().at((left + width, y)).right(0.4)
                d += elm.Vdd().label("3V3", fontsize=8)
            d += elm.Line().at((left + width, last)).right(0.4)
            d += elm.Ground()
            y = last - PITCH - GAP
        # The Pico: the pins in use down its right edge, its 3V3 and GND on the left.
        height = PITCH * (len(pico_pins) + 1)
        pins = [elm.IcPin(name=f"{p} ({HEADER_PIN[int(p[2:])]})", side="right", anchorname=p)
                for p in reversed(pico_pins)]
        pins += [elm.IcPin(name="GND (38)", side="left", anchorname="gnd", slot="1/2"),
                 elm.IcPin(name="3V3 (36)", side="left", anchorname="vdd", slot="2/2")]
        pico = elm.Ic(pins=pins, size=(3.4, height), pinspacing=PITCH, edgepadH=PITCH / 2,
                      leadlen=0.6, lsize=9)
        d += pico.at((0, 0)).anchor(pico_pins[0])
        d += elm.Label().at((pico.center[0], PITCH)).label("Raspberry Pi Pico (header pin)",
                                                           fontsize=11)
        for pin in pico_pins:
            point = getattr(pico, pin)
            where[("pico", pin)] = (point[0], point[1])
        d += elm.Vdd().at(pico.vdd).label("3V3", fontsize=8)
        d += elm.Ground().at(pico.gnd)
        for t, name in enumerate(track_nets):
            x = x_tracks + TRACK * (t + 1)
            ends = [where[e] for e in nets[name].ends]
            ys = sorted(p[1] for p in ends)
            d += elm.Line().at((x, ys[0])).to((x, ys[-1]))
            for px, py in ends:
                d += elm.Line().at((px, py)).to((x, py))
                if ys[0] < py < ys[-1]:
                    d += elm.Dot(radius=0.07).at((x, py))
    return d.get_imagedata("svg")
