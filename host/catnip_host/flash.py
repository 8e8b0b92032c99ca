"""`catnip flash`: the catnip image onto a Pico in BOOTSEL mode, then the
table waited for.

A Pico held in BOOTSEL while it is plugged in shows up as a USB drive named
RPI-RP2 whose INFO_UF2.TXT names the boot ROM and the board ("Board-ID:
RPI-RP2"); a UF2 copied onto it is written to flash and the Pico restarts
into it. With picotool installed, `picotool load -x` does the same over USB
without a drive. Then the Pico's USB serial appears: its hello says which
catnip it runs (version and the digest of its sources).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import click

from catnip_host import bundle, ports

INFO = "INFO_UF2.TXT"
BOARD_ID = "Board-ID: RPI-RP2"  # an RP2040's boot ROM (the Pico's chip)


class FlashError(Exception):
    """The image cannot be written; the message says why and what to do."""


def mount_points() -> list[Path]:
    """Where removable drives are mounted on this system."""
    if sys.platform == "win32":
        return [Path(f"{letter}:/") for letter in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    if sys.platform == "darwin":
        return [Path("/Volumes")]
    user = os.environ.get("USER", "")
    return [Path("/media") / user, Path("/run/media") / user, Path("/media"), Path("/mnt")]


def is_bootsel(drive: Path) -> bool:
    """Whether `drive` is an RP2040 in BOOTSEL mode (by its INFO_UF2.TXT)."""
    try:
        return BOARD_ID in (drive / INFO).read_text(errors="replace")
    except OSError:
        return False


def find_drives(roots: list[Path] | None = None) -> list[Path]:
    """Every mounted RPI-RP2 drive: a root itself or a folder in it."""
    found = []
    for root in roots if roots is not None else mount_points():
        candidates = [root]
        try:
            candidates += sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            pass
        found += [c for c in candidates if c not in found and is_bootsel(c)]
    return found


def write(uf2: Path, drive: Path | None = None, picotool: str | None = None,
          roots: list[Path] | None = None) -> str:
    """Write `uf2` to the Pico in BOOTSEL mode: onto `drive` if given (it
    must be one), else with picotool when installed, else onto the one
    RPI-RP2 drive mounted. How it was written, in words."""
    if drive is not None:
        if not is_bootsel(drive):
            raise FlashError(f"{drive} is not a Pico in BOOTSEL mode (no {INFO} naming "
                             "RPI-RP2 there): hold BOOTSEL while plugging the Pico in")
        return _copy(uf2, drive)
    tool = picotool if picotool is not None else shutil.which("picotool")
    if tool:
        proc = subprocess.run([tool, "load", "-x", str(uf2)], capture_output=True, text=True)
        if proc.returncode == 0:
            return f"written with {tool} load -x"
        why = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no message"]
        if not find_drives(roots):
            raise FlashError(f"picotool could not write the image ({why[0]}) and no RPI-RP2 "
                             "drive is mounted: hold BOOTSEL while plugging the Pico in")
    drives = find_drives(roots)
    if not drives:
        raise FlashError("no Pico in BOOTSEL mode found (no RPI-RP2 drive mounted): hold "
                         "BOOTSEL while plugging the Pico in, wait for the drive, then run "
                         "`catnip flash` again (or give the drive with --drive)")
    if len(drives) > 1:
        raise FlashError(f"{len(drives)} Picos are in BOOTSEL mode ({', '.join(map(str, drives))}):"
                         " give one with --drive")
    return _copy(uf2, drives[0])


def _copy(uf2: Path, drive: Path) -> str:
    try:
        # The Pico restarts once the last block is in: a short file copy, flushed.
        with open(uf2, "rb") as src, open(drive / uf2.name, "wb") as dst:
            shutil.copyfileobj(src, dst)
            dst.flush()
            os.fsync(dst.fileno())
    except OSError as e:
        if not is_bootsel(drive) and not drive.exists():
            return f"copied onto {drive} (the Pico restarted as the copy ended)"
        raise FlashError(f"cannot write {uf2.name} onto {drive}: {e}") from None
    return f"copied onto {drive}"


def wait_for_table(port: str | None, seconds: float,
                   say: Callable[[str], None] = lambda text: None) -> dict | str:
    """The table's hello once its USB serial is back (found by its USB ids
    when `port` is None), or what it printed instead (no board.json yet,
    another program at the REPL) as text."""
    from catnip_host.pico import Pico, Waits

    deadline = time.monotonic() + seconds
    while True:
        try:
            pico = Pico(port, Waits(boot=max(1.0, deadline - time.monotonic())))
            break
        except ports.PortError:
            if time.monotonic() >= deadline:
                raise FlashError(f"the Pico's USB serial did not come back within {seconds:.0f} s:"
                                 " unplug it and plug it in again (without BOOTSEL)") from None
            time.sleep(0.5)
    say(f"{pico.name}: the Pico is up")
    try:
        hello = pico.hello()
        return hello if hello is not None else "\n".join(pico.heard[-6:]) or "nothing"
    finally:
        pico.close()


@click.command("flash")
@click.option("--drive", type=click.Path(file_okay=False, path_type=Path),
              help="the Pico's RPI-RP2 drive  [default: picotool if installed, else the one "
              "RPI-RP2 drive mounted]")
@click.option("--uf2", "uf2", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="the image to write  [default: this catnip's catnip-pico.uf2, built first "
              "if its sources changed]")
@click.option("--port", help="after writing, " + ports.PORT_HELP)
@click.option("--wait", "wait_s", type=float, default=30.0, show_default=True,
              help="seconds to wait for the table after writing; 0: do not wait")
def command(drive: Path | None, uf2: Path | None, port: str | None, wait_s: float) -> None:
    """Write the catnip image to a Pico in BOOTSEL mode (hold BOOTSEL while
    plugging it in), then wait for the table and say which catnip it runs.
    The Pico's flash files (board.json, the journal) are kept."""
    from catnip_host import image as images

    try:
        if uf2 is None:
            built = images.build()
            click.echo("\n".join(built.describe()))
            uf2 = built.uf2
        click.echo(f"{uf2.name}: {write(uf2, drive)}")
        if wait_s <= 0:
            return
        got = wait_for_table(port, wait_s, click.echo)
    except (FlashError, images.ImageError, bundle.BundleError) as e:
        raise click.ClickException(str(e)) from None
    if isinstance(got, str):
        click.echo(f"the table did not start the app; it said:\n  {got}")
        click.echo("with no board.json yet it shows what it found on the first screen: "
                   "confirm there, or run `catnip deploy --board direct|mux`")
        return
    same, sentence = images.agreement(got)
    click.echo(f"the table is up: board {got.get('board')}, {got.get('stations')} stations; "
               + sentence)
    if not same:
        raise SystemExit(1)
