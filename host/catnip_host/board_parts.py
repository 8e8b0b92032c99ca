"""The parts a board file puts on each I2C bus and their typical figures: the
modules (pull-ups, pin capacitance, current, rated clock), the cable, and the
segments one I2C transfer sees (every bus, or with a mux every channel as the
Pico sees it when that channel is on). The sums on them are check_board's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from catnip import board

V_LOGIC = 3.3
# I2C-bus specification (NXP UM10204), table 10: rise time of SDA/SCL (30 % to 70 %) and bus
# capacitance, by mode; the low level a driver must reach and the current it may sink.
RISE_LIMIT_NS = {100_000: 1000, 400_000: 300}
MAX_BUS_PF = 400
V_OL, I_OL_MA = 0.4, 3.0
RISE_FACTOR = 0.8473  # t(30 %..70 %) = ln(0.7/0.3) x R x C

# Raspberry Pi Pico datasheet, 3V3 pin: keep the load under 300 mA (RP2040 included in the SMPS's
# budget; the RP2040 itself takes about 25 mA at 125 MHz).
REGULATOR_MA = 300
RP2040_MA = 25


@dataclass(frozen=True)
class Module:
    pullup_ohm: float | None  # on SDA and SCL, to 3.3 V; None: the module has none
    pf: float  # pin plus module trace on each line
    ma: float  # worst steady current from 3V3
    part: str = ""
    rated_hz: int = 400_000  # the fastest I2C clock the chip's datasheet allows
    stated: bool = False  # the board file states the rating (not the cautious default)


# Typical breakout modules. Sources: SSD1306 0.96 in modules carry 4.7 kohm pull-ups and draw
# 20-25 mA with every pixel lit (vendors' figures); PCF8574/TCA9548A modules carry 10 kohm and a
# power LED; the I2C spec caps a pin at 10 pF, plus a few pF of module trace. Ratings: SSD1306
# datasheet 13 (2.5 us cycle: 400 kHz); TCA9548A (TI) 400 kHz; MCP23017 (Microchip) 1.7 MHz;
# PCF8574: NXP's datasheet rates it 100 kHz (Standard-mode), TI's current one 400 kHz, and
# cheap modules carry either, so 100 kHz unless board.json says "max_hz": 400000.
OLED = Module(4700, 15, 25, "SSD1306")
# The 1.3 in SH1106 module: the same 4-pin board layout and pull-ups; the SH1106 datasheet (V2.6,
# features) rates its I2C at 400 kHz. Current: no vendor figure found; 30 mA with every pixel lit
# is an estimate (the 0.96 in module's 25 mA, the same 128x64 pixels on a larger glass).
OLED_13 = Module(4700, 15, 30, "SH1106")
OLEDS = {"ssd1306": OLED, "sh1106": OLED_13}  # by board.json's "panel"
PCF8574 = Module(10_000, 15, 2.5, "PCF8574", 100_000)  # chip 10 uA + power LED
PCF8574A = replace(PCF8574, part="PCF8574A")
MCP23017 = Module(10_000, 15, 3, "MCP23017")  # chip 1 mA + power LED; 1.7 MHz > the bus's cap
MUX = Module(10_000, 20, 1.5, "TCA9548A")  # upstream pull-ups; the switch adds its own pF
# DS3231 modules (the common ZS-042) carry 4.7 kohm pull-ups and a power LED; the chip is a
# 400 kHz part and draws 0.2 mA (Maxim 19-5170).
RTC = Module(4700, 15, 2.2, "DS3231")
PICO_PIN_PF = 10  # RP2040 pad plus the Pico's trace
# HX711 datasheet: 1.5 mA operating; plus the bridge: a 1 kohm bar cell across AVDD (~3.2 V when
# the module is fed 3.3 V and its regulator sits in dropout).
HX711_MA = 1.5 + 3.2
CABLE_PF_PER_M = 60  # one wire of Cat5e against its pair: 52 pF/m, rounded up; ribbon is similar

FITTED = "fitted pull-ups"  # the resistors a maker adds at the Pico, a part of their own
EXPANDER_MODULES = {"pcf8574": PCF8574, "pcf8574a": PCF8574A, "mcp23017": MCP23017}


@dataclass(frozen=True)
class Segment:
    """What one I2C transfer sees: the parts on it and the station cables hanging off it."""

    name: str
    freq: int
    modules: tuple[Module, ...]
    cables: int

    def pullup_ohm(self) -> float | None:
        ups = [m.pullup_ohm for m in self.modules if m.pullup_ohm]
        return 1 / sum(1 / r for r in ups) if ups else None

    def fixed_pf(self) -> float:
        return PICO_PIN_PF + sum(m.pf for m in self.modules)

    def limit_ns(self) -> int:
        return RISE_LIMIT_NS[100_000] if self.freq <= 100_000 else RISE_LIMIT_NS[400_000]


def stated(module: Module, part: dict) -> Module:
    """The module as the board file states it: its pull-ups ("pullup_ohm", null for none)
    and its chip's rated speed ("max_hz"), where given."""
    if "pullup_ohm" in part:
        module = replace(module, pullup_ohm=part["pullup_ohm"])
    if "max_hz" in part:
        module = replace(module, rated_hz=part["max_hz"], stated=True)
    return module


def oled_module(oled: dict) -> Module:
    """The module of the panel board.json names, as it states it."""
    return stated(OLEDS[oled["panel"]], oled)


def fitted(bus: dict) -> list[Module]:
    """The pull-up resistors the board file says are fitted at the Pico, as a part."""
    ohm = bus.get("pullup_ohm")
    return [Module(ohm, 0, 0, FITTED)] if ohm else []


def _place_modules(b: board.Board, place: dict) -> list[Module]:
    mods = [oled_module(place["oled"])]
    expander = (place.get("buttons") or {}).get("expander")
    if expander:
        mods.append(stated(EXPANDER_MODULES[expander["chip"]], expander))
    return mods


def segments(b: board.Board, stations: int) -> list[Segment]:
    """Every bus, or with a mux every channel as the Pico sees it when that channel is on.
    Each station hangs on its own cable; the table display and the mux sit in the hub box."""
    used = list(enumerate(b.stations_for(stations), 1))
    out = []
    for bus_id, bus in sorted(b.i2c.items()):
        upstream: list[Module] = fitted(bus)
        cables = 0
        if b.mux and b.mux["bus"] == bus_id:
            upstream.append(stated(MUX, b.mux))
        if b.table and b.table["bus"] == bus_id and b.table["channel"] is None:
            upstream.append(oled_module(b.table["oled"]))
        if b.rtc and b.rtc["bus"] == bus_id and b.rtc["channel"] is None:
            upstream.append(stated(RTC, b.rtc))
        for _, s in used:
            if s["bus"] == bus_id and s["channel"] is None:
                upstream += _place_modules(b, s)
                cables += 1
        places = [s for _, s in used] + [p for p in (b.table, b.rtc) if p]
        channels = sorted({p["channel"] for p in places
                           if p["bus"] == bus_id and p["channel"] is not None})
        if not channels and (any(m.part != FITTED for m in upstream) or cables):
            out.append(Segment(f"I2C{bus_id}", bus["freq"], tuple(upstream), cables))
        for ch in channels:
            mods = list(upstream)
            n = cables
            for _, s in used:
                if s["bus"] == bus_id and s["channel"] == ch:
                    mods += _place_modules(b, s)
                    n += 1
            if b.table and b.table["bus"] == bus_id and b.table["channel"] == ch:
                mods.append(oled_module(b.table["oled"]))
            if b.rtc and b.rtc["bus"] == bus_id and b.rtc["channel"] == ch:
                mods.append(stated(RTC, b.rtc))
            out.append(Segment(f"I2C{bus_id} mux channel {ch}", bus["freq"], tuple(mods), n))
    return out
