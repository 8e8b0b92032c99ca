"""Wiring tables (docs/hardware.md) and parts lists (hardware/README.md),
drawn from a board config so the documentation cannot drift from
firmware/boards/*.json. `python -m catnip_host.wiring --write` refreshes both."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from catnip import board

BOARDS = Path(board.__file__).resolve().parent.parent / "boards"
ROOT = BOARDS.parent.parent


def wiring_markdown(b: board.Board) -> str:
    """Markdown tables: every Pico pin the board uses, then every I2C part."""
    pins: list[tuple[int, str]] = []
    for bus_id, bus in sorted(b.i2c.items()):
        pins += [(bus["sda"], f"I2C{bus_id} SDA"), (bus["scl"], f"I2C{bus_id} SCL")]
    if b.mux and b.mux["reset"] is not None:
        pins.append((b.mux["reset"], "TCA9548A RESET (active low)"))
    shared_int: dict[int, list[str]] = {}
    for i, s in enumerate(b.stations, 1):
        buttons = s["buttons"]
        if "gpio" in buttons:
            pins += [(buttons["gpio"][n], f"station {i} button {n} (to GND)") for n in board.BUTTONS]
        elif buttons["expander"]["int"] is not None:
            shared_int.setdefault(buttons["expander"]["int"], []).append(str(i))
    for gp, users in shared_int.items():
        pins.append((gp, f"expander INT of stations {', '.join(users)} (open drain, shared)"))
    if b.tray:
        clocks: dict[int, list[str]] = {}
        for i, cell in enumerate(b.tray["cells"], 1):
            pins.append((cell["dout"], f"HX711 {i} DOUT"))
            clocks.setdefault(cell["sck"], []).append(str(i))
        pins += [(gp, f"HX711 {', '.join(c)} PD_SCK") for gp, c in clocks.items()]
    if b.buzzer:
        pins.append((b.buzzer["pin"], "buzzer (PWM)"))
    lines = [f"**{b.name}**: {b.about}", "", "| Pico pin | goes to |", "| --- | --- |"]
    lines += [f"| GP{gp} | {what} |" for gp, what in sorted(pins)]
    lines += ["", "| I2C bus | mux channel | address | part |", "| --- | --- | --- | --- |"]
    lines += [f"| {bus} | {channel} | 0x{addr:02X} | {part} |" for bus, channel, addr, part in _parts(b)]
    return "\n".join(lines) + "\n"


def _parts(b: board.Board) -> list[tuple[int, str, int, str]]:
    parts = []
    if b.mux:
        parts.append((b.mux["bus"], "-", b.mux["addr"], "TCA9548A I2C multiplexer"))
    places = [(f"station {i}", s) for i, s in enumerate(b.stations, 1)]
    if b.table:
        places.append(("table display", b.table))
    for name, place in places:
        channel = "-" if place["channel"] is None else str(place["channel"])
        oled = place["oled"]
        parts.append((place["bus"], channel, oled["addr"], f"{name} SSD1306 128x{oled['height']}"))
        expander = (place.get("buttons") or {}).get("expander")
        if expander:
            parts.append((place["bus"], channel, expander["addr"],
                          f"{name} {expander['chip'].upper()} buttons"))
    return sorted(parts, key=lambda p: (p[0], p[1], p[2]))


def parts_markdown(b: board.Board) -> str:
    """A parts list for one board, counted from its config."""
    parts: Counter[str] = Counter({"Raspberry Pi Pico (RP2040), with header pins": 1})
    screens = [s["oled"] for s in b.stations] + ([b.table["oled"]] if b.table else [])
    for oled in screens:
        size = "0.96 in" if oled["height"] == 64 else "0.91 in"
        parts[f"SSD1306 OLED module, I2C, 128x{oled['height']} ({size})"] += 1
    for s in b.stations:
        parts["tactile push button, 6 mm"] += len(board.BUTTONS)
        expander = s["buttons"].get("expander")
        if expander:
            parts[f"{expander['chip'].upper()} I/O expander module"] += 1
    if b.mux:
        parts["TCA9548A I2C multiplexer module"] += 1
    if b.tray:
        # A tower of wooden cats weighs a few hundred grams: a 1 kg cell keeps
        # one cat at thousands of counts; each cell has its own HX711.
        cells = len(b.tray["cells"])
        parts["HX711 load-cell amplifier module"] += cells
        parts["bar load cell, 1 kg, full bridge (4 wires)"] += cells
    if b.buzzer:
        parts["passive piezo buzzer, 3.3 V"] += 1
    lines = [f"**{b.name}** ({len(b.stations)} stations)", "", "| qty | part |", "| ---: | --- |"]
    lines += [f"| {n} | {part} |" for part, n in sorted(parts.items())]
    return "\n".join(lines) + "\n"


def shipped() -> dict[str, str]:
    """The wiring section of every shipped board, by board name."""
    return {path.stem: wiring_markdown(board.load(str(path))) for path in sorted(BOARDS.glob("*.json"))}


def shipped_parts() -> dict[str, str]:
    """The parts list of every shipped board, by board name."""
    return {path.stem: parts_markdown(board.load(str(path))) for path in sorted(BOARDS.glob("*.json"))}


# Generated sections: file -> (marker, texts by board name).
def generated() -> dict[Path, tuple[str, dict[str, str]]]:
    return {
        ROOT / "docs" / "hardware.md": ("wiring", shipped()),
        ROOT / "hardware" / "README.md": ("parts", shipped_parts()),
    }


def refresh(text: str, marker: str, sections: dict[str, str]) -> str:
    """`text` with every <!-- marker:name --> section replaced by its new content."""
    for name, body in sections.items():
        pattern = re.compile(rf"(<!-- {marker}:{name} -->\n).*?(<!-- /{marker}:{name} -->)", re.S)
        if not pattern.search(text):
            raise ValueError(f"no <!-- {marker}:{name} --> section to refresh")
        text = pattern.sub(lambda m: m.group(1) + body + m.group(2), text)
    return text


def main(argv: list[str]) -> None:
    if argv == ["--write"]:
        for path, (marker, sections) in generated().items():
            path.write_text(refresh(path.read_text(), marker, sections))
            print(f"refreshed {path.relative_to(ROOT)}")
        return
    for name, text in shipped().items():
        print(text)
        print(shipped_parts()[name])


if __name__ == "__main__":
    main(sys.argv[1:])
