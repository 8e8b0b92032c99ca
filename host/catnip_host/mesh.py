"""STL meshes as OpenSCAD writes them, and whether one is a printable solid.

A slicer needs a closed manifold: every edge shared by exactly two triangles,
which run along it in opposite directions (so every face's outside is the
same side). `problems` names what breaks that; `size` and `volume` say how
big the solid is.
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float, float]
_FACET = re.compile(r"outer\s+loop\s+vertex\s+(\S+)\s+(\S+)\s+(\S+)\s+vertex\s+(\S+)\s+(\S+)"
                    r"\s+(\S+)\s+vertex\s+(\S+)\s+(\S+)\s+(\S+)\s+endloop")


@dataclass(frozen=True)
class Mesh:
    triangles: list[tuple[Point, Point, Point]]

    @classmethod
    def read(cls, path: Path) -> Mesh:
        """An ASCII or binary STL file."""
        data = path.read_bytes()
        if data.lstrip().startswith(b"solid") and b"facet" in data[:1024]:
            return cls.parse(data.decode("ascii"))
        (count,) = struct.unpack_from("<I", data, 80)
        if len(data) != 84 + 50 * count:
            raise ValueError(f"{path}: neither ASCII STL nor a binary STL of {count} triangles")
        tris = []
        for i in range(count):
            v = struct.unpack_from("<9f", data, 84 + 50 * i + 12)
            tris.append((v[0:3], v[3:6], v[6:9]))
        return cls(tris)

    @classmethod
    def parse(cls, text: str) -> Mesh:
        tris = []
        for m in _FACET.finditer(text):
            v = [float(x) for x in m.groups()]
            tris.append(((v[0], v[1], v[2]), (v[3], v[4], v[5]), (v[6], v[7], v[8])))
        return cls(tris)

    def bounds(self) -> tuple[Point, Point]:
        points = [p for t in self.triangles for p in t]
        low = tuple(min(p[k] for p in points) for k in range(3))
        high = tuple(max(p[k] for p in points) for k in range(3))
        return low, high  # type: ignore[return-value]

    def size(self) -> list[float]:
        low, high = self.bounds()
        return [round(h - lo, 4) for lo, h in zip(low, high)]

    def volume(self) -> float:
        """Signed volume (divergence theorem): positive when the faces point outwards."""
        total = 0.0
        for a, b, c in self.triangles:
            total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                      + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
        return total

    def problems(self) -> list[str]:
        """What keeps the mesh from being a closed, consistently oriented manifold; [] if
        nothing does."""
        if not self.triangles:
            return ["no triangles"]
        edges: Counter[tuple[Point, Point]] = Counter()
        for a, b, c in self.triangles:
            edges.update(((a, b), (b, c), (c, a)))
        out = []
        for (a, b), n in sorted(edges.items()):
            back = edges.get((b, a), 0)
            if n != 1 or back != 1:
                out.append(f"edge {a} -> {b}: {n} triangle(s) run along it, {back} back")
        if not out and self.volume() <= 0:
            out.append("the faces point inwards (negative volume)")
        return out
