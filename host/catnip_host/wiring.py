"""Everything in the docs and hardware/ that is drawn from the shipped board files, so none of
it can drift from firmware/boards/*.json: the wiring tables (docs/hardware.md), the bills of
materials (hardware/README.md and bom-*.csv), the load-cell table (hardware/tray.md), the wiring
diagrams (hardware/wiring-*.svg) and the Wokwi projects (hardware/wokwi/).
`python -m catnip_host.wiring --write` refreshes them all; a test fails if any is stale."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from catnip import board

from catnip_host import bom, check_board, diagrams, loadcell, wokwi
from catnip_host.cables import cable_markdown

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
        parts.append((place["bus"], channel, oled["addr"], f"{name} {oled['panel'].upper()} 128x{oled['height']}"))
        expander = (place.get("buttons") or {}).get("expander")
        if expander:
            parts.append((place["bus"], channel, expander["addr"],
                          f"{name} {expander['chip'].upper()} buttons"))
    return sorted(parts, key=lambda p: (p[0], p[1], p[2]))


def shipped() -> dict[str, str]:
    """The wiring section of every shipped board, by board name."""
    return {path.stem: wiring_markdown(board.load(str(path))) for path in sorted(BOARDS.glob("*.json"))}


def _shipped_boards() -> dict[str, board.Board]:
    return {path.stem: board.load(str(path)) for path in sorted(BOARDS.glob("*.json"))}


# Generated sections: (file, marker, texts by section name); a file may hold several markers.
def generated() -> list[tuple[Path, str, dict[str, str]]]:
    boards = _shipped_boards()
    readme = ROOT / "hardware" / "README.md"
    return [
        (ROOT / "docs" / "hardware.md", "wiring", shipped()),
        (readme, "bom", {name: bom.bom_markdown(b) for name, b in boards.items()}),
        (readme, "cable", {name: cable_markdown(b) for name, b in boards.items()}),
        (ROOT / "hardware" / "tray.md", "loadcell", {"capacity": loadcell.capacity_markdown()}),
        (ROOT / "hardware" / "electrical.md", "check",
         {name: check_markdown(b) for name, b in boards.items()}),
        (ROOT / "hardware" / "wokwi" / "README.md", "wokwi",
         {name: wokwi_markdown(b) for name, b in boards.items()}),
    ]


def wokwi_markdown(b: board.Board) -> str:
    left = wokwi.left_out(b)
    head = f"**{b.name}** (`hardware/wokwi/{b.name}/`): "
    if not left:
        return head + "every part of the board is in the simulation.\n"
    return head + ("left out, as neither Wokwi nor catnip's chips have a part for them "
                   "([the stations chip](#the-mux-stations-one-custom-chip)):\n\n") + "".join(
        f"- {line}\n" for line in left)


def check_markdown(b: board.Board) -> str:
    """What `catnip_host.check_board` says about a shipped board with the BOM's cables."""
    lines = [f"`python -m catnip_host.check_board firmware/boards/{b.name}.json` "
             f"({bom.CABLE_M:g} m cables):", ""]
    lines += [f"- **{f.level}** {f.topic}: {f.text}"
              for f in check_board.check(b, cable_m=bom.CABLE_M)]
    return "\n".join(lines) + "\n"


# Generated files: path -> exact content (text or bytes).
def generated_files() -> dict[Path, str | bytes]:
    files: dict[Path, str | bytes] = {}
    for name, b in _shipped_boards().items():
        files[ROOT / "hardware" / f"bom-{name}.csv"] = bom.bom_csv(b)
        files[ROOT / "hardware" / f"wiring-{name}.svg"] = diagrams.draw(b)
        files[ROOT / "hardware" / f"station-{name}.svg"] = diagrams.draw_station(b)
        files[ROOT / "hardware" / "wokwi" / name / "diagram.json"] = wokwi.diagram_json(b)
        files[ROOT / "hardware" / "wokwi" / name / "wokwi.toml"] = wokwi.wokwi_toml(b)
    return files


def refresh(text: str, marker: str, sections: dict[str, str]) -> str:
    """`text` with every <!-- marker:name --> section replaced by its new content."""
    for name, body in sections.items():
        text = _refresh_section(text, marker, name, body)
    return text


def _refresh_section(text: str, marker: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- {marker}:{name} -->\n).*?(<!-- /{marker}:{name} -->)", re.S)
    if not pattern.search(text):
        raise ValueError(f"no <!-- {marker}:{name} --> section to refresh")
    return pattern.sub(lambda m: m.group(1) + body + m.group(2), text)


def main(argv: list[str]) -> None:
    if argv == ["--write"]:
        for path, marker, sections in generated():
            path.write_text(refresh(path.read_text(), marker, sections))
            print(f"refreshed {path.relative_to(ROOT)}")
        for path, content in generated_files().items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content)
            print(f"wrote {path.relative_to(ROOT)}")
        return
    for name, b in _shipped_boards().items():
        print(shipped()[name])
        print(bom.bom_markdown(b))


if __name__ == "__main__":
    main(sys.argv[1:])
