"""End to end with a phone seat: the firmware on the MicroPython unix port
plays Meow Heist on the simulated table with one seat on a phone; the
laptop's Keeper claims it and a player presses it from its views over the
pty (tests/linkrig.py's PhoneSeat) until the game ends. The game is stored,
pulled and verified as any other, and nothing of a view is in the store."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from catnip import wire
from catnip_host import verify
from catnip_host.link import Keeper, Link, serve
from catnip_host.store import Store
from linkrig import PhoneSeat, Relay, start_table

DEADLINE_S = 300


def test_a_phone_seat_plays_a_whole_game_over_the_line(tmp_path: Path) -> None:
    store_path = tmp_path / "sessions.sqlite3"
    relay = Relay(tmp_path)
    table = start_table(relay, tmp_path, "heist", {"variant": "standard", "gems": "digital"},
                        [0, 1, 4], pace_ms=5)  # seat 2 at place 4: a phone
    state: dict = {"stop": False, "asks": []}
    ready = threading.Event()

    def run() -> None:
        store = Store(store_path)
        keeper = Keeper(Link(str(relay.path)), store)
        state["keeper"] = keeper
        state["phone"] = PhoneSeat(keeper, 2, "phone")
        keeper.on_frame = state["phone"].on_frame
        ready.set()

        def until() -> bool:
            while state["asks"]:
                keeper.request(state["asks"].pop(0))
            return state["stop"]

        try:
            serve(keeper, until, pause=0.02)
        finally:
            keeper.link.close()
            store.close()

    host = threading.Thread(target=run, daemon=True)
    host.start()
    ready.wait()
    phone, keeper = state["phone"], state["keeper"]
    t0 = time.monotonic()
    try:
        while not (phone.over and keeper.pulled):
            assert time.monotonic() - t0 < DEADLINE_S, (phone.rows, phone.presses)
            assert table.poll() is None, table.stdout.read()
            phone.step()
            time.sleep(0.01)
        state["asks"].append("stop")
        table.wait(timeout=20)
    finally:
        state["stop"] = True
        host.join()
        if table.poll() is None:
            table.kill()
        relay.close()
    assert phone.views > 0 and phone.presses > 0 and phone.others == []
    sent = [item for item in wire.Reader().feed((tmp_path / "sent.bin").read_bytes())
            if item[0] == "frame"]
    assert {f[3]["seat"] for f in sent if f[2] == "view"} == {2}  # its views, no other seat's
    store = Store(store_path)
    (session,) = store.sessions()
    kinds = {f.kind for f in store.frames(session.id)}
    assert not kinds & {"view", "claimed", "released", "pressed"}, kinds
    rows = {row for f in sent if f[2] == "view" for row in f[3]["rows"] if len(row) > 3}
    kept = "\n".join(f.raw for f in store.frames(session.id))
    assert not [r for r in rows if r in kept and r not in _public(sent)]
    (check,) = verify.from_store(store, session.id)
    assert check.status == verify.VERIFIED, check.problems


def _public(sent: list) -> str:
    # What the table told everyone: a row of a view that is public anyway (a
    # title, an announcement) may be in the store; a private one may not.
    return "\n".join(f[4].decode() for f in sent if f[2] != "view")
