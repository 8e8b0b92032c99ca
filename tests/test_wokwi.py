"""The committed Wokwi projects, read as Wokwi reads them and checked wire by wire against the
board files: every part the simulation holds is wired as the board says, nothing is shorted,
and every pin name is one Wokwi documents for that part."""

from __future__ import annotations

import json
import tomllib

import pytest

from catnip import board
from catnip_host import image, wokwi
from catnip_host.wiring import BOARDS, ROOT

CHIPS = ROOT / "hardware" / "wokwi" / "chips"
# Wokwi's documented pin names (docs.wokwi.com/parts/...), and the custom chip's own.
PINS = {
    **{f"chip-{chip}": {p for p in json.loads((CHIPS / f"{chip}.chip.json").read_text())["pins"]
                        if p} for chip in (wokwi.TRAY_CHIP, wokwi.STATIONS_CHIP)},
    "wokwi-pi-pico": {f"GP{n}" for n in (*range(23), 26, 27, 28)}
    | {f"GND.{n}" for n in range(1, 9)} | {"3V3", "3V3_EN", "VSYS", "VBUS", "RUN", "ADC_VREF"},
    "board-ssd1306": {"GND", "VCC", "SCL", "SDA"},
    "wokwi-pushbutton": {"1.l", "1.r", "2.l", "2.r"},
    "wokwi-buzzer": {"1", "2"},
}
LAYOUTS = ["direct", "mux"]


class Nets:
    """The diagram's wires joined into nets: every pin a wire touches, grouped."""

    def __init__(self, diagram: dict):
        self.parts = {p["id"]: p for p in diagram["parts"]}
        self._up: dict[str, str] = {}
        for a, b, *_ in diagram["connections"]:
            for end in (a, b):
                pid, _, pin = end.partition(":")
                assert pid in self.parts, f"wire to unknown part {end}"
                kind = self.parts[pid]["type"]
                assert pin in PINS[kind], f"{end}: {kind} has no pin {pin!r}"
            self._up[self._root(a)] = self._root(b)

    def _root(self, end: str) -> str:
        while end in self._up:
            end = self._up[end]
        return end

    def net(self, end: str) -> set[str]:
        root = self._root(end)
        return {e for e in list(self._up) + list(self._up.values()) if self._root(e) == root}

    def joined(self, a: str, b: str) -> bool:
        return self._root(a) == self._root(b)

    def ground(self, end: str) -> bool:
        return any(e.startswith("pico:GND.") for e in self.net(end))


def _load(name: str) -> tuple[board.Board, dict, Nets]:
    b = board.load(str(BOARDS / f"{name}.json"))
    diagram = json.loads((ROOT / "hardware" / "wokwi" / name / "diagram.json").read_text())
    return b, diagram, Nets(diagram)


def _gp(n: int) -> str:
    return f"pico:GP{n}"


def _of_type(diagram: dict, kind: str) -> list[dict]:
    return [p for p in diagram["parts"] if p["type"] == kind]


def _powered(nets: Nets, pid: str) -> None:
    assert nets.joined(f"{pid}:VCC", "pico:3V3"), pid
    assert nets.ground(f"{pid}:GND"), pid


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_part_is_a_wokwi_part(name):
    _, diagram, _ = _load(name)
    assert {p["type"] for p in diagram["parts"]} <= set(PINS)
    assert len(_of_type(diagram, "wokwi-pi-pico")) == 1
    assert len({p["id"] for p in diagram["parts"]}) == len(diagram["parts"])


@pytest.mark.parametrize("name", LAYOUTS)
def test_nothing_is_shorted(name):
    _, diagram, nets = _load(name)
    for a, b, *_ in diagram["connections"]:
        for end in (a, b):
            net = nets.net(end)
            gps = {e for e in net if e.startswith("pico:GP")}
            assert len(gps) <= 1, f"{sorted(gps)} are joined"
            supply = {e for e in net if e == "pico:3V3" or e.startswith("pico:GND.")}
            assert not (gps and supply), f"{sorted(gps)} is wired to {sorted(supply)}"
            assert not ("pico:3V3" in net and nets.ground(end)), "3V3 is wired to GND"


@pytest.mark.parametrize("name", LAYOUTS)
def test_screens_sit_on_the_bus_and_address_the_board_names(name):
    b, diagram, nets = _load(name)
    places = {f"oled{k}": s for k, s in enumerate(b.stations, 1)}
    if b.table:
        places["table"] = b.table
    oleds = _of_type(diagram, "board-ssd1306")
    for part in oleds:
        place = places[part["id"]]
        assert place["channel"] is None, f"{part['id']} is behind the mux, which Wokwi lacks"
        bus = b.i2c[place["bus"]]
        assert nets.joined(f"{part['id']}:SDA", _gp(bus["sda"]))
        assert nets.joined(f"{part['id']}:SCL", _gp(bus["scl"]))
        address = int(part["attrs"].get("i2cAddress", "0x3c"), 16)
        assert address == place["oled"]["addr"], part["id"]
        _powered(nets, part["id"])
    reachable = [pid for pid, p in places.items() if p["channel"] is None]
    assert sorted(p["id"] for p in oleds) == sorted(reachable)


@pytest.mark.parametrize("name", LAYOUTS)
def test_buttons_join_their_pin_to_ground(name):
    b, diagram, nets = _load(name)
    buttons = {p["id"]: p for p in _of_type(diagram, "wokwi-pushbutton")}
    expected = set()
    for k, s in enumerate(b.stations, 1):
        # On GPIO, or on the stations chip's pin for that button of that station.
        wired = s["buttons"].get("gpio") or {
            name: f"stations:S{k}_{name.upper()}" for name in s["buttons"]["expander"]["pins"]}
        for button, to in wired.items():
            pid = f"btn{k}_{button}"
            expected.add(pid)
            assert pid in buttons, pid
            end = _gp(to) if isinstance(to, int) else to
            contacts = [c for c in ("1.l", "2.l") if nets.joined(f"{pid}:{c}", end)]
            assert len(contacts) == 1, (pid, contacts)
            other = "2.l" if contacts == ["1.l"] else "1.l"
            assert nets.ground(f"{pid}:{other}"), pid
    assert set(buttons) == expected


def test_the_stations_chip_is_the_mux_and_its_stations():
    b, diagram, nets = _load("mux")
    [chip] = _of_type(diagram, f"chip-{wokwi.STATIONS_CHIP}")
    assert chip["attrs"] == {"stations": str(len(b.stations))}  # the chip's default addresses
    assert (b.mux["addr"], b.stations[0]["oled"]["addr"]) == (0x70, 0x3C)
    assert b.stations[0]["buttons"]["expander"]["addr"] == 0x20
    bus = b.i2c[b.mux["bus"]]
    assert nets.joined("stations:SDA", _gp(bus["sda"]))
    assert nets.joined("stations:SCL", _gp(bus["scl"]))
    assert nets.joined("stations:RESET", _gp(b.mux["reset"]))
    for k, s in enumerate(b.stations):
        assert s["channel"] == k  # the chip's station k + 1 is on channel k
        assert nets.joined("stations:INT", _gp(s["buttons"]["expander"]["int"]))
    _powered(nets, "stations")
    assert wokwi.chips(b) == [wokwi.TRAY_CHIP, wokwi.STATIONS_CHIP]
    assert wokwi.chips(board.load(str(BOARDS / "direct.json"))) == [wokwi.TRAY_CHIP]


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_tray_and_buzzer_are_wired_as_the_board_says(name):
    b, diagram, nets = _load(name)
    [tray] = _of_type(diagram, f"chip-{wokwi.TRAY_CHIP}")
    cells = b.tray["cells"]
    assert tray["attrs"]["cells"] == str(len(cells))
    for i, cell in enumerate(cells, 1):
        assert nets.joined(f"tray:DT{i}", _gp(cell["dout"]))
        assert nets.joined("tray:SCK", _gp(cell["sck"]))
    for unused in range(len(cells) + 1, 5):
        assert not nets.net(f"tray:DT{unused}"), unused
    _powered(nets, "tray")
    # The parts list's cell: 1,000 g alone, 500 g under each of four corners (hardware/tray.md).
    assert tray["attrs"]["capacity"] == ("1000" if len(cells) == 1 else "500")
    assert nets.joined("buzzer:2", _gp(b.buzzer["pin"]))
    assert nets.ground("buzzer:1")


def test_what_wokwi_cannot_hold_is_named():
    assert wokwi.left_out(board.load(str(BOARDS / "direct.json"))) == []
    mux = json.loads((BOARDS / "mux.json").read_text())
    assert wokwi.left_out(board.parse(mux)) == []  # the stations chip holds them all
    # Stations the chip cannot be: on MCP23017s, which it does not model.
    for s in mux["stations"]:
        s["buttons"]["expander"] |= {"chip": "mcp23017", "pins": {
            "up": 0, "down": 1, "ok": 2, "back": 3}}
    b = board.parse(mux)
    left = wokwi.left_out(b)
    assert left[0] == "the TCA9548A at 0x70"
    assert left[1] == "station 1: behind the mux (channel 0), buttons on a MCP23017"
    assert len(left) == 1 + len(b.stations)
    assert not _of_type(wokwi.diagram(b), f"chip-{wokwi.STATIONS_CHIP}")


@pytest.mark.parametrize("name", LAYOUTS)
def test_wokwi_toml_runs_the_catnip_image_with_a_serial_port(name):
    config = tomllib.loads((ROOT / "hardware" / "wokwi" / name / "wokwi.toml").read_text())
    assert config["wokwi"]["version"] == 1
    # The frozen catnip image `make firmware` builds, not a stock MicroPython to copy files onto.
    project = ROOT / "hardware" / "wokwi" / name
    assert (project / config["wokwi"]["firmware"]).resolve() == image.OUT / image.PICO.uf2
    assert config["wokwi"]["rfc2217ServerPort"] == 4000
    # Each custom chip: its .wasm where `make wokwi` builds it, beside the .chip.json that
    # Wokwi reads with it (same name, .json for .wasm); every chip part of the diagram is one.
    diagram = json.loads((project / "diagram.json").read_text())
    used = {p["type"].removeprefix("chip-") for p in diagram["parts"]
            if p["type"].startswith("chip-")}
    assert {chip["name"] for chip in config["chip"]} == used
    for chip in config["chip"]:
        binary = (project / chip["binary"]).resolve()
        assert binary == (CHIPS / f"{chip['name']}.chip.wasm").resolve()
        assert binary.with_suffix(".json").is_file()
        assert binary.with_suffix(".c").is_file()
    makefile = (ROOT / "Makefile").read_text()
    assert all(f"$(CHIPS)/{name}.chip.wasm" in makefile for name in used)  # `make wokwi`
