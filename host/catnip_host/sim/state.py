"""What the virtual table said, as the terminal shows it: each station's
screen, the event feed (the app's serial line in players' words), the tray,
and how a scenario ended."""

from __future__ import annotations

import base64
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from catnip import wire
from catnip_host.words import Words

@dataclass
class Screen:
    """One station's screen as the SSD1306 model shows it: the image, and
    its 8x8 cells read back as text with an attribute each ("." lit text,
    "i" dark on a lit bar, "u" underlined, "g" a drawing)."""

    image: bytes
    height: int
    rows: list[str]
    attrs: list[str]

    @classmethod
    def from_message(cls, m: dict[str, Any]) -> "Screen":
        return cls(base64.b64decode(m["img"]), m["h"], m["rows"], m["attr"])

    def pixel(self, x: int, y: int) -> bool:
        return bool(self.image[(y >> 3) * 128 + x] >> (y & 7) & 1)


@dataclass
class TableState:
    """Everything the terminal shows, updated from the table's messages."""

    stations: int = 0
    board: str = ""
    journal: str = ""
    has_tray: bool = False
    screens: dict[int, Screen] = field(default_factory=dict)
    feed: deque[str] = field(default_factory=lambda: deque(maxlen=40))
    tray: dict[str, Any] = field(default_factory=dict)
    standings: list[str] | None = None
    failure: dict[str, Any] | None = None
    snaps: list[dict[str, Any]] = field(default_factory=list)
    texts: list[list[str]] = field(default_factory=list)  # each station's rows, at the end
    noise: list[str] = field(default_factory=list)  # output that is not a message
    crash: str | None = None  # the app's traceback, if it stopped
    closed: bool = False

    def apply(self, m: dict[str, Any]) -> None:
        kind = m.get("k")
        if kind == "ready":
            self.stations, self.board = m["stations"], m["board"]
            self.journal, self.has_tray = m["journal"], m["tray"]
        elif kind == "screen":
            self.screens[m["s"]] = Screen.from_message(m)
        elif kind == "line":
            text = describe(m["m"])
            if text:
                self.feed.extend(text.splitlines())
        elif kind == wire.TRAY:
            self.tray = m
        elif kind == "standings":
            self.standings, self.texts = m["lines"], m["screens"]
            self.feed.append("scenario played: " + " / ".join(m["lines"] or ["no game ended"]))
        elif kind == "fail":
            self.failure, self.texts = m, m["screens"]
            self.feed.append(f"scenario FAILED at step {m['step']}: {m['why']}")
        elif kind == wire.SNAP:
            self.snaps.append(m)
        elif kind == "error":
            self.feed.append("! " + m["why"])
        elif kind == "crash":
            self.crash = m["why"]
            self.feed.extend(m["why"].splitlines())
        elif kind == "noise":
            self.noise.append(m["text"])
            self.feed.append(m["text"])
        elif kind == wire.BYE:
            self.closed = True


def describe(line: dict[str, Any]) -> str | None:
    """A frame from the app's serial line (catnip.wire) as lines of the event
    feed, joined; None for frames the feed does not show."""
    kind = line.get("t")
    if kind == wire.SAY:
        return line["text"]
    if kind == wire.ACT:
        return "\n".join(Words().event(ev) for ev in line.get("events", [])) or None
    if kind == wire.BEGIN:
        return f"— game {line.get('gid')}: {line['header'].get('game')} begins"
    if kind == wire.END:
        return f"— game {line.get('gid')} is over"
    if kind == wire.SNAP:
        return f"— {line.get('game') or 'setup'}: snapshot"
    if kind == wire.NAMED:
        return "stations named: " + ", ".join(n or "-" for n in line.get("names", []))
    if kind == wire.ERR:
        return "serial: " + line["why"]
    if kind in ("raw", "bad"):
        return "serial: " + line["text"]
    return None
