"""The laptop beside the virtual table: catnip monitor's mirror through a
pseudo-terminal, catnip serve on top of it, and the games pulled into the
session store after a headless run."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Literal

from catnip_host.sim.paths import SimError, command
from catnip_host.sim.process import Table
from catnip_host.sim.state import TableState

def _site(mirror, port: int):
    """`catnip serve` following the virtual table through its pty, its
    evening pages reading the store the virtual table's games go to."""
    from catnip_host.serve.app import ServeError
    from catnip_host.serve.site import beside
    from catnip_host.store import default_path

    if mirror is None:
        raise SimError("--serve needs pseudo-terminals, which this system does not have")
    store = default_path() if mirror.store_path is None else Path(mirror.store_path)
    try:
        return beside(mirror, store, port)
    except ServeError as e:
        raise SimError(str(e)) from None


def laptop_mirror(store: Path | Literal[False] | None = None):
    """The laptop's mirror of the virtual table (catnip monitor's, through a
    pseudo-terminal as through a Pico's USB port), its games stored in
    `store` like a real table's (None: the default store that export, stats
    and chart read; False: a throwaway one); None where there are no
    pseudo-terminals (Windows)."""
    if not hasattr(os, "openpty"):
        return None
    from catnip_host.simlink import SimMirror

    if store is False:
        return SimMirror(":memory:")
    return SimMirror(store)


def keep_records(board: Path, flash: Path, store: Path | None, stations: int | None,
                 timeout: float = 60) -> int:
    """Store the games that ended on the virtual table, as a laptop plugged
    in after play stores a Pico's (catnip sessions pull); how many."""
    mirror = laptop_mirror(store)
    if mirror is None:
        return 0
    table = Table(command(board, flash, "live", None, stations, line_fd=mirror.fd),
                  pass_fds=(mirror.fd,))
    try:
        table.wait_ready(TableState())
        mirror.start()
        deadline = time.monotonic() + timeout
        while not mirror.idle and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        table.close()
        mirror.stop()
    return mirror.pulled
