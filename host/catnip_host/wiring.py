"""Wiring tables for docs/hardware.md, drawn from a board config so the
documentation cannot drift from firmware/boards/*.json."""

from __future__ import annotations

from pathlib import Path

from catnip import board

BOARDS = Path(board.__file__).resolve().parent.parent / "boards"


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


def shipped() -> dict[str, str]:
    """The wiring section of every shipped board, by board name."""
    return {path.stem: wiring_markdown(board.load(str(path))) for path in sorted(BOARDS.glob("*.json"))}


if __name__ == "__main__":
    for text in shipped().values():
        print(text)
