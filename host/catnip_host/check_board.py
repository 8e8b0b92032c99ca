"""Electrical sanity of a board file, before anything is soldered.

    python -m catnip_host.check_board firmware/boards/mux.json --cable 2

`catnip.board` already refuses what the RP2040 cannot do (pins, addresses). This checks what
the parts and cables do to each other: the I2C rise time on each bus segment against the I2C
specification's limit, the pull-up strength, the load on the Pico's 3V3 regulator, and the HX711
wiring. The part figures are typical module values (named below); a finding says which figure it
used so a maker with other modules can redo the sum.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

import click

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
class Finding:
    level: str  # "ok", "note" or "warn"
    topic: str
    text: str


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


def fitted(bus: dict) -> list[Module]:
    """The pull-up resistors the board file says are fitted at the Pico, as a part."""
    ohm = bus.get("pullup_ohm")
    return [Module(ohm, 0, 0, FITTED)] if ohm else []


def _place_modules(b: board.Board, place: dict) -> list[Module]:
    mods = [stated(OLED, place["oled"])]
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
            upstream.append(stated(OLED, b.table["oled"]))
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
                mods.append(stated(OLED, b.table["oled"]))
            if b.rtc and b.rtc["bus"] == bus_id and b.rtc["channel"] == ch:
                mods.append(stated(RTC, b.rtc))
            out.append(Segment(f"I2C{bus_id} mux channel {ch}", bus["freq"], tuple(mods), n))
    return out


def rise_ns(ohm: float, pf: float) -> float:
    return RISE_FACTOR * ohm * pf * 1e-3


def longest_cable_m(seg: Segment, pf_per_m: float) -> float:
    """The longest cable per station that keeps the rise time and bus capacitance in the spec."""
    r = seg.pullup_ohm()
    if r is None or seg.cables == 0:
        return float("inf")
    pf_budget = min(seg.limit_ns() / (RISE_FACTOR * r * 1e-3), MAX_BUS_PF) - seg.fixed_pf()
    return max(pf_budget, 0) / (pf_per_m * seg.cables)


E6 = (1.0, 1.5, 2.2, 3.3, 4.7, 6.8)
MARGIN = 0.8  # aim a fix at 80 % of the limit: module pull-ups and cables vary


def extra_pullup_ohm(seg: Segment, cable_m: float, pf_per_m: float) -> float | None:
    """A standard (E6) resistor to add on SDA and on SCL, at the Pico, that brings the segment's
    rise time under the limit with margin; None when none is needed or none would do."""
    r = seg.pullup_ohm()
    pf = seg.fixed_pf() + seg.cables * cable_m * pf_per_m
    if r is None or rise_ns(r, pf) <= seg.limit_ns():
        return None
    target = seg.limit_ns() * MARGIN / (RISE_FACTOR * pf * 1e-3)
    rp_min = (V_LOGIC - V_OL) / I_OL_MA * 1000
    if target >= r or target < rp_min:
        return None
    wanted = 1 / (1 / target - 1 / r)
    values = [m * 10**k for k in (2, 3, 4) for m in E6]
    fits = [v for v in values if v <= wanted and 1 / (1 / r + 1 / v) >= rp_min]
    return max(fits) if fits else None


def check_segment(seg: Segment, cable_m: float, pf_per_m: float, has_mux: bool) -> Finding:
    """Rise time, capacitance and pull-up strength of one segment, with a fix if it fails."""
    r = seg.pullup_ohm()
    if r is None:
        return Finding("warn", seg.name, "no pull-up on SDA/SCL: the RP2040's internal pull-ups "
                       "(50-80 kohm) are far too weak; fit 4.7 kohm from each to 3V3")
    rp_min = (V_LOGIC - V_OL) / I_OL_MA * 1000
    pf = seg.fixed_pf() + seg.cables * cable_m * pf_per_m
    tr = rise_ns(r, pf)
    longest = longest_cable_m(seg, pf_per_m)
    khz = seg.freq // 1000
    modules = sum(m.part != FITTED for m in seg.modules)
    extra = [m.pullup_ohm for m in seg.modules if m.part == FITTED]
    fitted_text = f" with the fitted {_ohm(extra[0])}" if extra else ""
    what = (f"{modules} modules{fitted_text}, pull-ups {r:,.0f} ohm in parallel, "
            f"{seg.cables} x {cable_m:g} m of cable: {pf:.0f} pF, rise time {tr:.0f} ns "
            f"(limit {seg.limit_ns()} ns at {khz} kHz)")
    if seg.cables:
        what += f"; cables up to {longest:.1f} m each keep {khz} kHz in the spec"
    if r < rp_min:
        return Finding("warn", seg.name, f"{what}. The pull-ups are too strong: below "
                       f"{rp_min:.0f} ohm a part cannot pull the line under {V_OL} V with "
                       f"{I_OL_MA:g} mA; remove the pull-up resistors from some modules")
    if tr <= seg.limit_ns() and pf <= MAX_BUS_PF:
        return Finding("ok", seg.name, what)
    extra = extra_pullup_ohm(seg, cable_m, pf_per_m) if pf <= MAX_BUS_PF else None
    fixes = [f"fit a {_ohm(extra)} resistor from SDA to 3V3 and another from SCL to 3V3 at the "
             "Pico"] if extra else []
    fixes.append(f"keep the cables under {longest:.1f} m")
    if not has_mux and seg.cables > 1:
        fixes.append("put the stations behind a TCA9548A so each cable is a segment of its own "
                     "(the mux layout)")
    if seg.freq > 100_000:
        fixes.append("set this bus's freq to 100000")
    return Finding("warn", seg.name, f"{what}. Too slow: " + ", or ".join(fixes))


def _merged(findings: list[Finding]) -> list[Finding]:
    """Mux channels that come out alike, said once: 'I2C0 mux channels 0-7'."""
    out: list[tuple[Finding, list[str]]] = []
    for f in findings:
        bus, _, channel = f.topic.partition(" mux channel ")
        last = out[-1] if out else None
        if (channel and last and last[0].level == f.level and last[0].text == f.text
                and last[0].topic.startswith(bus + " mux channel ")):
            last[1].append(channel)
        else:
            out.append((f, [channel] if channel else []))
    merged = []
    for f, channels in out:
        if len(channels) > 1:
            bus = f.topic.partition(" mux channel ")[0]
            f = Finding(f.level, f"{bus} mux channels {channels[0]}-{channels[-1]}", f.text)
        merged.append(f)
    return merged


def check_i2c(b: board.Board, stations: int, cable_m: float, pf_per_m: float) -> list[Finding]:
    found = _merged([check_segment(seg, cable_m, pf_per_m, b.mux is not None)
                     for seg in segments(b, stations)])
    if b.mux is None and len(b.stations_for(stations)) > 2:
        found.append(Finding("note", "I2C", "without a mux every cable on a bus adds to that "
                             "bus's capacitance, and an SSD1306 has only two addresses; behind "
                             "a TCA9548A each station's cable is a segment of its own, switched "
                             "in only while it is used"))
    return found


def check_speed(b: board.Board, stations: int) -> list[Finding]:
    """Each bus's clock against the rating of every chip on it: the slowest part sets the
    pace, and a PCF8574 is 100 kHz unless board.json says which one it is."""
    found = []
    segs = segments(b, stations)
    for bus_id, bus in sorted(b.i2c.items()):
        parts = {(m.part, m.rated_hz, m.stated): m for seg in segs
                 if seg.name.split(" ")[0] == f"I2C{bus_id}" for m in seg.modules
                 if m.part != FITTED}
        if not parts:
            continue
        khz = bus["freq"] // 1000
        rated = ", ".join(sorted({f"{part} {hz // 1000} kHz" + (" (as board.json states)"
                                                                 if said else "")
                                  for part, hz, said in parts}))
        slow = sorted({part for part, hz, _ in parts if hz < bus["freq"]})
        if not slow:
            found.append(Finding("ok", f"I2C{bus_id} speed", f"{khz} kHz is within every part's "
                                 f"rating: {rated}"))
            continue
        fix = f"set this bus's freq to {min(hz for _, hz, _ in parts)}"
        if any(part.startswith("PCF8574") for part in slow):
            fix += (", or, if your expanders are TI's PCF8574 (rated 400 kHz; NXP's is 100 kHz "
                    "and modules carry either: the maker's logo on the chip tells), say "
                    "\"max_hz\": 400000 on each expander in board.json")
        found.append(Finding("warn", f"I2C{bus_id} speed", f"the bus runs at {khz} kHz, faster "
                             f"than {', '.join(slow)} is rated for ({rated}): {fix}"))
    return found


def _ohm(value: float) -> str:
    return f"{value / 1000:g} kohm" if value >= 1000 else f"{value:g} ohm"


def check_power(b: board.Board, stations: int, oled_ma: float = OLED.ma) -> list[Finding]:
    used = b.stations_for(stations)
    loads = [("RP2040", RP2040_MA, 1)]
    screens = len(used) + (1 if b.table else 0)
    loads.append(("SSD1306 modules, every pixel lit", oled_ma, screens))
    for chip, module in sorted(EXPANDER_MODULES.items()):
        n = sum(1 for s in used if (s["buttons"].get("expander") or {}).get("chip") == chip)
        if n:
            loads.append((f"{chip.upper()} modules", module.ma, n))
    if b.mux:
        loads.append(("TCA9548A module", MUX.ma, 1))
    if b.tray:
        loads.append(("HX711 with a 1 kohm bridge", HX711_MA, len(b.tray["cells"])))
    if b.rtc:
        loads.append(("DS3231 module", RTC.ma, 1))
    total = sum(ma * n for _, ma, n in loads)
    parts = ", ".join(f"{n} x {name} {ma:g} mA" for name, ma, n in loads)
    text = (f"{total:.0f} mA of the {REGULATOR_MA} mA the Pico's 3V3 regulator should supply "
            f"({parts})")
    if total > REGULATOR_MA:
        return [Finding("warn", "power", text + ". Too much: feed the OLED modules from VBUS "
                        "(5 V, their own regulator makes 3.3 V) and check that SDA/SCL still idle "
                        "at 3.3 V, or add a 3.3 V regulator for the stations")]
    level = "note" if total > 0.8 * REGULATOR_MA else "ok"
    extra = (". Close to the limit: dark screens (the usual) draw half of this, but an all-lit "
             "screen on every station at once would not leave much" if level == "note" else "")
    return [Finding(level, "power", text + extra)]


def check_logic(b: board.Board) -> list[Finding]:
    found = [Finding("note", "3.3 V logic", "the RP2040's pins are not 5 V tolerant: power every "
                     "module from the Pico's 3V3 (pin 36), or make sure its pull-ups and outputs "
                     "go to 3.3 V. PCF8574, TCA9548A and HX711 modules work at 3.3 V")]
    if b.buzzer:
        found.append(Finding("note", "buzzer", f"GP{b.buzzer['pin']} drives the buzzer directly: "
                             "use a piezo (a few mA); a magnetic buzzer draws 30 mA or more and "
                             "needs a transistor"))
    return found


def check_tray(b: board.Board) -> list[Finding]:
    if not b.tray:
        return []
    cells = b.tray["cells"]
    rate = b.tray["rate"]
    found = [Finding("note", "HX711 supply", "feed each HX711 module's VCC (and VDD, where it has "
                     "one) from 3V3 so DOUT swings to 3.3 V; the counts do not change with the "
                     "supply, because the bridge is excited from the same AVDD the ADC measures "
                     "against"),
             Finding("note", "HX711 grounding", "run each cell's four wires, short and twisted, "
                     "straight to its HX711; join the HX711 grounds to the Pico's GND at one "
                     "point, away from the USB cable and the station cables")]
    if rate == 80:
        found.append(Finding("note", "HX711 RATE", f"board says {rate} readings/s: the RATE pin "
                             "of every HX711 must be tied to its DVDD (3.3 V). Most modules tie "
                             "it to GND with a trace: cut it, or the driver reports WRONG_RATE. "
                             "80/s gives up the HX711's 50/60 Hz mains rejection, so keep mains "
                             "cables away"))
    else:
        found.append(Finding("ok", "HX711 RATE", f"board says {rate} readings/s: RATE tied to GND, "
                             "as most modules come; this rate also rejects 50/60 Hz mains hum"))
    if len(cells) > 1:
        found.append(Finding("note", "HX711 clock", f"{len(cells)} HX711s share PD_SCK on "
                             f"GP{cells[0]['sck']}: one pin drives them all easily, but keep that "
                             "wire short; a clock held high over 60 us powers the chips down"))
    return found


def check(b: board.Board, stations: int | None = None, cable_m: float = 1.0,
          pf_per_m: float = CABLE_PF_PER_M, oled_ma: float = OLED.ma) -> list[Finding]:
    n = len(b.stations) if stations is None else stations
    return (check_logic(b) + check_i2c(b, n, cable_m, pf_per_m) + check_speed(b, n)
            + check_power(b, n, oled_ma) + check_tray(b))


_MARK = {"ok": "ok  ", "note": "note", "warn": "WARN"}


@click.command("check-board")
@click.argument("board_name", metavar="BOARD")
@click.option("--cable", "cable_m", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="Length of each station's cable, in metres.")
@click.option("--cable-pf", "pf_per_m", type=click.FloatRange(min=1), default=CABLE_PF_PER_M,
              show_default=True, help="Capacitance of one cable wire, pF per metre.")
@click.option("--stations", type=click.IntRange(min=1), default=None,
              help="Check only the first N stations (default: every station in the file).")
@click.option("--oled-ma", type=click.FloatRange(min=0), default=OLED.ma, show_default=True,
              help="Worst current of one OLED module, mA (larger panels draw more).")
def main(board_name: str, cable_m: float, pf_per_m: float, stations: int | None,
         oled_ma: float) -> None:
    """Check a BOARD's electrics (a shipped board: direct, mux; or a board.json path): I2C
    rise times, pull-ups, 3V3 power, HX711 wiring.
    Exits 1 when a finding is a warning, 2 when the board file itself is wrong."""
    from catnip_host.sim.paths import SimError, board_file

    try:
        path = board_file(board_name)
    except SimError as e:
        click.echo(str(e), err=True)
        sys.exit(2)
    try:
        b = board.load(str(path))
    except board.BoardError as e:
        click.echo(f"{path}: {e}", err=True)
        sys.exit(2)
    if stations is not None and stations > len(b.stations):
        raise click.BadParameter(f"{path} lists {len(b.stations)} stations, not {stations}",
                                 param_hint="--stations")
    findings = check(b, stations, cable_m, pf_per_m, oled_ma)
    click.echo(f"{path} ({b.name}, {stations or len(b.stations)} stations, "
               f"{cable_m:g} m cables at {pf_per_m:g} pF/m)")
    for f in findings:
        click.echo(f"{_MARK[f.level]} {f.topic}: {f.text}")
    warnings = sum(f.level == "warn" for f in findings)
    click.echo(f"{warnings} warning{'s' if warnings != 1 else ''}")
    if warnings:
        sys.exit(1)


if __name__ == "__main__":
    main()
