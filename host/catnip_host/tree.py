"""Where the files the commands read as files (not as imports) are: the
firmware tree (main.py, catnip/, boards/, package.json) and the virtual
table's hardware (devsim/). A checkout uses its own; an installed catnip
(a wheel, pipx) the copy the wheel carries in catnip_host/_tree/ (setup.py)."""

from __future__ import annotations

from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
INSTALLED = Path(__file__).resolve().parent / "_tree"
ROOT = CHECKOUT if (CHECKOUT / "firmware" / "main.py").is_file() else INSTALLED
FIRMWARE = ROOT / "firmware"
BOARDS = FIRMWARE / "boards"
DEVSIM = ROOT / "devsim"
