"""Everything generated from the board files into docs/ and hardware/ is committed fresh, and the
generated parts lists, cable tables and diagrams say what the board files say."""

from __future__ import annotations

import csv
import json
import io
import xml.etree.ElementTree as ET

import pytest

from catnip import board
from catnip_host import bom, cables, diagrams, wiring
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


PART, ORDER, NEEDED, PRICE, QTY = range(5)  # the CSV's columns


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
    assert head[QTY:] == [f"qty for {n} stations" for n in counts]
    assert "indicative" in head[PRICE] and bom.PRICED_ON in head[PRICE]
    *parts, total = rows
    needed = [r for r in parts if r[NEEDED] == "yes"]
    for col, n in enumerate(counts, QTY):
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
        # The total is the sum of the needed rows, each priced.
        assert float(total[col]) == pytest.approx(
            sum(float(r[PRICE]) * int(r[col]) for r in needed), abs=0.005)
    if b.mux:
        assert all(int(q) == 1 for q in [r for r in parts if r[0].startswith("TCA9548A")][0][QTY:])


def test_the_direct_bom_brings_the_pull_ups_the_check_asks_for():
    _, rows = _csv("direct")
    assert [int(q) for q in next(r for r in rows if "6.8 kohm" in r[0])[QTY:]] == [2, 4, 4]
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


@pytest.mark.parametrize("name", ["direct", "mux"])
def test_every_bom_row_says_how_to_order_it_and_whether_it_is_needed(name):
    head, rows = _csv(name)
    assert head[:QTY] == ["part", "manufacturer part number or search term", "needed",
                          head[PRICE]]
    *parts, _ = rows
    for r in parts:
        order = r[ORDER]
        assert order, f"{r[PART]} says nowhere how to order it"
        # A search term names the part's kind and size, a part number its maker.
        assert order.startswith(("search:", "print ")) or any(c.isdigit() for c in order), r
        assert r[NEEDED] in ("yes", "optional")
    optional = [r[PART] for r in parts if r[NEEDED] == "optional"]
    assert [p.split(" ")[0] for p in optional] == ["DS3231", "CR2032"]
    assert all(float(r[PRICE]) > 0 for r in parts)


def _texts(path) -> set[str]:
    svg = path.read_bytes()
    return {"".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("}text")}


@pytest.mark.parametrize("name", ["direct", "mux"])
def test_every_part_wired_in_the_bom_is_in_the_pictures(name):
    b = _board(name)
    pictures = " | ".join(_texts(wiring.ROOT / "hardware" / f"wiring-{name}.svg")
                          | _texts(wiring.ROOT / "hardware" / f"station-{name}.svg"))
    _, rows, _ = bom.table(b)
    undrawn = set()
    for row in rows:
        if row.part.drawn:
            assert row.part.drawn in pictures, f"{row.part.name} is in no picture of {name}"
        else:
            undrawn.add(row.part.name)
    # Only what is not wired stays out of the pictures: boards, headers, boxes, cables, plates.
    mechanical = {k for k in ("perfboard", "headers", "station_box", "hub_box", "usb", "wire",
                              "plates", "cell_screws")}
    assert undrawn == {bom.PARTS[k].name for k in mechanical if any(
        r.part == bom.PARTS[k] for r in rows)}


def test_the_pictures_show_the_pull_ups_at_the_hub_and_the_optional_clock():
    direct = _texts(wiring.ROOT / "hardware" / "wiring-direct.svg")
    assert "I2C0 pull-ups: 2 x 6.8 kohm to 3V3" in direct
    assert "I2C1 pull-ups: 2 x 6.8 kohm to 3V3" in direct
    for name in ("direct", "mux"):
        texts = _texts(wiring.ROOT / "hardware" / f"wiring-{name}.svg")
        assert "DS3231 clock at 0x68 + CR2032 cell (optional)" in texts
    assert not any("pull-ups" in t for t in _texts(wiring.ROOT / "hardware" / "wiring-mux.svg"))


def test_a_board_with_a_clock_orders_it_and_draws_it_where_it_is_wired():
    data = json.loads((wiring.BOARDS / "direct.json").read_text())
    data["rtc"] = {"bus": 0}
    b = board.parse(data)
    _, rows, totals = bom.table(b)
    clock = [r for r in rows if r.part.drawn in ("DS3231", "CR2032")]
    assert [(r.needed, r.qty) for r in clock] == [(True, [1, 1, 1])] * 2
    _, rows_without, totals_without = bom.table(_board("direct"))
    assert [round(t - w, 2) for t, w in zip(totals, totals_without)] == [2.00] * 3
    svg = diagrams.draw(b)
    texts = {"".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("}text")}
    assert "DS3231 clock at 0x68 + CR2032 cell" in texts
    blocks, nets = diagrams._parts(b)
    assert ("rtc", "SDA") in nets["SDA0"].ends and ("rtc", "SCL") in nets["SCL0"].ends
    data["rtc"] = {"bus": 1}
    blocks, nets = diagrams._parts(board.parse(data))
    assert ("rtc", "SDA") in nets["SDA1"].ends and ("rtc", "SCL") in nets["SCL1"].ends


def test_a_board_of_sh1106_panels_orders_them_and_names_them_in_the_wiring():
    data = json.loads((wiring.BOARDS / "mux.json").read_text())
    for s in data["stations"][:3]:
        s["oled"]["panel"] = "sh1106"
    b = board.parse(data)
    _, rows, _ = bom.table(b)
    by_part = {r.part.drawn: r.qty for r in rows if r.part.drawn in ("SSD1306", "SH1106")}
    # 2 to 8 stations: the first three have the 1.3 in panel, the rest and the table the 0.96 in
    assert by_part["SH1106"] == [2, 3, 3, 3, 3, 3, 3]
    assert by_part["SSD1306"] == [1, 1, 2, 3, 4, 5, 6]
    text = wiring.wiring_markdown(b)
    assert "| station 1 SH1106 128x64 |" in text and "| station 4 SSD1306 128x64 |" in text
    blocks, _ = diagrams._station_parts(b)
    assert any(block.title.startswith("SH1106 OLED at 0x3C") for block in blocks)
