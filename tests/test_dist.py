"""What `make dist` makes: a wheel and sdist carrying both catnip images of
these sources, from which a fresh venv (no checkout, no toolchain, no
../shared) flashes a Pico or a Pico 2 with exactly the UF2 `make firmware`
built, and refuses anything else before writing.

The images take minutes to build, so these tests run once `make firmware`
has built them: `make test` skips them before that; .ci/run builds them
first and runs `make test` with CATNIP_FIRMWARE_REQUIRED=1, where a missing
image fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from catnip_host import bundle, uf2
from catnip_host import image as images
from uf2rig import INFO

ROOT = Path(__file__).resolve().parents[1]
LEFT_OUT = (".git", ".venv", "build", "dist", "__pycache__", "*.egg-info", ".pytest_cache",
            ".hypothesis", "node_modules")

pytestmark = pytest.mark.xdist_group("install")


@pytest.fixture(scope="module")
def built() -> dict[str, images.Image]:
    """Each chip's image of the current sources, as `make firmware` left it."""
    have = {b.chip: images.cached(board=b) for b in images.BOARDS}
    missing = [b.uf2 for b in images.BOARDS if have[b.chip] is None]
    if missing:
        why = f"{', '.join(missing)} not built from these sources: run `make firmware`"
        if os.environ.get("CATNIP_FIRMWARE_REQUIRED"):
            pytest.fail(why + " (CATNIP_FIRMWARE_REQUIRED is set: CI builds them first)")
        pytest.skip(why)
    return have


@pytest.fixture(scope="module")
def dist(built, tmp_path_factory) -> tuple[Path, Path, Path]:
    """(the wheel, the sdist, a fresh venv outside the checkout with only the
    wheel installed), made as `make dist` makes them from a copy of the tree."""
    where = tmp_path_factory.mktemp("dist")
    src = where / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*LEFT_OUT))
    images.ship(shipped=src / "host" / "catnip_host" / "firmware")
    run([sys.executable, "-m", "build", "--outdir", str(where / "dist"), str(src)], where)
    (wheel,) = (where / "dist").glob("*.whl")
    (sdist,) = (where / "dist").glob("*.tar.gz")
    env_dir = where / "venv"
    venv.create(env_dir, with_pip=True)
    run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel),
         "-c", str(ROOT / "requirements-dev.txt")], where)
    return wheel, sdist, env_dir


def run(args: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    """`args` with nothing of the checkout on the path and no way to build an image."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MICROPYPATH")}
    env |= {"CATNIP_MPBUILD": str(cwd / "no-mpbuild"), "MICROPY_DIR": ""}
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode in ok, proc.stdout + proc.stderr
    return proc


def payload(data: bytes) -> bytes:
    """What a UF2 writes to flash, its blocks' payloads in order."""
    return b"".join(data[k + 32:k + 32 + uf2.PAGE] for k in range(0, len(data), uf2.BLOCK))


@pytest.mark.parametrize("chip", ["RP2040", "RP2350"])
def test_each_image_is_whole_for_its_chip_and_holds_catnip_of_these_sources(built, chip):
    image = built[chip]
    data = image.uf2.read_bytes()
    assert uf2.check(data, chip, image.uf2.name).chip == chip
    other = next(c for c in uf2.CHIPS if c != chip)
    with pytest.raises(uf2.Uf2Error, match=f"is for the {chip}"):
        uf2.check(data, other)
    flash = payload(data)
    assert (image.version, image.digest) == (bundle.VERSION, bundle.digest())
    assert bundle.digest().encode() in flash  # catnip.release's, which the table reports
    frozen = [m for m in image.modules if m.endswith(".py")]
    assert len(frozen) > 50
    for name in frozen + [bundle.RELEASE, bundle.SHIPPED, "main.py"]:
        assert name.encode() + b"\0" in flash, f"{name} is not frozen into {image.uf2.name}"
    assert image.size < image.board.fs_offset  # the firmware ends before littlefs begins


def test_the_wheel_and_sdist_carry_both_images_of_the_packages_sources(built, dist):
    wheel, sdist, _ = dist
    names = set(zipfile.ZipFile(wheel).namelist())
    with tarfile.open(sdist) as tar:
        in_sdist = {name.partition("/")[2] for name in tar.getnames()}
    for board in images.BOARDS:
        for name in (board.uf2, board.info):
            assert f"catnip_host/firmware/{name}" in names, name
            assert f"host/catnip_host/firmware/{name}" in in_sdist, name
        info = json.loads(zipfile.ZipFile(wheel).read(f"catnip_host/firmware/{board.info}"))
        assert (info["version"], info["digest"], info["board"]) == (
            bundle.VERSION, bundle.digest(), board.name)
        shipped = zipfile.ZipFile(wheel).read(f"catnip_host/firmware/{board.uf2}")
        assert shipped == built[board.chip].uf2.read_bytes()


@pytest.mark.parametrize("chip", ["RP2040", "RP2350"])
def test_the_installed_catnip_flashes_the_image_make_firmware_built(built, dist, tmp_path, chip):
    _, _, env_dir = dist
    drive = tmp_path / "media" / chip
    drive.mkdir(parents=True)
    (drive / "INFO_UF2.TXT").write_text(INFO[chip])
    out = run([str(env_dir / "bin" / "catnip"), "flash", "--drive", str(drive), "--wait", "0"],
              tmp_path)
    image = built[chip]
    assert f"{image.uf2.name}: copied onto {drive}" in out.stdout
    assert f"sources {bundle.digest()}" in out.stdout and "site-packages" in out.stdout
    assert (drive / image.uf2.name).read_bytes() == image.uf2.read_bytes()


def test_the_installed_catnip_refuses_anything_else_and_writes_nothing(built, dist, tmp_path):
    _, _, env_dir = dist
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text(INFO["RP2040"])
    whole = built["RP2040"].uf2.read_bytes()
    bad = {"random.uf2": (os.urandom(len(whole)), "is not a UF2 image"),
           "pico2.uf2": (built["RP2350"].uf2.read_bytes(), "is for the RP2350"),
           "cut.uf2": (whole[:len(whole) // 2], "is cut short")}
    for name, (data, words) in bad.items():
        (tmp_path / name).write_bytes(data)
        out = run([str(env_dir / "bin" / "catnip"), "flash", "--uf2", str(tmp_path / name),
                   "--drive", str(drive), "--wait", "0"], tmp_path, ok=(1,))
        assert f"{name} {words}" in out.stderr and "nothing was written" in out.stderr
        assert sorted(os.listdir(drive)) == ["INFO_UF2.TXT"]
