"""`catnip deploy` over a pty onto a board on the MicroPython unix port
(tests/deployboard.py: the raw REPL byte for byte, the real app on the
simulated table): the whole firmware onto an empty board, then one changed
file and no change onto a board running the app (stopped first, restarted
after, until it answers hello). Bytes are everything the laptop wrote to the
port; the unix port's .mpy (x64) are within a few per cent of the Pico's
(armv6m). The emulated RP2040's figure is in bench_pico.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

import deployrig  # noqa: E402
from catnip_host import bundle  # noqa: E402
from catnip_host.deploy import deploy  # noqa: E402

Row = tuple[str, str, float | int | str, str, str]
AREA = "deploy"
DIRECT = bundle.FIRMWARE / "boards" / "direct.json"


def rows() -> Iterator[Row]:
    t = time.perf_counter()
    items = bundle.firmware("armv6m")
    compiled = time.perf_counter() - t
    size = sum(len(i.data) for i in items)
    yield (AREA, "compile the firmware for the RP2040 (mpy-cross)", round(compiled, 2), "s",
           f"{len(items)} files, {size:,} bytes as the Pico gets them")
    with tempfile.TemporaryDirectory() as tmp:
        fw = deployrig.firmware_copy(Path(tmp) / "fw")
        with deployrig.PtyBoard(Path(tmp) / "flash") as board:
            whole = deploy(board.port, DIRECT, firmware=fw)
            yield (AREA, "whole firmware onto an empty board: bytes sent", whole.sent, "B",
                   f"{whole.plan.bytes:,} B of {len(whole.plan.write)} files (.mpy as base64)")
            yield (AREA, "whole firmware onto an empty board: time", round(whole.seconds, 2),
                   "s", "over a pty, checks and restart included")
            remote = fw / "catnip" / "link" / "remote.py"
            remote.write_text(remote.read_text().replace("PULL_PAGE = 24", "PULL_PAGE = 20"))
            one = deploy(board.port, None, firmware=fw)
            changed = one.plan.changes[0]
            yield (AREA, "one changed file: bytes sent", one.sent, "B",
                   f"{changed.path} is {changed.size:,} B; the app stopped, the rest is the "
                   "survey, checks and manifest")
            yield (AREA, "one changed file: time", round(one.seconds, 2), "s",
                   "over a pty: stop, survey, write, check, restart")
            same = deploy(board.port, None, firmware=fw)
            yield (AREA, "nothing changed: bytes sent", same.sent, "B",
                   f"{same.seconds:.2f} s: stop, survey, restart")
