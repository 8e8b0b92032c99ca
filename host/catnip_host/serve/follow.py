"""The table, followed on a thread of its own exactly as `catnip monitor`
follows it: the same port discovery (catnip_host.ports), Keeper, session
store and reconnects (catnip_host.link.serve), with a LiveMirror in place of
the terminal's picture. The phone seats' frames (a seat's view, the answers
about phone seats) and the game's phone seats go to `seated` instead, and
never to the mirror."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from catnip import wire
from catnip_host import ports
from catnip_host.link import PHONE_KINDS, Keeper, Link, serve
from catnip_host.monitor import named
from catnip_host.serve.evening import Evening
from catnip_host.serve.live import LiveMirror
from catnip_host.store import Store, StoreError, default_path


class Follower:
    def __init__(self, port: str | None, store_path: Path | str | None, live: LiveMirror,
                 pause: float = 0.2, opener: Callable = ports.open_port,
                 seated: Callable[[str, dict], None] = lambda kind, fields: None,
                 plugged: Callable[[bool], None] = lambda up: None) -> None:
        self.port = port
        self.seated = seated  # the phone seats' frames, on this thread
        self.plugged = plugged  # the table's port opened (True) or went away
        self.opener = opener  # catnip_host.ports.open_port; the tests' tables bring their own
        self.store_path = store_path
        self.live = live
        self.pause = pause
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.keeper: Keeper | None = None  # once following: commands for the table go to it

    @property
    def idle(self) -> bool:
        """Connected, and nothing left to pull."""
        return self.keeper is not None and self.keeper.idle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="catnip-follow", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            store = Store(self.store_path)  # sqlite objects stay in the thread that made them
        except StoreError as e:  # said on the page (the command checked the store first)
            self.live.connection(str(e), False)
            return
        keeper = self.keeper = Keeper(Link(self.port, opener=self.opener), store,
                                      notify=self.live.note)
        apply = named(self.live, keeper)
        keeper.on_frame = lambda kind, fields: self._frame(kind, fields, apply)
        self.keeper = keeper
        where = self.port or "the Pico"

        def status(text: str) -> None:
            up = text == "connected"
            self.live.connection(f"connected to {where}" if up else text, up)
            self.plugged(up)

        try:
            serve(keeper, lambda: self._stopping, status, pause=self.pause)
        finally:
            self.keeper = None
            self.plugged(False)
            keeper.link.close()
            store.close()

    def _frame(self, kind: str, fields: dict, apply: Callable[[str, dict], None]) -> None:
        if kind in PHONE_KINDS or kind == wire.ERR:
            self.seated(kind, fields)  # one seat's own: never the mirror's
            return
        if kind in (wire.BEGIN, wire.SNAP):
            self.seated(kind, fields)
        if kind == wire.BEGIN and _clowder(fields["header"]):
            self.live.high_scores = _high_scores(self.store_path)
        apply(kind, fields)

    def stop(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join()


def _clowder(header: dict) -> bool:
    return header.get("game") == "stack" and header.get("config", {}).get("mode") == "clowder"


def _high_scores(store_path: Path | str | None) -> list:
    """The Colonnade of Competent Clowders over the Clowder games stored so
    far (the table's own high-score table stays on its flash)."""
    with Evening(store_path or default_path()) as evening:
        return [[rank, names, score] for rank, names, score in evening.high_scores()]
