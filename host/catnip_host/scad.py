"""The OpenSCAD parts in hardware/scad/: rendering them headless, and their 1:1 templates.

    python -m catnip_host.scad --write     (needs OpenSCAD: apt-get install openscad)

renders each template (a 2D outline to print at 100 % and drill or cut through) into
hardware/scad/, beside the .scad files that make them. STL files are left to the maker:
`openscad -o part.stl -D 'part="top"' hardware/scad/tray.scad`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from catnip_host.wiring import ROOT

SCAD = ROOT / "hardware" / "scad"

# Template file -> (source, parameters).
TEMPLATES: dict[str, tuple[str, dict[str, str]]] = {
    "tray-top.svg": ("tray.scad", {"part": '"top_template"'}),
    "tray-bottom.svg": ("tray.scad", {"part": '"bottom_template"'}),
    "tray-top-4.svg": ("tray.scad", {"part": '"top_template"', "cells": "4"}),
    "tray-bottom-4.svg": ("tray.scad", {"part": '"bottom_template"', "cells": "4"}),
    "station-lid.svg": ("station.scad", {"part": '"lid_template"'}),
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


def main(argv: list[str]) -> None:
    if argv != ["--write"]:
        print(__doc__.strip())
        return
    for name in TEMPLATES:
        (SCAD / name).write_text(template(name))
        print(f"wrote {(SCAD / name).relative_to(ROOT)}")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except ScadError as e:
        sys.exit(str(e))
