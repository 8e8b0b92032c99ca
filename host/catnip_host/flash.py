"""`catnip flash`: the catnip image onto a Pico in BOOTSEL mode, then the
table waited for.

A Pico held in BOOTSEL while it is plugged in shows up as a USB drive (RPI-RP2
for a Pico, RP2350 for a Pico 2) whose INFO_UF2.TXT names the boot ROM and
the board ("Board-ID: RPI-RP2"); a UF2 copied onto it is written to flash and
the Pico restarts into it. With picotool installed, `picotool load -x` does
the same over USB without a drive. The image for the chip found is chosen,
and checked (catnip_host.uf2) before anything is written. Then the Pico's
USB serial appears: its hello says which catnip it runs (version and the
digest of its sources).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from catnip_host import bundle, ports, uf2

INFO = "INFO_UF2.TXT"


class FlashError(Exception):
    """The image cannot be written; the message says why and what to do."""


@dataclass(frozen=True)
class Target:
    """The Pico in BOOTSEL mode an image goes to: its chip, and its drive or
    the picotool that reaches it over USB."""

    chip: str  # a key of uf2.CHIPS
    drive: Path | None = None
    tool: str | None = None

    def write(self, image: Path) -> str:
        """Write `image`, once it is a whole UF2 for this chip. How, in words."""
        try:
            data = image.read_bytes()
            uf2.check(data, self.chip, image.name)
        except OSError as e:
            raise FlashError(f"cannot read {image}: {e}") from None
        except uf2.Uf2Error as e:
            raise FlashError(f"{e}; nothing was written") from None
        if self.drive is not None:
            return _copy(data, self.drive / image.name)  # the bytes checked
        if self.tool is None:
            raise FlashError("no BOOTSEL drive and no picotool to write with")
        proc = subprocess.run([self.tool, "load", "-x", str(image)], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise FlashError(f"picotool could not write {image.name}: {_last_line(proc)}")
        return f"written with {self.tool} load -x"


def mount_points() -> list[Path]:
    """Where removable drives are mounted on this system."""
    if sys.platform == "win32":
        return [Path(f"{letter}:/") for letter in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    if sys.platform == "darwin":
        return [Path("/Volumes")]
    user = os.environ.get("USER", "")
    return [Path("/media") / user, Path("/run/media") / user, Path("/media"), Path("/mnt")]


def chip_of(drive: Path) -> str | None:
    """The chip of the Pico in BOOTSEL mode whose drive `drive` is (by its
    INFO_UF2.TXT), or None if it is not one."""
    try:
        return uf2.chip_of((drive / INFO).read_text(errors="replace"))
    except OSError:
        return None


def find_drives(roots: list[Path] | None = None) -> list[Path]:
    """Every mounted BOOTSEL drive (RPI-RP2, RP2350): a root itself or a folder in it."""
    found = []
    for root in roots if roots is not None else mount_points():
        candidates = [root]
        try:
            candidates += sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            pass
        found += [c for c in candidates if c not in found and chip_of(c) is not None]
    return found


def find_target(drive: Path | None = None, picotool: str | None = None,
                roots: list[Path] | None = None) -> Target:
    """The Pico in BOOTSEL mode to write to: `drive` if given (it must be
    one), else the one picotool sees when installed, else the one BOOTSEL
    drive mounted."""
    if drive is not None:
        return _on_drive(drive)
    tool = picotool if picotool is not None else shutil.which("picotool")
    why = None
    if tool:
        proc = subprocess.run([tool, "info", "-d"], capture_output=True, text=True)
        chip = next((c for c in uf2.CHIPS if proc.returncode == 0 and
                     re.search(rf"^\s*type:\s*{c}\b", proc.stdout, re.M)), None)
        if chip is not None:
            return Target(chip, tool=tool)
        why = _last_line(proc)
    drives = find_drives(roots)
    if not drives:
        tried = f"picotool found none ({why}) and " if why else ""
        raise FlashError(f"no Pico in BOOTSEL mode found ({tried}no RPI-RP2 or RP2350 drive is "
                         "mounted): hold BOOTSEL while plugging the Pico in, wait for the "
                         "drive, then run `catnip flash` again (or give the drive with --drive)")
    if len(drives) > 1:
        raise FlashError(f"{len(drives)} Picos are in BOOTSEL mode ({', '.join(map(str, drives))}):"
                         " give one with --drive")
    return _on_drive(drives[0])


def _on_drive(drive: Path) -> Target:
    chip = chip_of(drive)
    if chip is None:
        raise FlashError(f"{drive} is not a Pico in BOOTSEL mode (no {INFO} naming an "
                         "RPI-RP2 or RP2350 board there): hold BOOTSEL while plugging the "
                         "Pico in")
    return Target(chip, drive)


def _last_line(proc: subprocess.CompletedProcess) -> str:
    return ((proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no message"])[0]


def _copy(data: bytes, dest: Path) -> str:
    drive = dest.parent
    try:
        # The Pico restarts once the last block is in: one write, flushed.
        with open(dest, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        if chip_of(drive) is None and not drive.exists():
            return f"copied onto {drive} (the Pico restarted as the copy ended)"
        raise FlashError(f"cannot write {dest.name} onto {drive}: {e}") from None
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
              help="the Pico's BOOTSEL drive (RPI-RP2, RP2350)  [default: picotool if "
              "installed, else the one BOOTSEL drive mounted]")
@click.option("--uf2", "image", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="the image to write, once checked  [default: this catnip's image for the "
              "chip in BOOTSEL mode: the one it carries, or in a checkout the one `make "
              "firmware` builds, built first if its sources changed]")
@click.option("--port", help="after writing, " + ports.PORT_HELP)
@click.option("--wait", "wait_s", type=float, default=30.0, show_default=True,
              help="seconds to wait for the table after writing; 0: do not wait")
def command(drive: Path | None, image: Path | None, port: str | None, wait_s: float) -> None:
    """Write the catnip image to a Pico or Pico 2 in BOOTSEL mode (hold
    BOOTSEL while plugging it in), then wait for the table and say which
    catnip it runs. The Pico's flash files (board.json, the journal) are kept."""
    from catnip_host import image as images

    try:
        target = find_target(drive)
        if image is None:
            ours = images.current(target.chip)
            click.echo("\n".join(ours.describe()))
            image = ours.uf2
        click.echo(f"{image.name}: {target.write(image)}")
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
