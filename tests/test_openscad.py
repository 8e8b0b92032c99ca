"""The parametric enclosure and tray parts render headless with OpenSCAD into solids of the
sizes their parameters give, with the holes they should have; the committed 1:1 templates are
what the .scad files draw. Skipped, saying so, where OpenSCAD is not installed."""

from __future__ import annotations

import math
import re

import pytest

from catnip_host import scad

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


def test_the_station_box_and_lid(tmp_path):
    low, high, _ = _solid(tmp_path, "station.scad", part='"box"')
    assert _size(low, high) == [88, 60, 28]
    low, high, volume = _solid(tmp_path, "station.scad", part='"lid"')
    assert _size(low, high) == [88, 60, 2]
    holes = 26 * 14 + 4 * _hole(2.2) + 4 * _hole(12.4) + 4 * _hole(3.4)
    assert volume == pytest.approx((88 * 60 - holes) * 2, rel=1e-4)
    with pytest.raises(scad.ScadError, match="the buttons do not fit across the lid"):
        scad.render("station.scad", tmp_path / "y.stl", part='"lid"', buttons="6")


@pytest.mark.parametrize("name", sorted(scad.TEMPLATES))
def test_committed_templates_are_what_the_scad_files_draw(name):
    assert (scad.SCAD / name).read_text() == scad.template(name), (
        f"hardware/scad/{name} is stale; run `python -m catnip_host.scad --write`")
