"""The catnip image: MicroPython for the Pico with catnip frozen in, one UF2
a maker drops on the Pico (`make firmware`, `catnip flash`), for each board
catnip runs on: the Pico (RP2040) and the Pico 2 (RP2350).

firmware/manifest.py names what is frozen; the build adds catnip/release.py,
which tells the table its version and the digest of the sources it was built
from (the same digest `catnip deploy` writes into a stock MicroPython's
catnip/release.mpy, so laptop and table can tell whether they agree).

The image is built by ../shared/mpbuild/build.sh beside a catnip checkout
(MicroPython af47daf3, pico-sdk 2.2.0, no network), or, elsewhere, in a
MicroPython checkout named by MICROPY_DIR at that commit. A build is kept in
its folder with its digest: the same sources are never built twice.

An installed catnip (a wheel made by `make dist`) carries the images of its
own sources in catnip_host/firmware/ (setup.py) and never builds.

    python -m catnip_host.image [--out DIR] [--board NAME]   # `make firmware`: every board
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import platformdirs

from catnip_host import bundle, tree

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows: it flashes the images it carries, and builds none
    fcntl = None

ROOT = bundle.FIRMWARE.parent
MPBUILD = Path(os.environ.get("CATNIP_MPBUILD", ROOT.parent / "shared" / "mpbuild" / "build.sh"))
MICROPYTHON = "af47daf3b02b9f391cced3fc2ac6e9bf688b4639"  # v1.29.0-preview, mpy v6.3
OUT = ROOT / "build" / "firmware"
SHIPPED = Path(__file__).resolve().parent / "firmware"  # an installed catnip's images
TOOLCHAIN = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "libstdc++-arm-none-eabi-newlib",
             "cmake")


class ImageError(Exception):
    """The image cannot be built; the message says why and what to do."""


@dataclass(frozen=True)
class Board:
    """A board the catnip image is built for. Its flash layout is MicroPython's
    (ports/rp2/boards/<name>/mpconfigboard.cmake: MICROPY_HW_FLASH_STORAGE_BYTES
    of littlefs at the end of the flash, pico-sdk's PICO_FLASH_SIZE_BYTES)."""

    name: str  # MicroPython's board (ports/rp2/boards)
    chip: str  # what its BOOTSEL drive reports (catnip_host.uf2.CHIPS)
    stem: str  # the image's file names
    flash_kb: int
    fs_offset: int  # where littlefs begins in the flash

    @property
    def uf2(self) -> str:
        return f"{self.stem}.uf2"

    @property
    def info(self) -> str:
        return f"{self.stem}.json"


PICO = Board("RPI_PICO", "RP2040", "catnip-pico", 2048, 0xA0000)  # littlefs 1,408 KB
PICO2 = Board("RPI_PICO2", "RP2350", "catnip-pico2", 4096, 0x100000)  # littlefs 3 MB
BOARDS = (PICO, PICO2)


@dataclass(frozen=True)
class Image:
    """A built image: the UF2 and what went into it."""

    board: Board
    uf2: Path
    version: str
    digest: str
    size: int  # bytes of firmware (firmware.bin) in the Pico's flash
    modules: list[str]  # catnip's frozen modules
    built: bool  # built now (False: the cached build of the same sources)
    heap: int | None = None  # bytes the linker leaves MicroPython's heap (None: not known)

    def describe(self) -> list[str]:
        """What the image holds, for the person who built it."""
        return [f"{self.uf2} ({self.uf2.stat().st_size:,} bytes of UF2)",
                f"catnip {self.version}, sources {self.digest}, "
                f"{'built now' if self.built else 'already built from these sources'}",
                f"firmware {self.size:,} bytes of the {self.board.chip}'s "
                f"{self.board.flash_kb // 1024} MB flash (littlefs keeps its "
                f"{self.board.flash_kb - self.board.fs_offset // 1024:,} KB from "
                f"{self.board.fs_offset:#x})",
                *([f"MicroPython's heap: {self.heap:,} bytes of SRAM"] if self.heap else []),
                f"MicroPython {MICROPYTHON[:8]} ({self.board.name}), its own frozen modules "
                "(asyncio, onewire, ds18x20, dht, neopixel)",
                f"frozen catnip: {len(self.modules)} modules, main.py, {bundle.RELEASE}, "
                f"{bundle.SHIPPED} (the shipped boards) and {bundle.INTERNED} (names kept "
                "in flash)"]


def cached(out: Path = OUT, firmware: Path = bundle.FIRMWARE,
           board: Board = PICO) -> Image | None:
    """The image for `board` in `out` if it was built from the current sources."""
    try:
        info = json.loads((out / board.info).read_text())
    except (OSError, ValueError):
        return None
    if info.get("digest") != bundle.digest(firmware) or info.get("version") != bundle.VERSION \
            or info.get("made") != made_digest(firmware) \
            or info.get("board") != board.name or not (out / board.uf2).exists():
        return None
    return Image(board, out / board.uf2, info["version"], info["digest"], info["size"],
                 info["modules"], False, info.get("heap"))


def current(chip: str, quiet: bool = False) -> Image:
    """This catnip's image for a Pico with `chip`: the one an installed
    catnip carries, or in a checkout the build of its sources (built now if
    they changed)."""
    board = next((b for b in BOARDS if b.chip == chip), None)
    if board is None:
        raise ImageError(f"catnip has no image for the {chip}")
    if tree.ROOT == tree.CHECKOUT:
        return build(quiet=quiet, board=board)
    have = cached(SHIPPED, board=board)
    if have is None:
        raise ImageError(f"this catnip carries no {board.uf2} of its own sources "
                         f"({bundle.VERSION}, {bundle.digest()}) in {SHIPPED}: install it "
                         "from a wheel made with `make dist`, or give an image with --uf2")
    return have


def build(out: Path = OUT, firmware: Path = bundle.FIRMWARE, quiet: bool = False,
          board: Board = PICO) -> Image:
    """The image of the current sources for `board` in `out`: the one there
    if it is of these sources, else built now. One build at a time: `make
    firmware`, `catnip flash` and the pico tier's workers share the folder."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        return cached(out, firmware, board) or _build(out, firmware, quiet, board)


def _build(out: Path, firmware: Path, quiet: bool, board: Board) -> Image:
    sources = bundle.digest(firmware)
    work = out / "work"
    (work / "catnip").mkdir(parents=True, exist_ok=True)
    made = bundle.made(firmware, True)
    for path, text in made.items():
        (work / path).write_text(text)
    manifest = work / "manifest.py"  # a stable path: the build folder is kept by its path
    manifest.write_text(f"include({str(firmware / 'manifest.py')!r})\n" + "".join(
        f"module({path!r}, base_path={str(work)!r})\n" for path in made))
    built = work / f"out-{board.name}"
    bin_file = _compile(manifest, built, quiet, board.name)
    modules = sorted(p.as_posix() for p in bundle.sources(firmware) if p.parts[0] == "catnip")
    shutil.copy(built / "firmware.uf2", out / board.uf2)
    size, heap = bin_file.stat().st_size, _heap(built / "firmware.elf")
    info = {"version": bundle.VERSION, "digest": sources, "made": made_digest(firmware),
            "size": size, "modules": modules,
            "micropython": MICROPYTHON, "board": board.name, "chip": board.chip, "heap": heap}
    (out / board.info).write_text(json.dumps(info, indent=1) + "\n")
    return Image(board, out / board.uf2, bundle.VERSION, sources, size, modules, True, heap)


def made_digest(firmware: Path = bundle.FIRMWARE) -> str:
    """The digest of the modules the image's build makes: a change in how
    catnip_host makes them wants a new image as much as a change to the
    sources does."""
    text = json.dumps(bundle.made(firmware, True), sort_keys=True).encode()
    return hashlib.sha256(text).hexdigest()[:bundle.DIGEST_HEX]


def _heap(elf: Path) -> int | None:
    """The bytes between the linker's __GcHeapStart and __GcHeapEnd: the SRAM
    ports/rp2/main.c gives MicroPython's heap (None without nm to read them)."""
    nm = shutil.which("arm-none-eabi-nm")
    if nm is None or not elf.exists():
        return None
    proc = subprocess.run([nm, str(elf)], capture_output=True, text=True)
    at = {parts[2]: int(parts[0], 16) for parts in map(str.split, proc.stdout.splitlines())
          if len(parts) == 3}
    if "__GcHeapStart" not in at or "__GcHeapEnd" not in at:
        return None
    return at["__GcHeapEnd"] - at["__GcHeapStart"]


def _compile(manifest: Path, out: Path, quiet: bool, board: str) -> Path:
    """MicroPython's rp2 build with `manifest`: firmware.bin and .uf2 in `out`."""
    log = None if not quiet else subprocess.DEVNULL
    mp_dir = os.environ.get("MICROPY_DIR")
    if mp_dir:
        port = Path(mp_dir) / "ports" / "rp2"
        if not port.is_dir():
            raise ImageError(f"MICROPY_DIR={mp_dir} is not a MicroPython checkout (no ports/rp2): "
                             f"clone micropython at {MICROPYTHON} and run "
                             "`make -C ports/rp2 submodules` there")
        build_dir = out.parent / f"build-{board}"
        steps = [["make", "-C", str(Path(mp_dir) / "mpy-cross")],
                 ["make", "-C", str(port), f"BOARD={board}", f"BUILD={build_dir}",
                  f"FROZEN_MANIFEST={manifest}"]]
        for step in steps:
            if subprocess.run(step, stdout=log, stderr=log).returncode != 0:
                raise ImageError(f"the MicroPython build failed: {' '.join(step)}")
        out.mkdir(parents=True, exist_ok=True)
        for name in ("firmware.uf2", "firmware.bin", "firmware.elf"):
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
    args = [str(MPBUILD), "--out", str(out), "--manifest", str(manifest), "--board", board]
    env = dict(os.environ, MPBUILD_DIR=str(build_folder(os.environ)))
    if subprocess.run(args + (["--quiet"] if quiet else []), stdout=log, env=env).returncode:
        raise ImageError(f"the MicroPython build failed: see {out / 'build.log'}")
    return out / "firmware.bin"


# MicroPython's build names a file in its genhdr folders after a source's
# whole path, each "/" made "__" (py/makeqstrdefs.py), and a file's name has
# at most 255 bytes. At these sources the longest such name is 58 bytes
# longer than the build folder's own ("__micropython__shared__tinyusb__
# mp_usbd_runtime.c.compress"); build.sh adds "/" and a 12-digit digest.
NAME_MAX = 255
LONGEST_SOURCE = 58 + 13 + 10  # the source, the digest, ten to spare


def build_folder(environ: Mapping[str, str]) -> Path:
    """Where build.sh unpacks and builds MicroPython: MPBUILD_DIR if set,
    else the temporary folder's catnip-mpbuild, unless that path is too long
    for MicroPython's file names (a long TMPDIR), then the user's cache."""
    def fits(folder: Path) -> bool:  # as build.sh is given it: whole, from the root
        path = str(folder.absolute())
        return len(path.encode()) + path.count("/") + LONGEST_SOURCE <= NAME_MAX

    given = environ.get("MPBUILD_DIR")
    if given:
        if not fits(Path(given)):
            raise ImageError(f"MPBUILD_DIR={given} is too long a path for MicroPython's build, "
                             "which names files after it: choose a shorter folder")
        return Path(given).absolute()
    temporary = Path(environ.get("TMPDIR") or tempfile.gettempdir()).absolute() / "catnip-mpbuild"
    if fits(temporary):
        return temporary
    cache = Path(platformdirs.user_cache_dir("catnip", appauthor=False)) / "mpbuild"
    if not fits(cache):
        raise ImageError(f"the temporary folder {temporary.parent} is too long a path for "
                         "MicroPython's build, which names files after it, and so is "
                         f"{cache}: set MPBUILD_DIR to a shorter folder")
    print(f"catnip: building MicroPython in {cache}: the temporary folder's path is too long "
          "for its build, which names files after it", file=sys.stderr)
    return cache


def ship(out: Path = OUT, shipped: Path = SHIPPED) -> list[Image]:
    """Every board's image of the current sources (built if need be), copied
    with its description into `shipped`, the package data a wheel carries."""
    images = [build(out, board=board) for board in BOARDS]
    shipped.mkdir(parents=True, exist_ok=True)
    for old in shipped.glob("catnip-*"):
        old.unlink()
    for image in images:
        for name in (image.board.uf2, image.board.info):
            shutil.copy(out / name, shipped / name)
    return images


def agreement(hello: dict, firmware: Path = bundle.FIRMWARE) -> tuple[bool, str]:
    """(the same build, a sentence) comparing the table's hello with this catnip."""
    ours = bundle.digest(firmware)
    how = {"image": "the catnip image", "files": ".mpy files on its flash",
           "source": "source files"}.get(str(hello.get("build")), "an unknown build")
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
                                     description="Build the catnip images from firmware/.")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder [{OUT}]")
    parser.add_argument("--board", choices=[b.name for b in BOARDS], action="append",
                        help="build only this board's image [every board]")
    parser.add_argument("--ship", action="store_true",
                        help=f"then copy every board's image into {SHIPPED} (`make dist`)")
    args = parser.parse_args(argv)
    try:
        for board in BOARDS:
            if args.board is None or board.name in args.board:
                print("\n".join(build(args.out, board=board).describe()))
        if args.ship:
            for image in ship(args.out):
                print(f"{SHIPPED / image.board.uf2}: shipped in the wheel")
    except (ImageError, bundle.BundleError) as e:
        print(f"catnip: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
