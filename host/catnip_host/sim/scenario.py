"""Scenario files: played headless as fast as the table goes (their games
stored as a real table's are), and what `catnip sim --script --headless`
prints."""

from __future__ import annotations

import base64
import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from catnip_host.sim.mirror import keep_records
from catnip_host.sim.paths import SimError, board_file, command
from catnip_host.sim.process import Table
from catnip_host.sim.state import TableState

@dataclass
class Outcome:
    status: int  # 0 played through, 1 a step failed
    standings: list[str] | None
    screens: list[list[str]]
    failure: str | None = None
    snaps: list[Path] = field(default_factory=list)


def load_scenario(path: Path) -> dict[str, Any]:
    """A scenario file's JSON (the table checks each step before playing):
    a list of steps, or an object with "steps" and optionally "board" and
    "seed"."""
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise SimError(f"cannot read scenario {path}: {e.strerror}") from None
    except ValueError as e:
        raise SimError(f"scenario {path} is not JSON: {e}") from None
    return data if isinstance(data, dict) else {"steps": data}


def run_script(script: Path, board: str | None = None, journal: Path | None = None,
               seed: str | None = None, snapshots: Path | None = None,
               stations: int | None = None, timeout: float = 600,
               store: Path | Literal[False] | None = None, names: list[str] | None = None) -> Outcome:
    """Play a scenario file as fast as the table goes; a game it finished is
    stored in `store` (None: the default store; False: nowhere). `names` go
    to the table first, as `catnip names` sends them."""
    data = load_scenario(script)
    board_path = board_file(board or data.get("board") or "direct")
    if stations is None and isinstance(data.get("stations"), int):
        stations = data["stations"]  # a recorded session names the stations it was played on
    with tempfile.TemporaryDirectory(prefix="catnip-sim-") as fresh:
        flash = journal or Path(fresh)
        table = Table(command(board_path, flash, "fast", seed, stations, script.resolve(),
                              names=names))
        state = TableState()
        try:
            table.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            table.proc.kill()
            raise SimError(f"scenario {script} did not finish within {timeout:.0f} s") from None
        table.reader.join()
        for m in table.drain():
            if m.get("k") in ("error", "crash"):
                raise SimError(m["why"])
            state.apply(m)
        if table.proc.returncode not in (0, 1):
            said = "\n".join(state.noise) or table.errors()
            raise SimError("the virtual table stopped:\n" + said)
        if store is not False and state.standings:
            keep_records(board_path, flash, store or None, stations)
    saved = []
    if snapshots is not None:
        from catnip_host.screens import save_png

        snapshots.mkdir(parents=True, exist_ok=True)
        for snap in state.snaps:
            path = snapshots / f"{snap['name']}.png"
            saved.append(save_png(base64.b64decode(snap["img"]), snap["h"], path))
    if state.failure is not None:
        f = state.failure
        return Outcome(1, None, f["screens"], f"step {f['step']}: {f['why']}", saved)
    return Outcome(0, state.standings, state.texts, None, saved)




def report(outcome: Outcome) -> str:
    """What `catnip sim --script --headless` prints."""
    lines = []
    if outcome.failure is not None:
        lines.append(f"FAILED at {outcome.failure}")
    elif outcome.standings is not None:
        lines.append("Standings")
        lines += ["  " + line for line in outcome.standings]
    else:
        lines.append("Played through; no game has ended.")
    if outcome.failure is not None or outcome.standings is None:
        for s, rows in enumerate(outcome.screens, 1):
            lines.append(f"Station {s}:")
            lines += ["  | " + row for row in rows]
    for path in outcome.snaps:
        lines.append(f"saved {path}")
    return "\n".join(lines)
