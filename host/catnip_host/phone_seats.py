"""The laptop's side of phone seats (docs/phones.md): the commands other
threads (serve's web handlers) ask for, and the seats the table says this
laptop holds, claimed again every HEARTBEAT_S so the table hears that the
laptop is still there (it drops a silent laptop's seats after 6 s), in
turn, each with the number of its last view heard: the table sends a view
lost on the way again.

The Keeper (catnip_host.link) sends what is due here ahead of its own queue
and hands `view` and the phone seats' answers to its on_frame alone: none of
them is stored, logged or mirrored.
"""

from __future__ import annotations

import queue

from catnip import wire

HEARTBEAT_S = 2.0  # well below the table's SILENT_MS
ASKABLE = ("claim", "release", "press", "away")  # what other threads may ask
# Phone-seat frames: to on_frame alone, never stored, logged or mirrored.
PHONE_KINDS = (wire.VIEW, wire.CLAIMED, wire.RELEASED, wire.PRESSED)


class PhoneSeats:
    """The phone-seat commands asked and not yet sent, and the seats held."""

    def __init__(self) -> None:
        self.asked: queue.SimpleQueue[tuple[str, dict]] = queue.SimpleQueue()
        self.held: set[int] = set()  # the seats the table says this laptop holds
        self.seen: dict[int, int] = {}  # seat -> the number of its last view heard
        self.beat = 0.0  # when a held seat was last claimed again
        self.beaten = -1  # the seat last claimed again: the next held one is next

    def ask(self, word: str, **fields: object) -> None:
        """Queue `word` with `fields` from any thread; ValueError for a word
        other than ASKABLE or fields the command does not take."""
        if word not in ASKABLE:
            raise ValueError(f"ask() takes {', '.join(ASKABLE)}, not {word!r}")
        try:
            wire.command(word, fields)
        except wire.WireError as e:
            raise ValueError(str(e)) from e
        self.asked.put((word, dict(fields)))

    def empty(self) -> bool:
        return self.asked.empty()

    def due(self, now: float, beating: bool) -> tuple[list[tuple[str, dict]], dict | None]:
        """What was asked, oldest first, and a held seat's claim again if one
        is due (None while `beating`: one is on its way)."""
        asked = []
        while not self.asked.empty():
            asked.append(self.asked.get_nowait())
        beat = None
        if self.held and now - self.beat > HEARTBEAT_S and not beating:
            self.beat = now
            seat = self.beaten = min((s for s in self.held if s > self.beaten),
                                     default=min(self.held))
            beat = {"seat": seat, "seen": self.seen[seat]} if seat in self.seen else \
                {"seat": seat}
        return asked, beat

    def heard(self, kind: str, fields: dict, now: float) -> None:
        """The table says a seat is held (claimed) or not (released), or
        shows it a view."""
        if kind == wire.VIEW:
            self.seen[fields["seat"]] = fields["n"]
        elif kind == wire.CLAIMED:
            if fields["seat"] not in self.held:
                self.beat = now
            self.held.add(fields["seat"])
        elif kind == wire.RELEASED:
            self.held.discard(fields["seat"])
            self.seen.pop(fields["seat"], None)

    def refused(self, word: str, fields: dict) -> None:
        """The table refused a command for a seat: a claim means it is not this laptop's."""
        if word == "claim":
            self.held.discard(fields["seat"])

    def forget(self) -> None:
        """The port is opened again: a table that restarted holds no seat."""
        self.held.clear()
        self.seen.clear()
