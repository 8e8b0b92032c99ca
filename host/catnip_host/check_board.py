"""Electrical sanity of a board file, before anything is soldered.

    python -m catnip_host.check_board firmware/boards/mux.json --cable 2

`catnip.board` already refuses what the RP2040 cannot do (pins, addresses). This checks what
the parts and cables do to each other: the I2C rise time on each bus segment against the I2C
specification's limit, the pull-up strength, the load on the Pico's 3V3 regulator, and the HX711
wiring. The part figures are typical module values (named in catnip_host.board_parts); a finding says which figure it
used so a maker with other modules can redo the sum.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import click

from catnip import board
from catnip_host.board_parts import (CABLE_PF_PER_M, EXPANDER_MODULES, FITTED, HX711_MA,
                                     I_OL_MA, MAX_BUS_PF, MUX, OLEDS, REGULATOR_MA, RISE_FACTOR,
                                     RP2040_MA, RTC, V_LOGIC, V_OL, Segment, segments)


@dataclass(frozen=True)
class Finding:
    level: str  # "ok", "note" or "warn"
    topic: str
    text: str


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
    fitted = [m.pullup_ohm for m in seg.modules if m.part == FITTED and m.pullup_ohm]
    fitted_text = f" with the fitted {_ohm(fitted[0])}" if fitted else ""
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


def check_power(b: board.Board, stations: int, oled_ma: float | None = None) -> list[Finding]:
    """oled_ma: every OLED module's worst current; None: each panel's typical figure."""
    used = b.stations_for(stations)
    loads: list[tuple[str, float, int]] = [("RP2040", RP2040_MA, 1)]
    oleds = [s["oled"] for s in used] + ([b.table["oled"]] if b.table else [])
    for panel, module in OLEDS.items():
        n = sum(1 for oled in oleds if oled["panel"] == panel)
        if n:
            loads.append((f"{module.part} modules, every pixel lit",
                           module.ma if oled_ma is None else oled_ma, n))
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
          pf_per_m: float = CABLE_PF_PER_M, oled_ma: float | None = None) -> list[Finding]:
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
@click.option("--oled-ma", type=click.FloatRange(min=0), default=None,
              help="Worst current of one OLED module, mA (default: each panel's typical "
              "figure, " + ", ".join(f"{m.part} {m.ma:g}" for m in OLEDS.values()) + ").")
@click.option("--json", "as_json", is_flag=True, help="print the findings as JSON (same exit "
              "codes; a board file that is wrong is still said on stderr)")
def main(board_name: str, cable_m: float, pf_per_m: float, stations: int | None,
         oled_ma: float | None, as_json: bool) -> None:
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
    warnings = sum(f.level == "warn" for f in findings)
    if as_json:
        click.echo(json.dumps({
            "board": str(path), "name": b.name, "stations": stations or len(b.stations),
            "cable_m": cable_m, "cable_pf_per_m": pf_per_m, "warnings": warnings,
            "findings": [{"level": f.level, "topic": f.topic, "text": f.text}
                         for f in findings]}, indent=1))
    else:
        click.echo(f"{path} ({b.name}, {stations or len(b.stations)} stations, "
                   f"{cable_m:g} m cables at {pf_per_m:g} pF/m)")
        for f in findings:
            click.echo(f"{_MARK[f.level]} {f.topic}: {f.text}")
        click.echo(f"{warnings} warning{'s' if warnings != 1 else ''}")
    if warnings:
        sys.exit(1)


if __name__ == "__main__":
    main()
