"""The OpenSCAD parts in hardware/scad/: rendering them headless, their 1:1 templates and the
STL files shipped for makers without OpenSCAD.

    python -m catnip_host.scad --write     (`make stl`; needs OpenSCAD: apt-get install openscad)

renders each template (a 2D outline to print at 100 % and drill or cut through) into
hardware/scad/, beside the .scad files that make them, and each printable part into
hardware/stl/ as binary STL, refusing any that is not a closed manifold of the size its source
states (each part echoes `size`). hardware/stl/SOURCES.json records, per STL, the digest of the
source and parameters it was made from and that size, so a test can tell when one is stale.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from catnip_host.mesh import Mesh
from catnip_host.wiring import ROOT

SCAD = ROOT / "hardware" / "scad"
STL = ROOT / "hardware" / "stl"
SOURCES = STL / "SOURCES.json"
SIZE_TOLERANCE_MM = 0.5  # an STL's bounding box against the size its source states

# Template file -> (source, parameters).
TEMPLATES: dict[str, tuple[str, dict[str, str]]] = {
    "tray-top.svg": ("tray.scad", {"part": '"top_template"'}),
    "tray-bottom.svg": ("tray.scad", {"part": '"bottom_template"'}),
    "tray-top-4.svg": ("tray.scad", {"part": '"top_template"', "cells": "4"}),
    "tray-bottom-4.svg": ("tray.scad", {"part": '"bottom_template"', "cells": "4"}),
    "station-lid.svg": ("station.scad", {"part": '"lid_template"'}),
}


# Printable part -> (source, parameters): the station's box and lid, the hub's for the direct
# layout (4 stations) and the mux layout (8), and the tray's plates and spacer for one and four
# cells.
PARTS: dict[str, tuple[str, dict[str, str]]] = {
    "station-box.stl": ("station.scad", {"part": '"box"'}),
    "station-lid.stl": ("station.scad", {"part": '"lid"'}),
    "hub-box-4.stl": ("hub.scad", {"part": '"box"', "stations": "4"}),
    "hub-lid-4.stl": ("hub.scad", {"part": '"lid"', "stations": "4"}),
    "hub-box-8.stl": ("hub.scad", {"part": '"box"', "stations": "8"}),
    "hub-lid-8.stl": ("hub.scad", {"part": '"lid"', "stations": "8"}),
    "tray-top.stl": ("tray.scad", {"part": '"top"'}),
    "tray-bottom.stl": ("tray.scad", {"part": '"bottom"'}),
    "tray-top-4.stl": ("tray.scad", {"part": '"top"', "cells": "4"}),
    "tray-bottom-4.stl": ("tray.scad", {"part": '"bottom"', "cells": "4"}),
    "tray-spacer.stl": ("tray.scad", {"part": '"spacer"'}),
}


class ScadError(RuntimeError):
    pass


def openscad() -> str | None:
    return shutil.which("openscad")


def render(source: str, out: Path, **params: str) -> str:
    """Render hardware/scad/`source` to `out` (its suffix picks STL or SVG) with the given
    parameters; return what OpenSCAD printed. Raises ScadError with its message on failure."""
    exe = openscad()
    if exe is None:
        raise ScadError("OpenSCAD is not installed: apt-get install openscad")
    args = [exe, "-o", str(out)]
    for name, value in params.items():
        args += ["-D", f"{name}={value}"]
    proc = subprocess.run(args + [str(SCAD / source)], capture_output=True, text=True,
                          timeout=120)
    if proc.returncode != 0 or "ERROR" in proc.stderr:
        raise ScadError(f"{source} {params}: {proc.stderr.strip()}")
    return proc.stderr


def template(name: str) -> str:
    source, params = TEMPLATES[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / name
        render(source, out, **params)
        return out.read_text()


def stated(echoes: str, name: str) -> list:
    """The value a part echoes as `name` (OpenSCAD's `ECHO: name = [...]`, lists nested)."""
    m = re.search(rf"ECHO: .*?\b{name} = ", echoes)
    if m is None:
        raise ScadError(f"the part echoes no {name}")
    value, _ = json.JSONDecoder().raw_decode(echoes, m.end())
    return value


def source_digest(name: str) -> str:
    """SHA-256 of what an STL is made from: its source's text and its parameters."""
    source, params = PARTS[name]
    text = (SCAD / source).read_text() + json.dumps(params, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def binary_stl(mesh: Mesh, name: str) -> bytes:
    """The mesh as binary STL (a fifth the size of OpenSCAD's ASCII), normals from the
    triangles' winding. OpenSCAD lists the same triangles in a different order from run to
    run; each is started at its least corner (keeping its winding) and the list sorted, so the
    same solid makes the same bytes."""
    out = [struct.pack("<80sI", f"catnip {name}".encode(), len(mesh.triangles))]
    for a, b, c in sorted(min((a, b, c), (b, c, a), (c, a, b)) for a, b, c in mesh.triangles):
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        length = sum(x * x for x in n) ** 0.5 or 1.0
        out.append(struct.pack("<12fH", *(x / length for x in n), *a, *b, *c, 0))
    return b"".join(out)


def part(name: str) -> tuple[Mesh, list[float]]:
    """A printable part rendered now, and the size its source states. Raises ScadError when it
    is not a closed manifold of that size."""
    source, params = PARTS[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / name
        echoes = render(source, out, **params)
        mesh = Mesh.read(out)
    size = stated(echoes, "size")
    problems = mesh.problems()
    if problems:
        raise ScadError(f"{name} is not a closed manifold: {problems[0]} "
                        f"({len(problems)} problems)")
    if any(abs(got - want) > SIZE_TOLERANCE_MM for got, want in zip(mesh.size(), size)):
        raise ScadError(f"{name} measures {mesh.size()} mm, its source states {size}")
    return mesh, size


def write_stls() -> None:
    STL.mkdir(exist_ok=True)
    record = {}
    for name, (source, params) in PARTS.items():
        mesh, size = part(name)
        (STL / name).write_bytes(binary_stl(mesh, name))
        record[name] = {"source": f"hardware/scad/{source}", "parameters": params, "size": size,
                        "source_sha256": source_digest(name)}
        print(f"wrote {(STL / name).relative_to(ROOT)} ({len(mesh.triangles)} triangles, "
              f"{' x '.join(f'{x:g}' for x in size)} mm)")
    SOURCES.write_text(json.dumps(record, indent=2) + "\n")


def main(argv: list[str]) -> None:
    if argv != ["--write"]:
        print(__doc__.strip())
        return
    for name in TEMPLATES:
        (SCAD / name).write_text(template(name))
        print(f"wrote {(SCAD / name).relative_to(ROOT)}")
    write_stls()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except ScadError as e:
        sys.exit(str(e))
