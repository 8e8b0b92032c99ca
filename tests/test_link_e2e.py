"""End to end: the firmware on the MicroPython unix port plays a whole game of
each title on the simulated table while the laptop's link keeps the session
store through a pty whose cable is cut, unplugged and whose laptop side is
restarted at random points. Afterwards every stream frame the table sent is
stored exactly once, in order, nothing is missing, the game was pulled once,
and its session replays and verifies against what was announced live."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from catnip_host import verify
from catnip_host.link import Keeper, Link, serve
from catnip_host.store import Store
from linkrig import Relay, sent_stream, start_table

GAMES = (  # and the ms between presses, so that even a short game sees several cuts
    ("heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2], 15),
    ("stack", {"mode": "composure", "black_cat": True, "draw": "digital"}, [0, 1], 10),
    ("purrfect", {"mode": "stations"}, [0, 1, 2, 3], 6),
)
DEADLINE_S = 300  # a guard against a hang, generous for a loaded machine


class Host:
    """The laptop's tool in a thread; restart() is the laptop's process
    ending and starting again on the same store."""

    def __init__(self, store_path: Path, port: Path) -> None:
        self.store_path = store_path
        self.port = port
        self.notes: list[str] = []
        self.asks: list[str] = []
        self.keeper: Keeper | None = None
        self.resyncs = 0
        self._start()

    def _start(self) -> None:
        self.stopping = False
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait()

    def _run(self) -> None:
        store = Store(self.store_path)
        self.keeper = Keeper(Link(str(self.port)), store, notify=self.notes.append)
        self.ready.set()
        try:
            serve(self.keeper, self._until, pause=0.02)
        finally:
            self.keeper.link.close()
            store.close()

    def _until(self) -> bool:
        while self.asks:
            self.keeper.request(self.asks.pop(0))
        return self.stopping

    def restart(self) -> None:
        self.stop()
        self._start()

    def stop(self) -> None:
        self.stopping = True
        self.thread.join()
        self.resyncs += self.keeper.resyncs
        self.keeper.resyncs = 0


def _pulled(store_path: Path) -> int:
    store = Store(store_path)
    try:
        return store.db.execute("SELECT COUNT(*) FROM pulls").fetchone()[0]
    finally:
        store.close()


@pytest.mark.parametrize(("name", "options", "seats", "pace"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_survives_a_cut_cable_and_verifies(tmp_path, name, options, seats, pace):
    store_path = tmp_path / "sessions.sqlite3"
    relay = Relay(tmp_path)
    table = start_table(relay, tmp_path, name, options, seats, pace)
    host = Host(store_path, relay.path)
    rng = random.Random(name)
    cuts = []
    t0 = time.monotonic()
    try:
        while not _pulled(store_path):
            assert time.monotonic() - t0 < DEADLINE_S, (cuts, host.notes[-10:])
            assert table.poll() is None, table.stdout.read()
            time.sleep(rng.uniform(0.03, 0.25))
            how = rng.choice(("cut", "unplug", "restart"))
            cuts.append(how)
            if how == "cut":
                relay.cut(rng.uniform(0.01, 0.3))
            elif how == "unplug":
                relay.unplug(rng.uniform(0.01, 0.3))
            else:
                host.restart()
        host.asks.append("snapshot")  # then everything up to now is stored
        time.sleep(0.3)
        host.asks.append("stop")
        table.wait(timeout=20)
    finally:
        host.stop()
        if table.poll() is None:
            table.kill()
        relay.close()
    assert "linkplay: stopped" in table.stdout.read()
    assert len(cuts) >= 3, cuts
    assert host.resyncs > 0, "no cut ever lost a frame: the test proves nothing"

    store = Store(store_path)
    (session,) = store.sessions()
    stored = [(f.seq, f.raw.encode()) for f in store.frames(session.id) if f.seq]
    sent = sent_stream(tmp_path)
    assert [seq for seq, _ in stored] == list(range(1, len(stored) + 1)), \
        (name, store.gaps(session.id), host.notes[-8:])
    assert dict(stored) == sent, "a frame the table sent is missing or different"
    assert store.gaps(session.id) == []
    assert len(session.pulled) == 1 and session.games == session.pulled

    (check,) = verify.from_store(store, session.id)
    assert check.status == verify.VERIFIED, check.problems
    assert check.moves > 0 and check.compared == check.moves, check.summary()
