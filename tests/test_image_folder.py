"""Where `make firmware` builds MicroPython: a temporary folder whose path is
too long for the file names MicroPython's build makes from it (a long
TMPDIR) moves the build to the user's cache, saying so, instead of failing
deep inside the build."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from catnip_host import image


def _longest_name(folder: Path) -> int:
    """The longest genhdr file name MicroPython's build makes under `folder`
    (build.sh's digest folder, then the longest source at these sources)."""
    source = f"{folder}/362731734dc1/micropython/shared/tinyusb/mp_usbd_runtime.c"
    return len(source.replace("/", "__")) + len(".compress")


# The cache folder as platformdirs gives it on Linux. (The tests' own
# tmp_path is no short path: under CI's TMPDIR it is too long for the build.)
CACHE = "/home/maker/.cache/catnip"


def test_a_short_temporary_folder_is_used():
    assert image.build_folder({"TMPDIR": "/tmp"}) == Path("/tmp/catnip-mpbuild")


def test_a_temporary_folder_too_long_for_the_builds_names_moves_it_to_the_cache(
        monkeypatch, capsys):
    # The path a run of CI once gave, under a long TMPDIR: the build then
    # stopped at "File name too long" in py/makeqstrdefs.py.
    long = f"/tmp/ci-tmp-{'f' * 110}/tmp.6WKLYrLqw5/{'t' * 38}"
    assert _longest_name(Path(long) / "catnip-mpbuild") > image.NAME_MAX
    monkeypatch.setattr(image.platformdirs, "user_cache_dir", lambda *a, **k: CACHE)
    assert image.build_folder({"TMPDIR": long}) == Path(CACHE) / "mpbuild"
    assert "too long" in capsys.readouterr().err
    assert _longest_name(Path(CACHE) / "mpbuild") <= image.NAME_MAX


@pytest.mark.parametrize("extra", range(0, 40, 3))
def test_every_folder_chosen_leaves_the_builds_names_room(extra, monkeypatch):
    monkeypatch.setattr(image.platformdirs, "user_cache_dir", lambda *a, **k: CACHE)
    folder = image.build_folder({"TMPDIR": "/tmp/" + "t" * (140 + extra)})
    assert _longest_name(folder) <= image.NAME_MAX


def test_a_given_folder_too_long_is_refused_saying_why():
    with pytest.raises(image.ImageError, match="MPBUILD_DIR=.* too long"):
        image.build_folder({"MPBUILD_DIR": "/x/" + "t" * 200})


def test_the_build_is_run_in_the_folder_chosen(tmp_path, monkeypatch):
    said = tmp_path / "said"
    script = tmp_path / "build.sh"
    script.write_text(f'#!/bin/sh\necho "$MPBUILD_DIR" > {said}\nexit 1\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(image, "MPBUILD", script)
    monkeypatch.setattr(image.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.delenv("MICROPY_DIR", raising=False)
    monkeypatch.delenv("MPBUILD_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", "/tmp")
    with pytest.raises(image.ImageError, match="build failed"):
        image._compile(tmp_path / "manifest.py", tmp_path / "out", True, "RPI_PICO")
    assert said.read_text().strip() == "/tmp/catnip-mpbuild"
