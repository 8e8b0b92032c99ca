"""The parametric enclosure and tray parts render headless with OpenSCAD into solids of the
sizes their parameters give, with the holes, stand-offs and clips they should have; the
committed 1:1 templates and STL files are what the .scad files make now. Skipped, saying so,
where OpenSCAD is not installed (CI installs it: .ci/run)."""

from __future__ import annotations

import json
import math
import re

import pytest

from catnip_host import scad
from catnip_host.mesh import Mesh

pytestmark = pytest.mark.skipif(
    scad.openscad() is None,
    reason="OpenSCAD is not installed (apt-get install openscad); the hardware/scad/ parts "
    "are checked where it is")

FN = 48  # $fn in both files: a hole is a 48-gon


def _solid(tmp_path, source: str, **params: str) -> tuple[list[float], list[float], float]:
    """(min corner, max corner, volume) of the rendered ASCII STL."""
    out = tmp_path / "part.stl"
    scad.render(source, out, **params)
    facets = re.findall(r"outer loop\s+vertex (\S+) (\S+) (\S+)\s+vertex (\S+) (\S+) (\S+)"
                        r"\s+vertex (\S+) (\S+) (\S+)", out.read_text())
    assert facets, f"{source} {params} rendered no facets"
    points = [[float(v) for v in f[i:i + 3]] for f in facets for i in (0, 3, 6)]
    low = [min(p[k] for p in points) for k in range(3)]
    high = [max(p[k] for p in points) for k in range(3)]
    volume = 0.0  # divergence theorem over the closed mesh
    for f in facets:
        a, b, c = ([float(v) for v in f[i:i + 3]] for i in (0, 3, 6))
        volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                   + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return low, high, abs(volume)


def _hole(d: float) -> float:
    """Area of a d mm hole as OpenSCAD draws it."""
    return FN / 2 * (d / 2) ** 2 * math.sin(2 * math.pi / FN)


def _size(low, high):
    return [round(h - lo, 3) for lo, h in zip(low, high)]


@pytest.mark.parametrize("cells", [1, 4])
def test_the_platform_is_the_base_plus_its_margin_with_the_load_holes(tmp_path, cells):
    low, high, volume = _solid(tmp_path, "tray.scad", part='"top"', cells=str(cells),
                               base_w="130", base_d="110")
    assert _size(low, high) == [150, 130, 3]
    holes = 2 * cells * _hole(5.5)
    assert volume == pytest.approx((150 * 130 - holes) * 3, rel=1e-4)


@pytest.mark.parametrize("cells", [1, 4])
def test_the_bottom_plate_has_the_fixed_holes_and_an_overload_stop_per_cell(tmp_path, cells):
    low, high, volume = _solid(tmp_path, "tray.scad", part='"bottom"', cells=str(cells))
    assert _size(low, high) == [160, 160, 3]
    holes = cells * (2 * _hole(4.5) + _hole(3.2))
    assert volume == pytest.approx((160 * 160 - holes) * 3, rel=1e-4)


def test_four_bars_that_would_cross_are_refused(tmp_path):
    with pytest.raises(scad.ScadError, match="four bars do not fit under this platform"):
        scad.render("tray.scad", tmp_path / "x.stl", part='"top"', cells="4", base_w="60")


def _disc(area_d: float, h: float) -> float:
    return _hole(area_d) * h


def _circle_at(mesh: Mesh, centre: tuple[float, float], z: float, d: float) -> bool:
    """Whether the mesh has a 48-gon of diameter d around centre at height z."""
    r = d / 2
    found = {(round(p[0], 3), round(p[1], 3)) for t in mesh.triangles for p in t
             if abs(p[2] - z) < 1e-3 and abs(math.dist(p[:2], centre) - r) < 1e-3}
    return len(found) >= FN


def _render(tmp_path, source: str, **params: str) -> tuple[Mesh, str]:
    out = tmp_path / "part.stl"
    echoes = scad.render(source, out, **params)
    return Mesh.read(out), echoes


def test_the_station_box_holds_the_perfboard_on_stand_offs_under_two_clips(tmp_path):
    box, _ = _render(tmp_path, "station.scad", part='"box"')
    assert box.size() == [94, 62, 28] and box.problems() == []
    # The board's top sits where the OLED's stack meets the lid's stand-offs: the lid's
    # underside (28) less the stand-offs (glass 1.6 + 0.4), the module's board (1.2) and its
    # header (2.5); the 1.6 mm board rests on four stand-offs under its corners.
    board_top = 28 - 2.0 - 1.2 - 2.5
    for sx in (-1, 1):
        for sy in (-1, 1):
            assert _circle_at(box, (sx * (35 - 4), sy * (25 - 4)), board_top - 1.6, 6)
    # Each clip's lip reaches 0.8 mm over the board's short ends, 0.1 mm above it.
    lips = {round(p[0], 3) for t in box.triangles for p in t if abs(p[2] - board_top - 0.1) < 1e-3}
    assert {-(35.3 - 0.8), 35.3 - 0.8} <= lips
    with pytest.raises(scad.ScadError, match="between the corner posts"):
        scad.render("station.scad", tmp_path / "w.stl", part='"box"', board="[80, 50, 1.6]")


def test_the_station_lid_holds_the_oled_by_its_mounting_holes(tmp_path):
    lid, echoes = _render(tmp_path, "station.scad", part='"lid"')
    assert scad.stated(echoes, "size") == [94, 62, 5.2]
    assert lid.size() == [94, 62, 5.2] and lid.problems() == []
    plate = (94 * 62 - 26 * 14 - 4 * _hole(12.4) - 4 * _hole(3.4)) * 2
    standoffs = 4 * _disc(3.8, 2.0) + 4 * _disc(1.8, 1.2)
    assert lid.volume() == pytest.approx(plate + standoffs, rel=1e-4)
    # Printed face down (turned over about x): the pegs' tips on the module's M2 hole pattern,
    # 23.5 x 23.8 mm around its centre 14.5 mm above the lid's centre.
    for sx in (-1, 1):
        for sy in (-1, 1):
            assert _circle_at(lid, (sx * 23.5 / 2, -(14.5 + sy * 23.8 / 2)), 3.2, 1.8)
    with pytest.raises(scad.ScadError, match="the buttons do not fit across the lid"):
        scad.render("station.scad", tmp_path / "y.stl", part='"lid"', buttons="6")


# Raspberry Pi Pico datasheet, mechanical drawing: 2.1 mm holes 47.0 mm apart along the board
# and 11.4 mm across it.
PICO_HOLES = (47.0, 11.4)


@pytest.mark.parametrize("stations", [4, 8])
def test_the_hub_holds_the_pico_on_its_mounting_holes_with_an_opening_per_station(
        tmp_path, stations):
    box, echoes = _render(tmp_path, "hub.scad", part='"box"', stations=str(stations))
    assert box.problems() == []
    size = scad.stated(echoes, "size")
    assert box.size() == size and size[1:] == [74, 34]
    holes = scad.stated(echoes, "pico_holes")
    xs = sorted({x for x, _ in holes})
    ys = sorted({y for _, y in holes})
    assert (xs[1] - xs[0], round(ys[1] - ys[0], 3)) == PICO_HOLES
    top = scad.stated(echoes, "pico_standoff_top")
    assert all(_circle_at(box, (x, y), top, 1.8) for x, y in holes)
    # The Pico's USB end sits 1 mm inside the left wall, 2 mm to its first holes.
    assert xs[0] == pytest.approx(-size[0] / 2 + 2 + 1 + 2)
    # RJ45 openings in the front wall: two corners each along the opening's top edge.
    front = {round(p[0], 3) for t in box.triangles for p in t
             if abs(p[1] + size[1] / 2) < 1e-3 and abs(p[2] - (2 + 9 + 7)) < 1e-3}
    assert len(front) == 2 * stations
    lid, echoes = _render(tmp_path, "hub.scad", part='"lid"', stations=str(stations))
    assert lid.problems() == [] and lid.size() == scad.stated(echoes, "size")


@pytest.mark.parametrize("name", sorted(scad.PARTS))
def test_each_shipped_stl_is_what_its_source_makes(name):
    mesh, size = scad.part(name)
    shipped = Mesh.read(scad.STL / name)
    assert json.loads(scad.SOURCES.read_text())[name]["size"] == size
    assert len(shipped.triangles) == len(mesh.triangles), f"hardware/stl/{name} is stale: make stl"
    for got, want in zip(shipped.bounds(), mesh.bounds()):
        assert got == pytest.approx(want, abs=1e-4)
    assert shipped.volume() == pytest.approx(mesh.volume(), rel=1e-5)


@pytest.mark.parametrize("name", sorted(scad.TEMPLATES))
def test_committed_templates_are_what_the_scad_files_draw(name):
    assert (scad.SCAD / name).read_text() == scad.template(name), (
        f"hardware/scad/{name} is stale; run `python -m catnip_host.scad --write`")
