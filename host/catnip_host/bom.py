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


PARTS = {
    "pico": Part("Raspberry Pi Pico H (RP2040, header pins fitted)", 5.00),
    "oled": Part("SSD1306 OLED module, I2C, 128x64, 0.96 in (4 pins, address jumper 0x3C/0x3D)",
                 3.50),
    "oled32": Part("SSD1306 OLED module, I2C, 128x32, 0.91 in (4 pins)", 3.00),
    "button": Part("tactile push button, 12 x 12 mm, with cap", 0.20),
    "pcf8574": Part("PCF8574 I/O expander module, TI's chip (400 kHz; address jumpers, INT pin)",
                    1.80),
    "pcf8574a": Part("PCF8574A I/O expander module (address jumpers, INT pin)", 1.80),
    "mcp23017": Part("MCP23017 I/O expander module", 2.50),
    "mux": Part("TCA9548A I2C multiplexer module", 2.50),
    "hx711": Part("HX711 load-cell amplifier module (RATE pin or jumper reachable)", 1.20),
    "buzzer": Part("passive piezo buzzer (no built-in oscillator), 3.3 V", 0.40),
    "cable": Part("Cat5e patch cable, 1 m, per station (8 wires: see the wiring)", 1.50),
    "rj45": Part("RJ45 socket breakout with screw terminals", 1.20),
    "perfboard": Part("perfboard, 50 x 70 mm", 0.40),
    "headers": Part("female header strip, 2.54 mm, 40 pins (cut to fit the modules)", 0.40),
    "station_box": Part("station enclosure, ABS box about 85 x 56 x 30 mm", 2.00),
    "hub_box": Part("hub enclosure for the Pico, ABS box about 120 x 80 x 40 mm", 4.00),
    "usb": Part("micro-USB cable, data capable", 2.00),
    "wire": Part("hook-up wire, 22 AWG solid, assorted colours", 4.00),
    "plates": Part("tray plate, 3 mm plywood or acrylic, about 200 x 200 mm (cut to size)", 1.50),
    "cell_screws": Part("M4/M5 screws, nuts and a 3 mm spacer for one bar cell", 1.00),
}


def cell_part(capacity_g: int) -> Part:
    return Part(f"bar load cell, {capacity_g:,} g, 1 mV/V, full bridge (4 wires)", 3.50)


def resistor_part(ohm: float) -> Part:
    return Part(f"resistor, {check_board._ohm(ohm)}, 1/4 W (extra I2C pull-up at the hub)", 0.05)


def station_counts(b: board.Board) -> range:
    return range(FIRST_COUNT, len(b.stations) + 1)


def quantities(b: board.Board, stations: int,
               tower: loadcell.Tower = loadcell.Tower()) -> Counter[str]:
    """Every part, by key (a PARTS key or 'cell <capacity>'), for the board's first `stations`."""
    used = b.stations_for(stations)
    q: Counter[str] = Counter(pico=1, hub_box=1, usb=1, wire=1, perfboard=1, headers=1)
    screens = [s["oled"] for s in used] + ([b.table["oled"]] if b.table else [])
    for oled in screens:
        q["oled" if oled["height"] == 64 else "oled32"] += 1
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
    return q


def _extra_pullup(seg: check_board.Segment) -> float | None:
    return check_board.extra_pullup_ohm(seg, CABLE_M, check_board.CABLE_PF_PER_M)


def _part(key: str) -> Part:
    kind, _, value = key.partition(" ")
    if kind == "cell":
        return cell_part(int(value))
    if kind == "resistor":
        return resistor_part(float(value))
    return PARTS[key]


def table(b: board.Board) -> tuple[list[int], list[tuple[Part, list[int]]], list[float]]:
    """Station counts, each part with its quantity per count, and the total per count."""
    counts = list(station_counts(b))
    per_count = [quantities(b, n) for n in counts]
    order = list(PARTS) + sorted(k for q in per_count for k in q if " " in k)
    keys = [k for k in dict.fromkeys(order) if any(q[k] for q in per_count)]
    rows = [(_part(k), [q[k] for q in per_count]) for k in keys]
    totals = [sum(part.unit * qty[i] for part, qty in rows) for i in range(len(counts))]
    return counts, rows, totals


def bom_csv(b: board.Board) -> str:
    counts, rows, totals = table(b)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["part", f"unit {CURRENCY} (indicative, {PRICED_ON})"]
               + [f"qty for {n} stations" for n in counts])
    for part, qty in rows:
        w.writerow([part.name, f"{part.unit:.2f}"] + qty)
    w.writerow([f"total {CURRENCY} (indicative, {PRICED_ON})", ""] + [f"{t:.2f}" for t in totals])
    return out.getvalue()


def bom_markdown(b: board.Board) -> str:
    counts, rows, totals = table(b)
    head = ["part", f"{CURRENCY} each"] + [f"{n} st." for n in counts]
    lines = [f"**{b.name}**: quantities for {counts[0]} to {counts[-1]} stations "
             f"(`hardware/bom-{b.name}.csv`)", "",
             "| " + " | ".join(head) + " |", "| --- " + "| ---: " * (len(head) - 1) + "|"]
    for part, qty in rows:
        lines.append(f"| {part.name} | {part.unit:.2f} | " + " | ".join(map(str, qty)) + " |")
    lines.append(f"| **total, indicative ({PRICED_ON})** | | "
                 + " | ".join(f"**{t:.2f}**" for t in totals) + " |")
    return "\n".join(lines) + "\n"
