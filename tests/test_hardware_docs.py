"""Everything generated from the board files into docs/ and hardware/ is committed fresh, and the
generated parts lists, cable tables and diagrams say what the board files say."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest

from catnip import board
from catnip_host import bom, cables, wiring
from catnip_host.diagrams import HEADER_PIN
from catnip_host.loadcell import Tower, choice, choose_capacity, counts_per_gram

STALE = "is stale; run `python -m catnip_host.wiring --write` and commit the result"


def _board(name: str) -> board.Board:
    return board.load(str(wiring.BOARDS / f"{name}.json"))


@pytest.mark.parametrize(("path", "marker", "sections"), wiring.generated(),
                         ids=lambda v: v.name if hasattr(v, "name") else None)
def test_generated_sections_are_fresh(path, marker, sections):
    text = path.read_text()
    for name in sections:
        assert f"<!-- {marker}:{name} -->" in text, f"{path} has no {marker}:{name} section"
    assert wiring.refresh(text, marker, sections) == text, f"{path}'s {marker} sections {STALE}"


@pytest.mark.parametrize("path", sorted(wiring.generated_files()),
                         ids=lambda p: str(p.relative_to(wiring.ROOT)))
def test_generated_files_are_fresh(path):
    want = wiring.generated_files()[path]
    assert path.exists(), f"{path} is missing; run `python -m catnip_host.wiring --write`"
    got = path.read_bytes() if isinstance(want, bytes) else path.read_text()
    assert got == want, f"{path} {STALE}"


def test_refresh_replaces_only_the_marked_section():
    text = "a\n<!-- parts:x -->\nold\n<!-- /parts:x -->\nb\n"
    assert wiring.refresh(text, "parts", {"x": "new\n"}) == (
        "a\n<!-- parts:x -->\nnew\n<!-- /parts:x -->\nb\n")
    with pytest.raises(ValueError, match="no <!-- parts:y -->"):
        wiring.refresh(text, "parts", {"y": ""})


def _csv(name: str) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO((wiring.ROOT / "hardware" / f"bom-{name}.csv").read_text())))
    return rows[0], rows[1:]


def _qty(rows: list[list[str]], startswith: str, column: int) -> int:
    found = [r for r in rows if r[0].startswith(startswith)]
    assert len(found) == 1, (startswith, found)
    return int(found[0][column])


@pytest.mark.parametrize(("name", "counts"), [("direct", range(2, 5)), ("mux", range(2, 9))])
def test_the_bom_counts_each_station_count_from_the_board(name, counts):
    b = _board(name)
    head, rows = _csv(name)
    assert head[2:] == [f"qty for {n} stations" for n in counts]
    assert "indicative" in head[1] and bom.PRICED_ON in head[1]
    *parts, total = rows
    for col, n in enumerate(counts, 2):
        used = b.stations[:n]
        screens = n + (1 if b.table else 0)
        assert _qty(parts, "SSD1306", col) == screens
        assert _qty(parts, "tactile push button", col) == 4 * n
        assert _qty(parts, "Cat5e patch cable", col) == n
        assert _qty(parts, "RJ45", col) == 2 * n
        assert _qty(parts, "Raspberry Pi Pico", col) == 1
        assert _qty(parts, "HX711", col) == len(b.tray["cells"])
        assert _qty(parts, "bar load cell", col) == len(b.tray["cells"])
        expanders = sum(1 for s in used if "expander" in s["buttons"])
        if expanders:
            assert _qty(parts, "PCF8574", col) == expanders
        # The total is the sum of the rows, each priced.
        assert float(total[col]) == pytest.approx(
            sum(float(r[1]) * int(r[col]) for r in parts), abs=0.005)
    if b.mux:
        assert all(int(q) == 1 for q in [r for r in parts if r[0].startswith("TCA9548A")][0][2:])


def test_the_direct_bom_brings_the_pull_ups_the_check_asks_for():
    _, rows = _csv("direct")
    assert [int(q) for q in next(r for r in rows if "6.8 kohm" in r[0])[2:]] == [2, 4, 4]
    _, rows = _csv("mux")
    assert not [r for r in rows if r[0].startswith("resistor")]


def test_the_bom_needs_two_stations_at_least():
    with pytest.raises(board.BoardError, match="has 4"):
        bom.quantities(_board("direct"), 5)


def test_load_cell_counts_follow_the_hx711_datasheet():
    # +-0.5 AVDD / 128 is +-2**23 counts; a 1 mV/V cell gives 1 mV/V at its rated load.
    assert counts_per_gram(1000) * 1000 == pytest.approx(2**23 * 128 / 500)
    assert counts_per_gram(500) == pytest.approx(2 * counts_per_gram(1000))
    tower = Tower()
    assert tower.static_g == 80 + 60 + 40 * 6
    assert choose_capacity(tower, 1) == 1000 and choose_capacity(tower, 4) == 500
    one = choice(tower, 1)
    assert one.counts_per_cat == round(6 * counts_per_gram(1000))
    assert 0 < one.range_used < 1
    heavy = Tower(cat_g=60, cats=100)
    with pytest.raises(ValueError, match="use more cells or a lighter platform"):
        choose_capacity(heavy, 1)


@pytest.mark.parametrize("name", ["direct", "mux"])
def test_station_cables_carry_every_signal_and_keep_sda_off_scl(name):
    b = _board(name)
    roles = cables.cable_roles(b.stations[0])
    assert len(roles) == 8
    assert {"SDA", "SCL", "3V3", "GND"} <= set(roles)
    if "gpio" in b.stations[0]["buttons"]:
        assert {"UP", "DOWN", "OK", "BACK"} <= set(roles)
    else:
        assert "INT" in roles
    pairs = [set(roles[i:i + 2]) for i in range(0, 8, 2)]
    assert {"SDA", "SCL"} not in pairs
    assert all(pair & {"GND", "3V3"} or not pair & {"SDA", "SCL"} for pair in pairs)


@pytest.mark.parametrize("name", ["direct", "mux"])
def test_the_wiring_diagram_names_every_pin_and_part_of_the_board(name):
    b = _board(name)
    svg = (wiring.ROOT / "hardware" / f"wiring-{name}.svg").read_bytes()
    texts = {"".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("}text")}
    used = [bus[p] for bus in b.i2c.values() for p in ("sda", "scl")]
    for s in b.stations:
        used += list(s["buttons"].get("gpio", {}).values())
        if "expander" in s["buttons"] and s["buttons"]["expander"]["int"] is not None:
            used.append(s["buttons"]["expander"]["int"])
    used += [c["dout"] for c in b.tray["cells"]] + [c["sck"] for c in b.tray["cells"]]
    used.append(b.buzzer["pin"])
    if b.mux and b.mux["reset"] is not None:
        used.append(b.mux["reset"])
    for gp in set(used):
        assert f"GP{gp} ({HEADER_PIN[gp]})" in texts, gp
    for k in range(1, len(b.stations) + 1):
        assert any(t.startswith(f"station {k}:") for t in texts), k
    assert "3V3 (36)" in texts and "GND (38)" in texts


@pytest.mark.parametrize("name", ["direct", "mux"])
def test_the_station_diagram_follows_the_cable_and_the_buttons(name):
    b = _board(name)
    svg = (wiring.ROOT / "hardware" / f"station-{name}.svg").read_bytes()
    texts = {"".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("}text")}
    for pin, colour, role in cables.wires(b.stations[0]):
        assert f"{pin} {role} ({colour})" in texts
    for button in board.BUTTONS:
        assert f"{button} (to GND)" in texts
    expander = b.stations[0]["buttons"].get("expander")
    if expander:
        assert f"P{expander['pins']['up']}" in texts
        assert any(t.startswith("PCF8574 at 0x20 (A0 GND, A1 GND, A2 GND)") for t in texts)
    else:
        assert "SSD1306 OLED at 0x3C (0x3D on stations 2, 4)" in texts
