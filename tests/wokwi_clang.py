"""The Wokwi chips are built with clang for wasm32: without it their tests
skip, saying what to install, except under CI (.ci/run installs it), where
CATNIP_WOKWI_CHIP_REQUIRED makes a missing clang a failure."""

import os
import shutil

import pytest


def require() -> None:
    """Skip the calling test module, or fail it under CI, when clang is missing."""
    if shutil.which("clang") is not None:
        return
    why = ("clang is not installed, so the Wokwi chip cannot be built (apt-get install clang "
           "lld wasi-libc libclang-rt-dev-wasm32; .ci/run does)")
    if os.environ.get("CATNIP_WOKWI_CHIP_REQUIRED"):  # CI: never skipped
        pytest.fail(why, pytrace=False)
    pytest.skip(why, allow_module_level=True)
