"""What each wire of a station's cable carries.

A station cable is a Cat5e patch cord between two RJ45 breakouts, wired T568B: each signal
shares a twisted pair with a ground or 3V3 (never SDA with SCL, which would couple them).
"""

from __future__ import annotations

from catnip import board

T568B_PAIRS = (((1, "white/orange"), (2, "orange")), ((3, "white/green"), (6, "green")),
               ((4, "blue"), (5, "white/blue")), ((7, "white/brown"), (8, "brown")))


def cable_roles(station: dict) -> list[str]:
    """What each wire of a station's cable carries, pair by pair."""
    buttons = station["buttons"]
    if "gpio" in buttons:
        return ["SDA", "GND", "SCL", "3V3"] + [n.upper() for n in board.BUTTONS]
    interrupt = "INT" if buttons["expander"]["int"] is not None else "GND"
    return ["SDA", "GND", "SCL", "GND", "3V3", "GND", interrupt, "GND"]


def cable_markdown(b: board.Board) -> str:
    lines = [f"**{b.name}** station cable (RJ45 pin, T568B colour, signal)", "",
             "| pin | colour | carries |", "| ---: | --- | --- |"]
    lines += [f"| {pin} | {colour} | {role} |" for pin, colour, role in wires(b.stations[0])]
    return "\n".join(lines) + "\n"


def wires(station: dict) -> list[tuple[int, str, str]]:
    """(RJ45 pin, T568B colour, signal) for every wire, by pin number."""
    pins = [w for pair in T568B_PAIRS for w in pair]
    roles = dict(zip(pins, cable_roles(station)))
    return [(pin, colour, roles[(pin, colour)]) for pin, colour in sorted(pins)]
