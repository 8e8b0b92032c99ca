"""The emulated Pico's flash (bench/pico_rig.py): `catnip deploy` onto it over
the bench's USB serial, files put on and taken off its littlefs, and what it
holds read back (the journal, setup.json, the panels' text)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.pico_rig import (FLASH_BYTES, FS_BLOCK, FS_OFFSET, REPL_FREE, ROOT, STATIONS, WORLD,
                            BenchError, _node, _stop, _tagged, _wait_for)

import mpunix  # noqa: E402  (tests/, which pico_rig puts on the path)

# ---- deploying -----------------------------------------------------------------


def board7() -> dict:
    """firmware/boards/mux.json with the world's seven stations."""
    board = json.loads((ROOT / "firmware" / "boards" / "mux.json").read_text())
    board["stations"] = board["stations"][:STATIONS]
    return board


def deploy(flash: Path, work: Path, board: dict | None = None, timeout: float = 900,
           uf2: Path | None = None):
    """`catnip deploy` onto the Pico running `uf2` (default: the catnip
    image) whose flash is the image `flash` (made empty if missing; stock
    MicroPython formats its own), with
    `board` (default: board7()) as board.json: the same code
    (catnip_host.deploy) over the bench's USB serial, served on socket://.
    A main.py that keeps the REPL free is on the flash meanwhile (the bench
    serves once the REPL prompt shows); on the image it is taken off again,
    so the app starts at the next power-up. Without the deploy's restart:
    MicroPython's soft reboot touches core 1, which rp2040js lacks; the
    next run() boots from the image. Returns the deploy's Outcome."""
    from catnip_host.deploy import deploy as catnip_deploy
    from catnip_host.pico import Waits

    work.mkdir(parents=True, exist_ok=True)
    board_file = work / "board.json"
    board_file.write_text(json.dumps(board or board7(), indent=1))
    out = work / "deploy"
    shutil.rmtree(out, ignore_errors=True)
    if uf2 is None:  # the image's main.py would start the app: an empty one keeps the REPL
        if not flash.exists():
            fresh(flash)
        put(flash, {"main.py": REPL_FREE})
    bench = subprocess.Popen(
        _node(uf2) + ["--world", str(WORLD), "--flash-image", str(flash), "--port", "0",
                      "--out", str(out), "--timeout", str(int(timeout)), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = _wait_for(out / "port", bench, 60)
        outcome = catnip_deploy(f"socket://127.0.0.1:{port}", board_file, restart=False,
                                waits=Waits(stop=5, repl=10, raw=10, tries=3, step=120))
    finally:
        _stop(bench)
    if not flash.exists():
        raise BenchError("the bench saved no flash image after the deploy")
    if uf2 is None:
        without(flash, "main.py", flash)
    return outcome


def fresh(flash: Path) -> Path:
    """An erased flash with an empty littlefs where MicroPython keeps it."""
    data = bytearray(b"\xff" * FLASH_BYTES)
    fs = _mount(data, new=True)
    data[FS_OFFSET:] = fs.context.buffer
    flash.write_bytes(data)
    return flash


def put(flash: Path, files: dict[str, bytes], into: Path | None = None) -> Path:
    """The flash image `flash` with `files` (path: bytes; folders made) on
    its littlefs, as `into` (default: in place)."""
    data = bytearray(flash.read_bytes())
    fs = _mount(data)
    for name, content in files.items():
        parts = name.split("/")
        for n in range(1, len(parts)):
            folder = "/".join(parts[:n])
            if not _exists(fs, folder):
                fs.mkdir(folder)
        with fs.open(name, "wb") as f:
            f.write(content)
    data[FS_OFFSET:] = fs.context.buffer
    (into or flash).write_bytes(data)
    return into or flash


def repl_free(flash: Path, into: Path) -> Path:
    """A copy of `flash` whose power-up leaves the REPL free (for a script)."""
    return put(flash, {"main.py": REPL_FREE}, into)


def without(flash: Path, name: str, into: Path) -> Path:
    """A copy of the flash image `flash` without the file `name`, as `into`."""
    data = bytearray(flash.read_bytes())
    fs = _mount(data)
    if _exists(fs, name):
        fs.remove(name)
    data[FS_OFFSET:] = fs.context.buffer
    into.write_bytes(data)
    return into


def _exists(fs, name: str) -> bool:
    try:
        fs.stat(name)
        return True
    except Exception:  # noqa: BLE001 (littlefs-python raises its own error for a missing file)
        return False


def _mount(data: bytes | bytearray, new: bool = False):
    """The littlefs in a flash image (formatted afresh when `new`)."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=(len(data) - FS_OFFSET) // FS_BLOCK,
                  mount=False)
    fs.context.buffer = bytearray(data[FS_OFFSET:])
    if new:
        fs.format()
    fs.mount()
    return fs




# ---- what the flash and the panels hold -----------------------------------------


def read_flash(flash: Path, into: Path, names: tuple[str, ...] = ("journal", "setup.json")) -> Path:
    """Copy `names` from the Pico's littlefs (in the flash image) to `into`."""
    fs = _mount(flash.read_bytes())
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    present = set(fs.listdir("/"))
    for name in names:
        if name not in present:
            continue
        if fs.stat(name).type == 2:  # a folder
            for root, _, files in fs.walk(name):
                (into / root).mkdir(parents=True, exist_ok=True)
                for f in files:
                    with fs.open(f"{root}/{f}", "rb") as src:
                        (into / root / f).write_bytes(src.read())
        else:
            with fs.open(name, "rb") as src:
                (into / name).write_bytes(src.read())
    return into


_READ_TEXT = r"""
import json, sys
from devsim import glyphs
panels = json.load(open(sys.argv[1]))
out = {}
for name in panels:
    p = panels[name]
    out[name] = glyphs.lines(bytes.fromhex(p[0]), p[1]) if p[2] else []
print("TEXT " + json.dumps(out))
"""


def read_text(panels: dict[str, dict]) -> dict[str, list[str]]:
    """The text lines on each panel (its GDDRAM read by devsim.glyphs under the
    MicroPython unix port); a panel that is off reads as no lines. Refuses a
    panel whose scan is not the upright one the driver sets."""
    for name, p in panels.items():
        st = p["state"]
        if st["on"] and not (st["remap"] and st["comflip"] and st["startline"] == 0):
            raise BenchError(f"{name}: not in the driver's upright orientation: {st}")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "panels.json"
        src.write_text(json.dumps({n: [p["gddram"], p["height"], p["state"]["on"]]
                                   for n, p in panels.items()}))
        proc = mpunix.run(["-c", _READ_TEXT, str(src)], timeout=300)
    return _tagged(proc, "TEXT")
