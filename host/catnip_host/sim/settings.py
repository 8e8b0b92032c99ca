"""What the virtual table remembers about the person playing it (the view
they chose with `v`), in the per-user settings folder, and where `S` puts
the pictures it saves when no --snapshots folder was given."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

VIEWS = ("text", "braille", "pixels", "auto")  # `v` steps through them in this order
DEFAULT_VIEW = "text"  # readable at any size; braille on a big terminal is not


def settings_file() -> Path:
    """The virtual table's settings (on Linux ~/.config/catnip/sim.json)."""
    return Path(user_config_dir("catnip", appauthor=False)) / "sim.json"


def snapshots_dir() -> Path:
    """Where `S` saves a station's screen unless --snapshots says (on Linux
    ~/.local/share/catnip/snapshots)."""
    return Path(user_data_dir("catnip", appauthor=False)) / "snapshots"


@dataclass
class Settings:
    view: str = DEFAULT_VIEW
    path: Path | None = None  # None: kept for this run only

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        """The saved settings; the defaults for a file that is missing, not
        JSON or names a view there is not."""
        path = settings_file() if path is None else path
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            data = {}
        view = data.get("view") if isinstance(data, dict) else None
        return cls(view if view in VIEWS else DEFAULT_VIEW, path)

    def save(self) -> str | None:
        """Write them; what went wrong, if the folder would not take them."""
        if self.path is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps({"view": self.view}) + "\n")
        except OSError as e:
            return f"settings not saved in {self.path}: {e.strerror}"
        return None
