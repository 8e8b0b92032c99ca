"""Bills of materials counted from a board file, for every number of stations it can serve.

The quantities come from the board config (screens, buttons, expanders, mux, load cells, buzzer)
plus what every build needs around them (cables and connectors per station, boxes, the tray's
plates). Prices are indicative single-unit prices from hobby suppliers, written down in
PRICED_ON; they move, so the tables say so.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass

from catnip import board

from catnip_host import check_board, loadcell

PRICED_ON = "2026-12"
CURRENCY = "USD"
FIRST_COUNT = 2  # every game needs two players
CABLE_M = 1.0  # the patch cable listed below


@dataclass(frozen=True)
class Part:
    name: str
    unit: float  # indicative price in CURRENCY
    order: str  # a manufacturer part number, or a search term no supplier misreads
    drawn: str = ""  # the words naming it in hardware/wiring-*.svg or station-*.svg; "" if not wired


PARTS = {
    "pico": Part("Raspberry Pi Pico H (RP2040, header pins fitted)", 5.00,
                 "Raspberry Pi SC0917 (Pico H)", "Raspberry Pi Pico"),
    "oled": Part("SSD1306 OLED module, I2C, 128x64, 0.96 in (4 pins, address jumper 0x3C/0x3D)",
                 3.50, "search: 0.96 inch OLED 128x64 SSD1306 I2C 4 pin module", "SSD1306"),
    "oled32": Part("SSD1306 OLED module, I2C, 128x32, 0.91 in (4 pins)", 3.00,
                   "search: 0.91 inch OLED 128x32 SSD1306 I2C module", "SSD1306"),
    # the larger alternative: "panel": "sh1106" on the oled in board.json
    "oled13": Part("SH1106 OLED module, I2C, 128x64, 1.3 in (4 pins, address jumper 0x3C/0x3D)",
                   5.00, "search: 1.3 inch OLED 128x64 SH1106 I2C 4 pin module", "SH1106"),
    "button": Part("tactile push button, 12 x 12 mm, with cap", 0.20,
                   "Omron B3F-4055 (12 x 12 mm, 7.3 mm projected plunger, 2.55 N) with a round "
                   "cap up to 12 mm across; "
                   "search: 12x12x7.3 tactile switch round cap", "(to GND)"),
    "pcf8574": Part("PCF8574 I/O expander module, TI's chip (400 kHz; address jumpers, INT pin)",
                    1.80, "search: PCF8574 IO expansion board I2C INT (chip marked TI PCF8574)",
                    "PCF8574"),
    "pcf8574a": Part("PCF8574A I/O expander module (address jumpers, INT pin)", 1.80,
                     "search: PCF8574A IO expansion board I2C INT", "PCF8574A"),
    "mcp23017": Part("MCP23017 I/O expander module", 2.50,
                     "search: MCP23017 I2C module (chip Microchip MCP23017-E/SP)", "MCP23017"),
    "mux": Part("TCA9548A I2C multiplexer module", 2.50,
                "Adafruit 2717 (TCA9548A breakout); search: TCA9548A I2C multiplexer module",
                "TCA9548A"),
    "hx711": Part("HX711 load-cell amplifier module (RATE pin or jumper reachable)", 1.20,
                  "search: HX711 load cell amplifier module (check for a RATE pad)", "HX711"),
    "buzzer": Part("passive piezo buzzer (no built-in oscillator), 3.3 V", 0.40,
                   "Murata PKM17EPPH4001-B0 (older listings: PKM17EPP-4001-B0); "
                   "search: passive piezo buzzer 3.3V", "buzzer"),
    "cable": Part("Cat5e patch cable, 1 m, per station (8 wires: see the wiring)", 1.50,
                  "search: Cat5e patch cable 1 m (T568B, straight)", "Cat5e"),
    "rj45": Part("RJ45 socket breakout with screw terminals", 1.20,
                 "search: RJ45 8P8C breakout board screw terminal", "RJ45 breakout"),
    "perfboard": Part("perfboard, 50 x 70 mm", 0.40,
                      "search: 5x7 cm prototype PCB 2.54 mm double sided"),
    "headers": Part("female header strip, 2.54 mm, 40 pins (cut to fit the modules)", 0.40,
                    "search: 2.54 mm female pin header 1x40"),
    "station_box": Part("station enclosure: printed (hardware/stl/station-*.stl), or an ABS box "
                        "at least 94 x 62 x 28 mm", 2.00,
                        "print hardware/stl/station-box.stl and station-lid.stl; 4 M3 x 8 "
                        "self-tapping screws"),
    "hub_box": Part("hub enclosure for the Pico: printed (hardware/stl/hub-*.stl), or an ABS box "
                    "about 120 x 80 x 40 mm", 4.00,
                    "print hardware/stl/hub-box-4.stl and hub-lid-4.stl (hub-*-8.stl for 5 to "
                    "8 stations); M2 x 6 and M3 x 8 self-tapping screws"),
    "usb": Part("micro-USB cable, data capable", 2.00, "search: micro USB data cable 1 m"),
    "wire": Part("hook-up wire, 22 AWG solid, assorted colours", 4.00,
                 "search: 22 AWG solid core hook-up wire kit"),
    "plates": Part("tray plate, 3 mm plywood or acrylic, about 200 x 200 mm (cut to size)", 1.50,
                   "search: 3 mm plywood sheet 200 x 200; or print hardware/stl/tray-*.stl"),
    "cell_screws": Part("M4/M5 screws, nuts and a 3 mm spacer for one bar cell", 1.00,
                        "2 x M4 x 12 and 2 x M5 x 12 screws with nuts; print "
                        "hardware/stl/tray-spacer.stl"),
}

# The optional clock (hardware/README.md): listed for every board, counted apart.
CLOCK = {
    "rtc": Part("DS3231 real-time clock module (ZS-042 or similar, CR2032 holder)", 1.50,
                "search: DS3231 ZS-042 RTC module (chip Analog Devices DS3231SN)", "DS3231"),
    "cell_cr2032": Part("CR2032 coin cell (or LIR2032 where the module charges it)", 0.50,
                        "search: CR2032 3V lithium coin cell", "CR2032"),
}


_OLED_KEYS = {("ssd1306", 64): "oled", ("ssd1306", 32): "oled32", ("sh1106", 64): "oled13"}


def cell_part(capacity_g: int) -> Part:
    rated = f"{capacity_g // 1000} kg" if capacity_g % 1000 == 0 else f"{capacity_g} g"
    return Part(f"bar load cell, {capacity_g:,} g, 1 mV/V, full bridge (4 wires)", 3.50,
                f"search: {rated} straight bar load cell 80 x 12.7 mm",
                "load cell")


def resistor_part(ohm: float) -> Part:
    value = check_board._ohm(ohm)
    return Part(f"resistor, {value}, 1/4 W (extra I2C pull-up at the hub)", 0.05,
                f"search: {value.replace(' ', '')} 1/4W metal film resistor", value)


def station_counts(b: board.Board) -> range:
    return range(FIRST_COUNT, len(b.stations) + 1)


def quantities(b: board.Board, stations: int,
               tower: loadcell.Tower = loadcell.Tower()) -> Counter[str]:
    """Every part, by key (a PARTS key or 'cell <capacity>'), for the board's first `stations`."""
    used = b.stations_for(stations)
    q: Counter[str] = Counter(pico=1, hub_box=1, usb=1, wire=1, perfboard=1, headers=1)
    screens = [s["oled"] for s in used] + ([b.table["oled"]] if b.table else [])
    for oled in screens:
        q[_OLED_KEYS[oled["panel"], oled["height"]]] += 1
    for s in used:
        q["button"] += len(board.BUTTONS)
        expander = s["buttons"].get("expander")
        if expander:
            q[expander["chip"]] += 1
        q.update(cable=1, rj45=2, perfboard=1, headers=1, station_box=1)
    if b.mux:
        q["mux"] += 1
    # The pull-ups board.json says are fitted, one on SDA and one on SCL of each bus in use.
    segments = check_board.segments(b, stations)
    for bus_id, bus in b.i2c.items():
        if bus.get("pullup_ohm") and any(s.name.split(" ")[0] == f"I2C{bus_id}" for s in segments):
            q[f"resistor {bus['pullup_ohm']:g}"] += 2
    # The pull-ups the full board needs also serve fewer stations, so a table can grow.
    full = {seg.name: _extra_pullup(seg) for seg in check_board.segments(b, len(b.stations))}
    for seg in segments:
        extra = full.get(seg.name) or _extra_pullup(seg)
        if extra:
            q[f"resistor {extra:g}"] += 2  # one on SDA, one on SCL
    if b.tray:
        cells = len(b.tray["cells"])
        q["hx711"] += cells
        q[f"cell {loadcell.choose_capacity(tower, cells)}"] += cells
        q["cell_screws"] += cells
        q["plates"] += 2
    if b.buzzer:
        q["buzzer"] += 1
    if b.rtc:
        q.update(rtc=1, cell_cr2032=1)
    return q


def _extra_pullup(seg: check_board.Segment) -> float | None:
    return check_board.extra_pullup_ohm(seg, CABLE_M, check_board.CABLE_PF_PER_M)


def _part(key: str) -> Part:
    kind, _, value = key.partition(" ")
    if kind == "cell":
        return cell_part(int(value))
    if kind == "resistor":
        return resistor_part(float(value))
    return PARTS.get(key) or CLOCK[key]


@dataclass(frozen=True)
class Row:
    part: Part
    qty: list[int]  # per station count
    needed: bool  # False: optional, left out of the totals


def table(b: board.Board) -> tuple[list[int], list[Row], list[float]]:
    """Station counts, each part with its quantity per count (the optional clock last, unless
    the board has one), and the total of the needed parts per count."""
    counts = list(station_counts(b))
    per_count = [quantities(b, n) for n in counts]
    order = list(PARTS) + sorted(k for q in per_count for k in q if " " in k) + list(CLOCK)
    keys = [k for k in dict.fromkeys(order) if any(q[k] for q in per_count)]
    rows = [Row(_part(k), [q[k] for q in per_count], True) for k in keys]
    if not b.rtc:
        rows += [Row(part, [1] * len(counts), False) for part in CLOCK.values()]
    totals = [sum(r.part.unit * r.qty[i] for r in rows if r.needed) for i in range(len(counts))]
    return counts, rows, totals


def bom_csv(b: board.Board) -> str:
    counts, rows, totals = table(b)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["part", "manufacturer part number or search term", "needed",
                f"unit {CURRENCY} (indicative, {PRICED_ON})"]
               + [f"qty for {n} stations" for n in counts])
    for r in rows:
        w.writerow([r.part.name, r.part.order, "yes" if r.needed else "optional",
                    f"{r.part.unit:.2f}"] + r.qty)
    w.writerow([f"total {CURRENCY} (indicative, {PRICED_ON}; optional parts left out)", "", "",
                ""] + [f"{t:.2f}" for t in totals])
    return out.getvalue()


def bom_markdown(b: board.Board) -> str:
    counts, rows, totals = table(b)
    head = ["part", "order by", f"{CURRENCY} each"] + [f"{n} st." for n in counts]
    lines = [f"**{b.name}**: quantities for {counts[0]} to {counts[-1]} stations "
             f"(`hardware/bom-{b.name}.csv`)", "",
             "| " + " | ".join(head) + " |", "| --- | --- " + "| ---: " * (len(head) - 2) + "|"]
    for r in rows:
        name = r.part.name if r.needed else f"*optional:* {r.part.name}"
        lines.append(f"| {name} | {r.part.order} | {r.part.unit:.2f} | "
                     + " | ".join(map(str, r.qty)) + " |")
    lines.append(f"| **total, indicative ({PRICED_ON})**, optional parts left out | | | "
                 + " | ".join(f"**{t:.2f}**" for t in totals) + " |")
    return "\n".join(lines) + "\n"
