"""Every firmware file compiles with mpy-cross (the Pico's compiler)."""

from __future__ import annotations

import subprocess

import pytest

import mpunix

SOURCES = sorted(mpunix.FIRMWARE.rglob("*.py"))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(mpunix.FIRMWARE)))
def test_compiles(source, tmp_path):
    out = tmp_path / "out.mpy"
    proc = subprocess.run([mpunix.tool("mpy-cross"), "-march=armv6m", "-o", str(out), str(source)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0
