"""The pico tier: the firmware on an emulated RP2040 (../shared/rp2emu), a real
MicroPython rp2 build with the table's chips modelled. Selected with `-m pico`
(`make test` leaves it out: it takes minutes); skipped, saying what is needed,
where the bench or node is missing.

Each worker deploys the firmware once with `catnip deploy`'s own code over the
bench's USB serial; every test then boots from its own copy of that flash
image."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench import pico_flash, pico_rig  # noqa: E402


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.pico)


@pytest.fixture(scope="session", autouse=True)
def emulator() -> None:
    """Every test of the tier, whether or not it deploys: the bench set up
    (its npm packages installed once) and the image buildable, or a skip
    that says what is missing (a failure where CI requires the tier)."""
    why = pico_rig.missing()
    if why is not None:
        message = f"the pico tier needs the emulated RP2040: {why}"
        if os.environ.get("CATNIP_PICO_REQUIRED"):
            pytest.fail(message + " (CATNIP_PICO_REQUIRED is set: CI always runs this tier)")
        pytest.skip(message)


@pytest.fixture(scope="session")
def deployment(emulator, tmp_path_factory):
    """(flash image, the deploy's Outcome): the firmware and board.json put on
    an empty Pico by catnip_host.deploy."""
    work = tmp_path_factory.mktemp("deploy")
    flash = work / "flash.img"
    outcome = pico_flash.deploy(flash, work)
    return flash, outcome


@pytest.fixture(scope="session")
def deployed(deployment) -> Path:
    return deployment[0]


@pytest.fixture()
def pico(deployed, tmp_path) -> Path:
    """A fresh copy of the deployed flash image for one test."""
    flash = tmp_path / "flash.img"
    shutil.copy(deployed, flash)
    return flash
