"""Wokwi simulator projects (diagram.json, wokwi.toml) generated from a board file, so a table
can be tried in a browser or VS Code before anything is bought.

Part and pin names are Wokwi's documented ones: wokwi-pi-pico (GP0.., 3V3, GND.1-GND.8),
board-ssd1306 (GND, VCC, SCL, SDA; attribute i2cAddress), wokwi-pushbutton (1.l/1.r and 2.l/2.r,
the two contacts), wokwi-buzzer (1 negative, 2 positive). The tray is catnip's own custom chip,
chip-hx711-tray (hardware/wokwi/chips/hx711-tray.chip.json: VCC, GND, SCK, DT1-DT4): one HX711
with its load cell, or four sharing PD_SCK, that read as the parts list's cells do, with noise
and drift. Wokwi's own wokwi-hx711 gives the same number until its slider moves, which catnip
rightly calls a stuck sensor, and reads a 5 kg cell as 0-2,100.
Wokwi's part library has no TCA9548A and no PCF8574 or MCP23017, and a custom chip cannot route
the bus on to Wokwi's own SSD1306 parts; but its I2C device can listen at every address
(docs.wokwi.com/chips-api/i2c) and draw into a framebuffer, so catnip's chip-mux-stations is the
mux and every station behind it (an SSD1306 and a PCF8574 on each channel), for boards it fits
(`_chip_holds`). Whatever else sits behind a mux or on an expander is left out and listed in
`left_out`; the firmware then names those stations as not answering, which is what a first boot
with them unplugged shows.
"""

from __future__ import annotations

import json

from catnip import board

from catnip_host import loadcell

PICO = "pico"
PICO_GND = "pico:GND.8"  # beside 3V3 on the header
PICO_3V3 = "pico:3V3"
# Keyboard keys for each station's up, down, ok, back: one keyboard column per station.
KEYS = ("1qaz", "2wsx", "3edc", "4rfv", "5tgb", "6yhn", "7ujm", "8ik,")
COLOURS = {"SDA": "green", "SCL": "blue", "VCC": "red", "GND": "black"}


def _pin(gp: int) -> str:
    return f"{PICO}:GP{gp}"


class _Diagram:
    def __init__(self) -> None:
        self.parts: list[dict] = [{"type": "wokwi-pi-pico", "id": PICO, "top": 0, "left": 0,
                                   "attrs": {}}]
        self.connections: list[list] = []

    def part(self, kind: str, pid: str, top: float, left: float, **attrs: str) -> None:
        self.parts.append({"type": kind, "id": pid, "top": top, "left": left, "attrs": attrs})

    def wire(self, a: str, b: str, colour: str = "gold") -> None:
        self.connections.append([a, b, colour, []])


def _reachable(place: dict) -> bool:
    """Upstream of any mux: Wokwi has no TCA9548A to reach the rest."""
    return place["channel"] is None


def _oled(d: _Diagram, b: board.Board, pid: str, oled: dict, bus: int, top: float,
          left: float) -> None:
    attrs = {"i2cAddress": f"0x{oled['addr']:02x}"} if oled["addr"] != 0x3C else {}
    d.part("board-ssd1306", pid, top, left, **attrs)
    i2c = b.i2c[bus]
    d.wire(f"{pid}:SDA", _pin(i2c["sda"]), COLOURS["SDA"])
    d.wire(f"{pid}:SCL", _pin(i2c["scl"]), COLOURS["SCL"])
    d.wire(f"{pid}:VCC", PICO_3V3, COLOURS["VCC"])
    d.wire(f"{pid}:GND", PICO_GND, COLOURS["GND"])


TRAY_CHIP = "hx711-tray"


def _tray(d: _Diagram, cells: list[dict]) -> None:
    """The tray chip: the parts list's cell for this many cells, the cats and the base of the
    load-cell sums (catnip_host.loadcell), every DOUT on its pin and the one PD_SCK."""
    clocks = {cell["sck"] for cell in cells}
    if len(clocks) != 1:
        raise ValueError(f"the tray chip shares one PD_SCK among its cells, not GP{sorted(clocks)}")
    tower = loadcell.Tower()
    d.part(f"chip-{TRAY_CHIP}", "tray", 260, 120, cells=str(len(cells)),
           capacity=str(loadcell.choose_capacity(tower, len(cells))), catGrams=f"{tower.cat_g:g}",
           deadLoad=f"{tower.base_g + tower.platform_g:g}")
    d.wire("tray:SCK", _pin(clocks.pop()))
    for k, cell in enumerate(cells, 1):
        d.wire(f"tray:DT{k}", _pin(cell["dout"]))
    d.wire("tray:VCC", PICO_3V3, COLOURS["VCC"])
    d.wire("tray:GND", PICO_GND, COLOURS["GND"])


STATIONS_CHIP = "mux-stations"
# The stations chip's own wiring, fixed in hardware/wokwi/chips/mux-stations.chip.c: station k
# on channel k - 1, its OLED 64 rows high, its buttons on P0-P3 of its PCF8574.
_CHIP_PINS = {name: n for n, name in enumerate(board.BUTTONS)}
_CHIP_DEFAULTS = {"address": 0x70, "expanderAddress": 0x20, "oledAddress": 0x3C}


def _chip_holds(b: board.Board) -> bool:
    """Can the stations chip be this board's mux and every station behind it?"""
    if not b.mux or not b.stations:
        return False
    first = b.stations[0]
    for k, s in enumerate(b.stations):
        expander = s["buttons"].get("expander")
        if (s["channel"] != k or s["oled"]["height"] != 64 or s["bus"] != b.mux["bus"]
                or expander is None or expander["chip"] != "pcf8574"
                or expander["pins"] != _CHIP_PINS or expander["int"] != first["buttons"][
                    "expander"]["int"] or expander["addr"] != first["buttons"]["expander"]["addr"]
                or s["oled"]["addr"] != first["oled"]["addr"]):
            return False
    return True


def _button(d: _Diagram, k: int, j: int, left: float, top: float, to: str) -> None:
    name = board.BUTTONS[j]
    pid = f"btn{k + 1}_{name}"
    d.part("wokwi-pushbutton", pid, top, left, label=f"{k + 1} {name}", key=KEYS[k][j],
           color="blue" if name in ("up", "down") else "green")
    d.wire(f"{pid}:1.l", to)
    d.wire(f"{pid}:2.l", PICO_GND, COLOURS["GND"])


def _stations_chip(d: _Diagram, b: board.Board) -> None:
    """The mux and every station behind it as one chip, its buttons wired to its pins."""
    first = b.stations[0]
    addrs = {"address": b.mux["addr"], "expanderAddress": first["buttons"]["expander"]["addr"],
             "oledAddress": first["oled"]["addr"]}
    attrs = {k: str(v) for k, v in addrs.items() if v != _CHIP_DEFAULTS[k]}
    d.part(f"chip-{STATIONS_CHIP}", "stations", -480, 150, stations=str(len(b.stations)),
           **attrs)
    i2c = b.i2c[b.mux["bus"]]
    d.wire("stations:SDA", _pin(i2c["sda"]), COLOURS["SDA"])
    d.wire("stations:SCL", _pin(i2c["scl"]), COLOURS["SCL"])
    if first["buttons"]["expander"]["int"] is not None:
        d.wire("stations:INT", _pin(first["buttons"]["expander"]["int"]))
    if b.mux["reset"] is not None:
        d.wire("stations:RESET", _pin(b.mux["reset"]))
    d.wire("stations:VCC", PICO_3V3, COLOURS["VCC"])
    d.wire("stations:GND", PICO_GND, COLOURS["GND"])
    for k in range(len(b.stations)):
        for j, name in enumerate(board.BUTTONS):
            _button(d, k, j, 200 + k * 90, -60 + j * 55, f"stations:S{k + 1}_{name.upper()}")


def diagram(b: board.Board) -> dict:
    d = _Diagram()
    for k, s in enumerate(b.stations):
        if not _reachable(s) or "gpio" not in s["buttons"]:
            continue
        left = 200 + k * 170
        _oled(d, b, f"oled{k + 1}", s["oled"], s["bus"], -200, left)
        for j, name in enumerate(board.BUTTONS):
            _button(d, k, j, left + 20, -60 + j * 55, _pin(s["buttons"]["gpio"][name]))
    if _chip_holds(b):
        _stations_chip(d, b)
    if b.table and _reachable(b.table):
        _oled(d, b, "table", b.table["oled"], b.table["bus"], -200, -200)
    if b.tray:
        _tray(d, b.tray["cells"])
    if b.buzzer:
        d.part("wokwi-buzzer", "buzzer", 120, -140)
        d.wire("buzzer:2", _pin(b.buzzer["pin"]))
        d.wire("buzzer:1", PICO_GND, COLOURS["GND"])
    return {"version": 1, "author": "catnip", "editor": "wokwi", "parts": d.parts,
            "connections": d.connections, "dependencies": {}}


def left_out(b: board.Board) -> list[str]:
    """What the board has that Wokwi cannot simulate, one line each."""
    if _chip_holds(b):
        return []  # the stations chip is the mux and every station behind it
    out = []
    if b.mux:
        out.append(f"the TCA9548A at 0x{b.mux['addr']:02X}")
    for k, s in enumerate(b.stations, 1):
        why = []
        if not _reachable(s):
            why.append(f"behind the mux (channel {s['channel']})")
        if "expander" in s["buttons"]:
            why.append(f"buttons on a {s['buttons']['expander']['chip'].upper()}")
        if why:
            out.append(f"station {k}: " + ", ".join(why))
    if b.table and not _reachable(b.table):
        out.append(f"the table display: behind the mux (channel {b.table['channel']})")
    return out


def diagram_json(b: board.Board) -> str:
    return json.dumps(diagram(b), indent=2) + "\n"


def chips(b: board.Board) -> list[str]:
    """The custom chips the board's project uses (hardware/wokwi/chips/)."""
    return [TRAY_CHIP] * bool(b.tray) + [STATIONS_CHIP] * _chip_holds(b)


def wokwi_toml(b: board.Board) -> str:
    """wokwi.toml for Wokwi for VS Code and wokwi-cli: the catnip image (`make firmware` writes
    it to build/firmware/catnip-pico.uf2; the paths are relative to each project's folder), a
    serial port on localhost:4000 for `catnip monitor` and `catnip deploy`, and the custom
    chips (`make wokwi` builds each .wasm beside its .chip.json, which Wokwi reads with it)."""
    text = """\
# Generated by `python -m catnip_host.wiring --write`; see hardware/wokwi/README.md.
[wokwi]
version = 1
firmware = "../../../build/firmware/catnip-pico.uf2"
rfc2217ServerPort = 4000
"""
    for chip in chips(b):
        text += f'\n[[chip]]\nname = "{chip}"\nbinary = "../chips/{chip}.chip.wasm"\n'
    return text
