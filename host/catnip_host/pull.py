"""A game being pulled from the table's journal by the Keeper
(catnip_host.link): its frames, in order, stored in one transaction once its
last page is in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Pull:
    """One game being pulled from the table's journal: its frames so far, in
    order, to be stored in one transaction once its last page is in."""

    gid: int
    seed_commit: str
    stored_already: bool = False  # acknowledged again, never stored twice
    next: int = 0  # the entry it waits for
    frames: list[tuple[str, bytes]] = field(default_factory=list)

    def entry(self, f: dict, raw: bytes) -> None:
        """An entry kept when it is the next of this game (one asked for again
        before a retry is not kept twice)."""
        if f["gid"] == self.gid and f["i"] == self.next:
            self.frames.append(("entry", raw))
            self.next += 1

    def whole(self, f: dict) -> bool:
        """A page says the pull is over: every entry is in, or the rest is
        damaged on the table (and the entries before it are all here)."""
        if f.get("damage") is not None and f["next"] == self.next:
            return True
        return f["done"] and f["next"] == self.next


def from_seq(seq: int) -> dict[str, Any]:
    """The field "from" (the first entry or frame wanted), a keyword in Python."""
    return {"from": seq}
