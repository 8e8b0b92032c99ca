"""A session played by hand at the virtual table, written down as a
scenario file (`catnip sim --record FILE`) that `--script FILE` plays again:
every command the keys sent to the table as a step, with the time between
them as waits, and the board, stations and seed it was played with."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

SETTLE_MS = 150  # what a replayed step takes beside a hold's own ms (devsim/virtual_table.py)
SNAP_MS = 10  # the table steps in 10 ms
# Longer than anything the table times (a notice's 5 s, an announcement's 2.5 s): a
# person's long pause plays again as this, the same to the table and not a minute's wait.
MAX_WAIT_MS = 6000


class Recorder:
    """Steps from the command lines the terminal sends, timed by `clock`
    (seconds), written to `path` by save()."""

    def __init__(self, path: Path, board: str, seed: str, stations: int | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self.board = board
        self.seed = seed
        self.stations = stations
        self.clock = clock
        self.steps: list[dict[str, Any]] = []
        self.last = clock()  # the table is ready
        self.busy_ms = 0  # how long the last step takes when it is played again

    def wrap(self, send: Callable[[str], None]) -> Callable[[str], None]:
        """`send`, with every command recorded first."""
        def recorded(line: str) -> None:
            self.note(line)
            send(line)
        return recorded

    def note(self, line: str) -> None:
        step = _step(line)
        if step is not None:
            self.add(step)

    def names(self, names: list[str]) -> None:
        """The players' names as they went to the table, a step of their own."""
        self.add({"names": list(names)})

    def add(self, step: dict[str, Any]) -> None:
        now = self.clock()
        wait = min(MAX_WAIT_MS, int((now - self.last) * 1000) - self.busy_ms)
        wait -= wait % SNAP_MS
        self.last = now
        prev = self.steps[-1] if self.steps else None
        if wait >= SNAP_MS:
            self.steps.append({"wait": wait})
        elif prev is not None and "press" in step and prev.get("press") == step["press"] \
                and prev.get("station") == step["station"]:
            prev["times"] = prev.get("times", 1) + 1  # a fast typist's ↓↓↓
            self.busy_ms = SETTLE_MS
            return
        self.steps.append(step)
        self.busy_ms = step.get("ms", 0) + SETTLE_MS

    def scenario(self) -> dict[str, Any]:
        out: dict[str, Any] = {"recorded": "catnip sim --record, played by hand",
                               "board": self.board, "seed": self.seed}
        if self.stations is not None:
            out["stations"] = self.stations
        out["steps"] = self.steps
        return out

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.scenario(), indent=1) + "\n")
        return self.path


def _step(line: str) -> dict[str, Any] | None:
    """The scenario step for a command line the terminal sends; None for one
    that is not a move at the table."""
    words = line.split()
    if len(words) >= 3 and words[0] == "tap" and words[1].isdigit():
        station, button = int(words[1]), words[2]
        if len(words) == 4 and words[3].isdigit():
            return {"station": station, "hold": button, "ms": int(words[3])}
        return {"station": station, "press": button}
    if len(words) == 2 and words[0] == "tray":
        return {"tray": words[1]}
    if len(words) == 3 and words[:2] == ["tray", "collapse"] and words[2].isdigit():
        return {"tray": "collapse", "cats": int(words[2])}
    return None
