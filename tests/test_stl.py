"""The STL files shipped in hardware/stl/ are printable as they are: each is a closed,
consistently oriented manifold whose bounding box is within 0.5 mm of the size its OpenSCAD
source states, and each was made from the source as it is now (SOURCES.json records the digest
of the source and parameters). Needs no OpenSCAD; tests/test_openscad.py renders them again."""

from __future__ import annotations

import json

import pytest

from catnip_host import scad
from catnip_host.mesh import Mesh

RECORD = json.loads(scad.SOURCES.read_text())
STALE = "is stale: run `make stl` and commit hardware/stl/"


def test_every_printable_part_is_shipped_and_nothing_else():
    assert sorted(RECORD) == sorted(scad.PARTS)
    assert sorted(p.name for p in scad.STL.glob("*.stl")) == sorted(scad.PARTS)


@pytest.mark.parametrize("name", sorted(scad.PARTS))
def test_the_shipped_stl_is_a_closed_manifold_of_the_stated_size(name):
    mesh = Mesh.read(scad.STL / name)
    assert mesh.problems() == []
    want = RECORD[name]["size"]
    assert all(abs(got - w) <= scad.SIZE_TOLERANCE_MM for got, w in zip(mesh.size(), want)), (
        name, mesh.size(), want)


@pytest.mark.parametrize("name", sorted(scad.PARTS))
def test_the_shipped_stl_was_made_from_the_current_source(name):
    source, params = scad.PARTS[name]
    assert RECORD[name]["source"] == f"hardware/scad/{source}"
    assert RECORD[name]["parameters"] == params
    assert RECORD[name]["source_sha256"] == scad.source_digest(name), f"{name} {STALE}"


CUBE = """solid c
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 0 1 0 vertex 1 1 0 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 1 1 0 vertex 1 0 0 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 1 vertex 1 0 1 vertex 1 1 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 1 vertex 1 1 1 vertex 0 1 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 1 0 0 vertex 1 0 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 1 0 1 vertex 0 0 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 1 0 vertex 0 1 1 vertex 1 1 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 1 0 vertex 1 1 1 vertex 1 1 0 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 0 0 1 vertex 0 1 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 0 0 0 vertex 0 1 1 vertex 0 1 0 endloop endfacet
facet normal 0 0 0 outer loop vertex 1 0 0 vertex 1 1 0 vertex 1 1 1 endloop endfacet
facet normal 0 0 0 outer loop vertex 1 0 0 vertex 1 1 1 vertex 1 0 1 endloop endfacet
endsolid c
"""


def test_the_check_knows_a_solid_from_a_hole_and_a_flipped_face(tmp_path):
    cube = Mesh.parse(CUBE)
    assert cube.problems() == [] and cube.volume() == pytest.approx(1)
    assert cube.size() == [1, 1, 1]
    holed = Mesh(cube.triangles[1:])
    assert any("0 back" in p for p in holed.problems())
    a, b, c = cube.triangles[0]
    flipped = Mesh([(a, c, b)] + cube.triangles[1:])
    assert flipped.problems()
    inside_out = Mesh([(a, c, b) for a, b, c in cube.triangles])
    assert inside_out.problems() == ["the faces point inwards (negative volume)"]
    doubled = Mesh(cube.triangles + cube.triangles[:2])
    assert doubled.problems()
    # The binary form the shipped files use reads back as the same solid, whatever order
    # OpenSCAD listed its triangles in.
    path = tmp_path / "cube.stl"
    path.write_bytes(scad.binary_stl(cube, "cube"))
    again = Mesh.read(path)
    assert again.problems() == [] and len(again.triangles) == 12

    def corners(mesh):  # each triangle's corners in winding order, from its least
        return sorted(min((a, b, c), (b, c, a), (c, a, b)) for a, b, c in mesh.triangles)

    assert corners(again) == corners(cube)
    shuffled = Mesh([(b, c, a) for a, b, c in reversed(cube.triangles)])
    assert scad.binary_stl(shuffled, "cube") == path.read_bytes()


def test_a_stated_size_is_read_from_the_echo():
    echoes = 'ECHO: size = [94, 62, 5.2]\nECHO: "x"\n'
    assert scad.stated(echoes, "size") == [94, 62, 5.2]
    with pytest.raises(scad.ScadError, match="echoes no size"):
        scad.stated('ECHO: width = 3\n', "size")
