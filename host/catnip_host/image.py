"""The catnip image: MicroPython for the Pico with catnip frozen in, one UF2
a maker drops on the Pico (`make firmware`, `catnip flash`).

firmware/manifest.py names what is frozen; the build adds catnip/release.py,
which tells the table its version and the digest of the sources it was built
from (the same digest `catnip deploy` writes into a stock MicroPython's
catnip/release.mpy, so laptop and table can tell whether they agree).

The image is built by ../shared/mpbuild/build.sh beside a catnip checkout
(MicroPython af47daf3, pico-sdk 2.2.0, no network), or, elsewhere, in a
MicroPython checkout named by MICROPY_DIR at that commit. A build is kept in
its folder with its digest: the same sources are never built twice.

    python -m catnip_host.image [--out DIR]      # what `make firmware` runs
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from catnip_host import bundle

ROOT = bundle.FIRMWARE.parent
MPBUILD = Path(os.environ.get("CATNIP_MPBUILD", ROOT.parent / "shared" / "mpbuild" / "build.sh"))
MICROPYTHON = "af47daf3b02b9f391cced3fc2ac6e9bf688b4639"  # v1.29.0-preview, mpy v6.3
BOARD = "RPI_PICO"
OUT = ROOT / "build" / "firmware"
UF2 = "catnip-pico.uf2"
INFO = "catnip-pico.json"
TOOLCHAIN = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "libstdc++-arm-none-eabi-newlib",
             "cmake")


class ImageError(Exception):
    """The image cannot be built; the message says why and what to do."""


@dataclass(frozen=True)
class Image:
    """A built image: the UF2 and what went into it."""

    uf2: Path
    version: str
    digest: str
    size: int  # bytes of firmware (firmware.bin) in the Pico's flash
    modules: list[str]  # catnip's frozen modules
    built: bool  # built now (False: the cached build of the same sources)

    def describe(self) -> list[str]:
        """What the image holds, for the person who built it."""
        return [f"{self.uf2} ({self.uf2.stat().st_size:,} bytes of UF2)",
                f"catnip {self.version}, sources {self.digest}, "
                f"{'built now' if self.built else 'already built from these sources'}",
                f"firmware {self.size:,} bytes of the Pico's 2 MB flash (littlefs keeps its "
                f"{(2048 - 640)} KB from 0xA0000)",
                f"MicroPython {MICROPYTHON[:8]} ({BOARD}), its own frozen modules "
                "(asyncio, onewire, ds18x20, dht, neopixel)",
                f"frozen catnip: {len(self.modules)} modules, main.py, {bundle.RELEASE} and "
                f"{bundle.SHIPPED} (the shipped boards)"]


def cached(out: Path = OUT, firmware: Path = bundle.FIRMWARE) -> Image | None:
    """The image in `out` if it was built from the current sources."""
    try:
        info = json.loads((out / INFO).read_text())
    except (OSError, ValueError):
        return None
    if info.get("digest") != bundle.digest(firmware) or not (out / UF2).exists():
        return None
    return Image(out / UF2, info["version"], info["digest"], info["size"], info["modules"],
                 False)


def build(out: Path = OUT, firmware: Path = bundle.FIRMWARE, quiet: bool = False) -> Image:
    """The image of the current sources in `out`: the one there if it is of
    these sources, else built now."""
    have = cached(out, firmware)
    if have is not None:
        return have
    sources = bundle.digest(firmware)
    work = out / "work"
    (work / "catnip").mkdir(parents=True, exist_ok=True)
    made = bundle.made(firmware, True)
    for path, text in made.items():
        (work / path).write_text(text)
    manifest = work / "manifest.py"  # a stable path: the build folder is kept by its path
    manifest.write_text(f"include({str(firmware / 'manifest.py')!r})\n" + "".join(
        f"module({path!r}, base_path={str(work)!r})\n" for path in made))
    bin_file = _compile(manifest, work / "out", quiet)
    modules = sorted(p.as_posix() for p in bundle.sources(firmware) if p.parts[0] == "catnip")
    shutil.copy(work / "out" / "firmware.uf2", out / UF2)
    info = {"version": bundle.VERSION, "digest": sources, "size": bin_file.stat().st_size,
            "modules": modules, "micropython": MICROPYTHON, "board": BOARD}
    (out / INFO).write_text(json.dumps(info, indent=1) + "\n")
    return Image(out / UF2, bundle.VERSION, sources, info["size"], modules, True)


def _compile(manifest: Path, out: Path, quiet: bool) -> Path:
    """MicroPython's rp2 build with `manifest`: firmware.bin and .uf2 in `out`."""
    log = None if not quiet else subprocess.DEVNULL
    mp_dir = os.environ.get("MICROPY_DIR")
    if mp_dir:
        port = Path(mp_dir) / "ports" / "rp2"
        if not port.is_dir():
            raise ImageError(f"MICROPY_DIR={mp_dir} is not a MicroPython checkout (no ports/rp2): "
                             f"clone micropython at {MICROPYTHON} and run "
                             "`make -C ports/rp2 submodules` there")
        build_dir = out.parent / "build-rp2"
        steps = [["make", "-C", str(Path(mp_dir) / "mpy-cross")],
                 ["make", "-C", str(port), f"BOARD={BOARD}", f"BUILD={build_dir}",
                  f"FROZEN_MANIFEST={manifest}"]]
        for step in steps:
            if subprocess.run(step, stdout=log, stderr=log).returncode != 0:
                raise ImageError(f"the MicroPython build failed: {' '.join(step)}")
        out.mkdir(parents=True, exist_ok=True)
        for name in ("firmware.uf2", "firmware.bin"):
            shutil.copy(build_dir / name, out / name)
        return out / "firmware.bin"
    if not MPBUILD.exists():
        raise ImageError(f"no MicroPython to build with: neither {MPBUILD} (beside a catnip "
                         "checkout) nor MICROPY_DIR (a MicroPython checkout at "
                         f"{MICROPYTHON[:8]}, see docs/pico.md)")
    missing = [t for t in ("arm-none-eabi-gcc", "cmake") if shutil.which(t) is None]
    if missing:
        raise ImageError(f"{', '.join(missing)} not installed: the image needs the ARM "
                         f"toolchain (Debian: sudo apt-get install {' '.join(TOOLCHAIN)})")
    args = [str(MPBUILD), "--out", str(out), "--manifest", str(manifest)]
    if subprocess.run(args + (["--quiet"] if quiet else []), stdout=log).returncode != 0:
        raise ImageError(f"the MicroPython build failed: see {out / 'build.log'}")
    return out / "firmware.bin"


def agreement(hello: dict, firmware: Path = bundle.FIRMWARE) -> tuple[bool, str]:
    """(the same build, a sentence) comparing the table's hello with this catnip."""
    ours = bundle.digest(firmware)
    how = {"image": "the catnip image", "files": ".mpy files on its flash",
           "source": "source files"}.get(hello.get("build"), "an unknown build")
    said = (f"the table runs catnip {hello.get('fw')} from {how}, sources "
            f"{hello.get('src') or 'unknown'}")
    if hello.get("src") == ours and hello.get("fw") == bundle.VERSION:
        return True, said + ": the same as this catnip's"
    fix = "`catnip flash`" if hello.get("build") == "image" else \
        "`catnip flash` (or `catnip deploy` to keep stock MicroPython)"
    return False, (f"{said}, but this catnip is {bundle.VERSION} with sources {ours}: run "
                   f"{fix} to put this catnip's build on the table")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m catnip_host.image",
                                     description="Build catnip-pico.uf2 from firmware/.")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder [{OUT}]")
    args = parser.parse_args(argv)
    try:
        image = build(args.out)
    except (ImageError, bundle.BundleError) as e:
        print(f"catnip: {e}", file=sys.stderr)
        return 1
    print("\n".join(image.describe()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
