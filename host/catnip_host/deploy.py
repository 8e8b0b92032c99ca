"""`catnip deploy`: the firmware onto the table's Pico, sending only what changed.

The board keeps catnip.manifest: the SHA-256 of every firmware file the last
deploy wrote. A file is sent when it is new, its hash differs from the
manifest's or its size on the board does; board.json and calibration.json are
compared with the board's own files (a maker may have changed them there).
Files the last deploy shipped that are no longer part of the firmware, and
anything else inside catnip/ (a module that was renamed, a source file left by
mip that would be imported instead of its .mpy), are removed. The journal,
setup and high scores are never touched.

On a Pico running the catnip image (catnip frozen into its MicroPython) the
firmware is the image's: only the table's own files (board.json, a
calibration) are written, and a catnip/ folder, main.py or manifest left by
an earlier deploy onto stock MicroPython is removed (on the flash, catnip/
would be imported instead of the frozen code).

Steps: stop the app, read what the board holds, check that it loads this
compiler's .mpy files (stock MicroPython), then (unless a dry run) drop the manifest, write each
file beside its old one and rename it over, remove the stale ones, write the
new manifest, read every written file's hash back, import each written module
afresh and load board.json with the board's own code, and restart: the app
must answer hello. A deploy cut short leaves no manifest, so the next one sends
everything again. A dry run writes nothing and leaves the board as it found
it: an app it stopped is started again, a board found at its REPL stays there.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from catnip_host import bundle
from catnip_host.bundle import Item
from catnip_host.pico import Pico, PicoError, Waits

MANIFEST = "catnip.manifest"
PACKAGE = "catnip"  # the one folder that is wholly the firmware's
SHORT = 16  # hex digits of each file's SHA-256 kept in the manifest: 64 bits tell a change


class DeployError(Exception):
    """Deploying cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class Change:
    action: str  # "add", "change" or "remove"
    path: str
    size: int  # bytes of the new file, or of the one removed


@dataclass
class Plan:
    """What a deploy does to one board."""

    changes: list[Change]
    write: list[Item]
    remove: list[str]
    manifest: dict | None  # None: the catnip image holds the firmware
    unchanged: int

    @property
    def bytes(self) -> int:
        return sum(len(i.data) for i in self.write)


@dataclass
class Outcome:
    """What a deploy did, for the summary and `make bench`."""

    plan: Plan
    how: str  # how the REPL was reached
    sent: int = 0  # bytes sent to the board, everything included
    seconds: float = 0.0
    checked: list[str] = field(default_factory=list)
    hello: dict | None = None
    heard: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the deploy found, for the person


def plan(items: list[Item], configs: list[Item], board: dict, resend: bool = False) -> Plan:
    """The changes that bring a board (as Pico.survey saw it) to `items` (the
    firmware: none on the catnip image) and `configs` (board.json,
    calibration.json)."""
    files: dict[str, int] = board["files"]
    image = board.get("image") is not None
    old = (board.get("manifest") or {}).get("files") or {}
    changes, write = [], []
    for item in items:
        size = files.get(item.path)
        if size is None:
            changes.append(Change("add", item.path, len(item.data)))
        elif resend or old.get(item.path) != item.sha[:SHORT] or size != len(item.data):
            changes.append(Change("change", item.path, len(item.data)))
        else:
            continue
        write.append(item)
    for item in configs:
        held = board["configs"].get(item.path)
        if held != item.sha:
            changes.append(Change("change" if held else "add", item.path, len(item.data)))
            write.append(item)
    shipped = {i.path for i in items}
    known = shipped | {MANIFEST, bundle.BOARD_FILE, bundle.CALIBRATION_FILE}
    ours = set(old) | {p for p in files if p.startswith(PACKAGE + "/")
                       or p.endswith(".part") and p[:-5] in known}  # a write cut short
    if image:
        ours.add(MANIFEST)  # the image needs none: its firmware is frozen
    remove = sorted(p for p in ours - shipped if files.get(p, -1) >= 0)
    changes += [Change("remove", p, files[p]) for p in remove]
    manifest = None if image else {"catnip": bundle.VERSION,
                                   "files": {i.path: i.sha[:SHORT] for i in items}}
    return Plan(changes, write, remove, manifest, len(items) + len(configs) - len(write))


def deploy(port: str | None, board_file: Path | None = None, calibration: Path | None = None,
           dry_run: bool = False, restart: bool = True, resend: bool = False,
           firmware: Path = bundle.FIRMWARE, waits: Waits = Waits(),
           say: Callable[[str], None] = lambda text: None,
           show: Callable[[Plan], None] = lambda plan: None) -> Outcome:
    """Deploy onto the board on `port`; `say` gets each step, `show` the plan
    before anything is written. Raises DeployError, or ports.PortError when
    the port cannot be opened."""
    configs = []
    try:
        if board_file is not None:
            configs.append(bundle.board_config(board_file))
        if calibration is not None:
            configs.append(bundle.calibration(calibration))
        bundle.sources(firmware)
    except bundle.BundleError as e:
        raise DeployError(str(e)) from None
    pico = Pico(port, waits)
    start = time.monotonic()
    try:
        how = pico.take_repl()
        say(f"{pico.name}: {how}")
        try:
            held, todo = _survey(pico, configs, board_file is None, firmware, resend)
        except (DeployError, bundle.BundleError):
            # Refused, nothing written: a board taken from its app goes back to it.
            if restart and pico.stopped_app:
                pico.restart()
            else:
                pico.transport.exit_raw_repl()
            raise
        show(todo)
        outcome = Outcome(todo, how, notes=_notes(held, todo, firmware))
        if not dry_run and not (not todo.changes and held.get("manifest") == todo.manifest):
            _apply(pico, todo, held, say)
            outcome.checked = _check(pico, todo)
            say(f"checked: {len(todo.write)} file(s) read back, "
                f"{len(_modules(todo.write))} module(s) imported, board.json loads")
        if not restart or dry_run and not pico.stopped_app:
            pico.transport.exit_raw_repl()  # the friendly REPL, for whoever is at the laptop
        else:
            outcome.hello = pico.restart()
            if outcome.hello is None:
                raise DeployError("the Pico did not start the app after the restart; it said:\n  "
                                  + "\n  ".join(pico.heard[-8:] or ["nothing"]))
        outcome.sent, outcome.seconds = pico.sent, time.monotonic() - start
        outcome.heard = pico.heard
        return outcome
    except (PicoError, bundle.BundleError) as e:
        raise DeployError(str(e)) from None
    finally:
        pico.close()


def _survey(pico: Pico, configs: list[Item], keep_board: bool, firmware: Path,
            resend: bool) -> tuple[dict, Plan]:
    """What the board holds and the plan for it, or DeployError / BundleError
    saying why this board cannot take the firmware."""
    held = pico.survey(tuple(i.path for i in configs) + (bundle.BOARD_FILE,))
    if keep_board and bundle.BOARD_FILE not in held["files"]:
        raise DeployError("the Pico has no board.json yet: choose the table's wiring with "
                          "--board direct, --board mux or --board PATH")
    items = [] if held.get("image") else bundle.firmware(bundle.arch_of(held["mpy"]), firmware)
    todo = plan(items, configs, held, resend)
    free = held.get("free")
    freed = sum(max(0, held["files"].get(i.path, 0)) for i in todo.write)
    if free is not None and todo.bytes > free + freed:
        raise DeployError(f"the Pico's flash has {free:,} bytes free and the deploy needs "
                          f"{todo.bytes - freed:,} more: remove files you put there yourself "
                          "(mpremote fs ls, mpremote rm)")
    return held, todo


def _notes(held: dict, todo: Plan, firmware: Path) -> list[str]:
    """What the deploy found on the Pico, in words."""
    image = held.get("image")
    if image is None:
        return ["the Pico runs MicroPython without catnip in it: catnip goes onto its flash "
                "as .mpy files, which load into the heap; the catnip image (`catnip flash`) "
                "runs them from flash and leaves far more heap for play"]
    out = [f"the Pico runs the catnip image {image['fw']} (sources {image['src']}): the "
           "firmware is in the image, so only the table's own files go onto its flash"]
    if any(p.startswith(PACKAGE + "/") for p in todo.remove):
        out.append("the catnip/ folder an earlier deploy left on the flash is removed: it "
                   "would run instead of the image's own code")
    ours = bundle.digest(firmware)
    if image["src"] != ours:
        out.append(f"the image was built from other sources ({image['src']}) than this "
                   f"catnip's ({ours}): `catnip flash` puts this catnip's image on the Pico")
    return out


def _apply(pico: Pico, todo: Plan, held: dict, say: Callable[[str], None]) -> None:
    if held.get("manifest") is not None and todo.manifest is not None:
        pico.remove(MANIFEST)  # until the new one is written, the next deploy sends everything
    folders = {p for p, size in held["files"].items() if size < 0}
    for item in todo.write:
        parts = item.path.split("/")[:-1]
        for n in range(1, len(parts) + 1):
            folder = "/".join(parts[:n])
            if folder not in folders:
                pico.mkdir(folder)
                folders.add(folder)
        pico.write(item.path, item.data)
        say(f"wrote {item.path} ({len(item.data):,} bytes)")
    for path in todo.remove:
        pico.remove(path)
        say(f"removed {path}")
    left = {p for p in held["files"] if p not in todo.remove} | {i.path for i in todo.write}
    for folder in sorted(folders, key=len, reverse=True):
        if (folder == PACKAGE or folder.startswith(PACKAGE + "/")) \
                and not any(p.startswith(folder + "/") for p in left):
            pico.rmdir(folder)
            left.discard(folder)
            say(f"removed the folder {folder}")
    if todo.manifest is not None:
        pico.write(MANIFEST, json.dumps(todo.manifest, separators=(",", ":")).encode())


def _modules(items: list[Item]) -> list[str]:
    return [i.path[:-4].replace("/", ".").removesuffix(".__init__")
            for i in items if i.path.endswith(".mpy")]


def _check(pico: Pico, todo: Plan) -> list[str]:
    """Every written file's hash read back, each written module imported
    afresh, board.json loaded by the board's catnip.board."""
    paths = [i.path for i in todo.write]
    manifest = [MANIFEST] if todo.manifest is not None else []
    got = pico.hashes(paths + manifest)
    bad = [i.path for i in todo.write if got.get(i.path) != i.sha]
    if bad or manifest and got.get(MANIFEST) is None:
        raise DeployError("the Pico's copy of %s differs from what was sent: run `catnip deploy "
                          "--all` to send everything again" % (", ".join(bad) or MANIFEST))
    result = pico.imports(_modules(todo.write), bundle.BOARD_FILE)
    if result["failed"]:
        name, error = result["failed"][0]
        raise DeployError(f"{name} does not import on the Pico ({error}); "
                          f"{len(result['failed'])} module(s) failed")
    if "problems" in result["board"]:
        raise DeployError("the Pico's catnip.board refuses board.json:\n  "
                          + "\n  ".join(result["board"]["problems"]))
    return paths
