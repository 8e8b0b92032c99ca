"""The pico tier: the firmware on an emulated RP2040 (../shared/rp2emu), a real
MicroPython rp2 build with the table's chips modelled. Selected with `-m pico`
(`make test` leaves it out: it takes minutes); skipped, saying what is needed,
where the bench or node is missing.

Each worker stages firmware/ for the Pico and deploys it once over the bench's
USB serial with mpremote; every test then boots from its own copy of that
flash image."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench import pico_rig  # noqa: E402


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.pico)


@pytest.fixture(scope="session")
def deployed(tmp_path_factory) -> Path:
    """A flash image with the staged firmware and board.json copied on by mpremote."""
    why = pico_rig.missing()
    if why is not None:
        message = f"the pico tier needs the emulated RP2040: {why}"
        if os.environ.get("CATNIP_PICO_REQUIRED"):
            pytest.fail(message + " (CATNIP_PICO_REQUIRED is set: CI always runs this tier)")
        pytest.skip(message)
    work = tmp_path_factory.mktemp("deploy")
    staged = pico_rig.stage(work)
    flash = work / "flash.img"
    pico_rig.deploy(staged, flash, work)
    return flash


@pytest.fixture()
def pico(deployed, tmp_path) -> Path:
    """A fresh copy of the deployed flash image for one test."""
    flash = tmp_path / "flash.img"
    shutil.copy(deployed, flash)
    return flash
