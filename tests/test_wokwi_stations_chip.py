"""The Wokwi stations chip (hardware/wokwi/chips/mux-stations.chip.c: the mux board's TCA9548A
with a station's SSD1306 and PCF8574 on each channel) built to WebAssembly and run without
Wokwi (tests/wokwi_chip.py): catnip's own TCA9548A and PCF8574 drivers talk to it through
devsim's fake machine.I2C, and every screen it draws is compared pixel by pixel with devsim's
SSD1306 model given the same bytes."""

from __future__ import annotations

import random

import pytest

import machine
from catnip.drivers.pcf8574 import PCF8574
from catnip.drivers.tca9548a import TCA9548A
from devsim import bus as buses
from devsim import pins
from devsim.models.ssd1306 import SSD1306 as Panel
from devsim.timing import VirtualClock
import wokwi_clang

wokwi_clang.require()

from wokwi_chip import WokwiChip, build  # noqa: E402 (wasmtime only with clang)

pytestmark = pytest.mark.xdist_group("wokwi_chip")  # one worker builds the chips

SDA, SCL, INT, RESET = 0, 1, 3, 2  # the mux board's pins
BUTTONS = ("UP", "DOWN", "OK", "BACK")  # P0..P3 of each station's PCF8574
FIRST_BUTTON = 4  # station k's buttons on GP4 + 4k .. : any free pins of the fake board
LIT = 0xA0D8F0FF
DARK = 0x101010FF
# What catnip's SSD1306 driver sends to start a panel (catnip/drivers/ssd1306.py,
# init_display): the datasheet's initialisation flow, horizontal addressing, display on.
INIT = bytes((0x00, 0xAE, 0xA8, 63, 0xD3, 0, 0x40, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0xCF, 0xA4,
              0xA6, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x20, 0x00, 0x2E, 0x8D, 0x14, 0xAF))


@pytest.fixture(scope="module")
def wasm():
    return build("mux-stations")


@pytest.fixture
def table(wasm):
    """The chip on bus 0 of a fresh fake board, and catnip's drivers for it."""
    buses.reset()
    with VirtualClock() as clock:
        wiring = {"SDA": SDA, "SCL": SCL, "INT": INT, "RESET": RESET}
        for k in range(8):
            for b, name in enumerate(BUTTONS):
                wiring[f"S{k + 1}_{name}"] = FIRST_BUTTON + 4 * k + b if k < 6 else None
        wiring = {name: gp for name, gp in wiring.items() if gp is not None}
        chip = WokwiChip(wasm, clock, wiring, {"stations": 6}, i2c=buses.bus(0))
        i2c = machine.I2C(0, scl=machine.Pin(SCL), sda=machine.Pin(SDA))
        pins.board.set_pull(INT, pins.PULL_UP)  # the Pico's pull-up on the shared INT
        yield chip, i2c, TCA9548A(i2c), clock


def _press(station, button, down=True):
    pins.board.drive(FIRST_BUTTON + 4 * (station - 1) + BUTTONS.index(button), 0 if down else None)


def _screen(chip, station):
    """Station k's screen on the chip's display (four to a row) as a MONO_VLSB image,
    each pixel checked to be one of the two colours."""
    left, top = (station - 1) % 4 * 128, (station - 1) // 4 * 64
    image = bytearray(1024)
    for y in range(64):
        for x in range(128):
            colour = chip.pixel(left + x, top + y)
            assert colour in (LIT, DARK), hex(colour)
            if colour == LIT:
                image[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(image)


def _both(i2c, panel, data):
    """The same write to the chip (through the bus) and to devsim's SSD1306 model."""
    i2c.writeto(0x3C, data)
    panel.write(data)


def _frame(clock):
    clock.advance(50_000)  # the chip redraws changed screens every 40 ms


# ---- the mux -----------------------------------------------------------------

def test_only_the_mux_answers_until_a_channel_is_on(table):
    chip, i2c, mux, _ = table
    assert i2c.scan() == [0x70]
    mux.select(2)
    assert i2c.scan() == [0x20, 0x3C, 0x70]
    assert mux.enabled() == 0b100
    mux.select(7)  # six stations: channel 7 has none
    assert i2c.scan() == [0x70]
    with pytest.raises(OSError):
        i2c.writeto(0x3C, INIT)


def test_reset_low_switches_every_channel_off(table):
    _, i2c, mux, _ = table
    mux.select(1)
    pins.board.drive(RESET, 0)
    pins.board.drive(RESET, None)
    mux.invalidate()
    assert mux.enabled() == 0
    assert i2c.scan() == [0x70]


# ---- the buttons ------------------------------------------------------------

def test_a_button_pulls_int_low_and_its_expander_reads_it(table):
    _, i2c, mux, _ = table
    mux.select(2)
    station3 = PCF8574(i2c, 0x20)
    station3.setup_buttons(0x0F)
    assert pins.board.level(INT) == 1
    _press(3, "OK")
    assert pins.board.level(INT) == 0  # open drain, shared by every station
    assert station3.pressed() == 0b0100  # P2: ok
    assert pins.board.level(INT) == 1  # the read saw it
    _press(3, "OK", down=False)
    assert pins.board.level(INT) == 0
    assert station3.pressed() == 0
    mux.select(0)
    _press(3, "UP")
    assert PCF8574(i2c, 0x20).pressed() == 0  # station 1's expander: its buttons are up
    assert pins.board.level(INT) == 0  # station 3 still has news


def test_a_latch_bit_written_low_reads_low(table):
    _, i2c, mux, _ = table
    mux.select(4)
    expander = PCF8574(i2c, 0x20)
    expander.write(0xF7)
    assert expander.read() == 0xF7


# ---- the screens ------------------------------------------------------------

def test_each_station_draws_what_devsims_ssd1306_shows(table):
    chip, i2c, mux, clock = table
    rng = random.Random(7)
    panels = {}
    for station in (1, 5, 6):
        mux.select(station - 1)
        panel = panels[station] = Panel()
        _both(i2c, panel, INIT)
        _both(i2c, panel, bytes((0x00, 0x21, 0, 127, 0x22, 0, 7)))  # the whole window
        _both(i2c, panel, b"\x40" + rng.randbytes(1024))
    _frame(clock)
    for station, panel in panels.items():
        assert _screen(chip, station) == bytes(panel.screen()), station
    assert _screen(chip, 2) == bytes(1024)  # never started: dark
    # A window, page addressing and single commands (Co = 1), on station 5 only.
    mux.select(4)
    panel = panels[5]
    _both(i2c, panel, bytes((0x00, 0x21, 10, 40, 0x22, 2, 4)))
    _both(i2c, panel, b"\x40" + rng.randbytes(200))
    _both(i2c, panel, bytes((0x80, 0x20, 0x80, 0x02, 0x80, 0xB6, 0x80, 0x05, 0x80, 0x13)))
    _both(i2c, panel, b"\x40" + rng.randbytes(150))
    _both(i2c, panel, bytes((0x80, 0xA7, 0x80, 0xA0, 0x80, 0xC0)))  # inverted and flipped
    _frame(clock)
    assert _screen(chip, 5) == bytes(panel.screen())
    assert _screen(chip, 1) == bytes(panels[1].screen())
    _both(i2c, panel, bytes((0x00, 0xAE)))  # display off
    _frame(clock)
    assert _screen(chip, 5) == bytes(1024)


def test_a_control_byte_with_low_bits_set_is_not_acknowledged(table):
    _, i2c, mux, _ = table
    mux.select(0)
    with pytest.raises(OSError):
        i2c.writeto(0x3C, b"\x01\xaf")


# ---- the committed mux project ----------------------------------------------

def test_the_mux_projects_chip_answers_each_station_as_its_board_says(wasm):
    """The stations part of hardware/wokwi/mux/diagram.json, with its attributes and the
    Pico pins it is wired to, answers catnip's drivers at the board file's addresses and
    channels, each station's buttons on the expander pins the board names."""
    import json

    from catnip import board as boards
    from catnip_host.wiring import BOARDS, ROOT

    b = boards.load(str(BOARDS / "mux.json"))
    diagram = json.loads((ROOT / "hardware" / "wokwi" / "mux" / "diagram.json").read_text())
    [part] = [p for p in diagram["parts"] if p["type"] == "chip-mux-stations"]
    wired = {}
    for a, z, *_ in diagram["connections"]:
        for end, other in ((a, z), (z, a)):
            if end.startswith("stations:") and other.startswith("pico:GP"):
                wired[end[9:]] = int(other[7:])
    attrs = {k: float(v) for k, v in part["attrs"].items()}
    spare = [gp for gp in range(4, 16) if gp not in wired.values()]
    for k, s in enumerate(b.stations):
        buses.reset()
        expander = s["buttons"]["expander"]
        with VirtualClock() as clock:
            buttons = {f"S{k + 1}_{name.upper()}": spare[j]
                       for j, name in enumerate(expander["pins"])}
            WokwiChip(wasm, clock, wired | buttons, attrs, i2c=buses.bus(b.mux["bus"]))
            pins.board.set_pull(expander["int"], pins.PULL_UP)
            bus = b.i2c[b.mux["bus"]]
            i2c = machine.I2C(b.mux["bus"], scl=machine.Pin(bus["scl"]),
                              sda=machine.Pin(bus["sda"]))
            TCA9548A(i2c, b.mux["addr"]).select(s["channel"])
            assert s["oled"]["addr"] in i2c.scan()
            io = PCF8574(i2c, expander["addr"])
            io.setup_buttons(sum(1 << p for p in expander["pins"].values()))
            for name, p in expander["pins"].items():
                pins.board.drive(buttons[f"S{k + 1}_{name.upper()}"], 0)
                assert pins.board.level(expander["int"]) == 0, (k, name)
                assert io.pressed() == 1 << p, (k, name)
                pins.board.drive(buttons[f"S{k + 1}_{name.upper()}"], None)
                io.pressed()


def test_a_first_power_up_finds_the_mux_layout_on_the_chip(wasm, monkeypatch):
    """catnip's first power-up (catnip.parts.detect) on the mux project: the chip and, beside
    it, the table display (Wokwi's own SSD1306 part, here devsim's) make the mux layout."""
    import sys
    import types

    from catnip_host.wiring import BOARDS

    shipped = types.ModuleType("catnip.shipped")  # what each build makes of firmware/boards/
    shipped.BOARDS = {p.stem: p.read_text() for p in BOARDS.glob("*.json")}
    monkeypatch.setitem(sys.modules, "catnip.shipped", shipped)
    sys.modules.pop("catnip.parts.detect", None)
    from catnip.parts import detect

    buses.reset()
    with VirtualClock() as clock:
        WokwiChip(wasm, clock, {"SDA": SDA, "SCL": SCL, "INT": INT, "RESET": RESET},
                  {"stations": 8}, i2c=buses.bus(0))
        buses.bus(0).attach(0x3D, Panel())
        board, found, missing = detect.survey()
    sys.modules.pop("catnip.parts.detect", None)
    assert board["name"] == "mux", (found, missing)
    assert len(board["stations"]) == 8
    assert board["table"] is not None
    assert missing == []
    assert found[1] == "8 stations on mux channels 0-7, each a screen and buttons"
