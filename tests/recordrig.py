"""Session stores full of games, for the records' tests and bench.

virtual_store(): the real firmware on the MicroPython unix port plays each
game on the simulated table by button presses (tests/shared/linkplay.py)
while the laptop's link stores it through a pty, exactly as `catnip monitor`
stores a Pico's games (the rig of tests/test_link_e2e.py, without the cuts).

engine_store(): many games played by the rules engine (random legal play,
test_verify's player), written as the link stores them, at chosen times:
fast, and the same every run.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from catnip import rules, wire
from catnip.table.seal import KEY_FILE
from catnip_host import records
from catnip_host.store import Store
from linkrig import Relay, start_table
from test_link_e2e import Host, _pulled
from test_verify import _frames

DEADLINE_S = 240  # a guard against a hang on a loaded machine


def virtual_store(folder: Path, games: list[tuple[str, dict, list[int]]]) -> Path:
    """A store of these games (name, table options, stations), each on its
    own power-up of the table, so each is its own session. One table: its
    key (made at the first power-up) is on the flash of every power-up."""
    store_path = folder / "sessions.sqlite3"
    key = None
    for k, (name, options, seats) in enumerate(games):
        table_folder = folder / f"records-{k}-{name}"  # also the seed: the same deal each run
        table_folder.mkdir()
        if key is not None:
            (table_folder / KEY_FILE).write_bytes(key.read_bytes())
        key = table_folder / KEY_FILE
        relay = Relay(table_folder)
        table = start_table(relay, table_folder, name, options, seats, pace_ms=1)
        host = Host(store_path, relay.path)
        t0 = time.monotonic()
        try:
            while _pulled(store_path) <= k:
                assert time.monotonic() - t0 < DEADLINE_S, host.notes[-10:]
                assert table.poll() is None, table.stdout.read()
                time.sleep(0.05)
            host.asks.append("stop")
            table.wait(timeout=20)
        finally:
            host.stop()
            if table.poll() is None:
                table.kill()
            relay.close()
    return store_path


def engine_store(path: Path, games: list[tuple[str, dict | None, str]], start: float,
                 every_s: float = 3600.0, minutes: float = 20.0, per_session: int = 3) -> Path:
    """A store of these games (name, config, seed), the first begun at
    `start` (Unix time), one every `every_s`, each lasting `minutes`;
    `per_session` games to a power-up of one table."""
    store = Store(path)
    db = store.db
    db.execute("BEGIN")
    session, seq = 0, 0
    for k, (name, config, seed) in enumerate(games):
        if k % per_session == 0:
            cur = db.execute("INSERT INTO sessions (uid, boot, board, firmware, opened) "
                             "VALUES ('e6614c311b7f', ?, 'direct', '0.1.0', ?)",
                             (f"boot{k}", start + k * every_s))
            session, seq = cur.lastrowid, 0
        frames = _frames(name, config, seed)
        began = start + k * every_s
        live = [f for f in frames if f[0] in ("begin", "act", "end")]
        ids = []
        for i, (kind, fields) in enumerate(frames):
            fields["gid"] = k + 1
            live_frame = kind in ("begin", "act", "end")
            seq += live_frame
            if kind == "begin":
                at = began
            elif live_frame:
                at = began + minutes * 60 * min(1.0, i / max(1, len(live) - 1))
            else:
                at = began + minutes * 60 + 1
            raw = wire.encode(kind, seq if live_frame else 0, fields)[:-1].decode()
            cur = db.execute("INSERT INTO frames (session, at, seq, kind, gid, raw) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (session, at, seq if live_frame else 0, kind, k + 1, raw))
            if not live_frame:
                ids.append(cur.lastrowid)
        header = next(f for kind, f in frames if kind == "game")["header"]
        db.execute("INSERT INTO pulls VALUES ('e6614c311b7f', ?, ?, ?, ?, ?, ?)",
                   (k + 1, header["seed_commit"], session, ids[0], ids[-1],
                    began + minutes * 60 + 1))
    db.execute("COMMIT")
    store.close()
    return path


def mixed_games(n: int, tag: str = "records") -> list[tuple[str, dict | None, str]]:
    """n games of every title and Stack O' Cats mode in turn."""
    kinds = (("heist", {"players": 3}), ("stack", {"players": 3}),
             ("purrfect", {"players": 4}), ("stack", {"players": 2, "mode": "clowder"}),
             ("heist", {"players": 4}), ("stack", {"players": 3, "mode": "patient"}))
    return [(kinds[k % len(kinds)][0], json.loads(json.dumps(kinds[k % len(kinds)][1])),
             f"{tag} {k}") for k in range(n)]


def clowder_play(gid: int, names: tuple[str, ...], placements: int) -> records.Play:
    """A Clowder game whose team keeps placing cats, then lets the tower fall."""
    game = rules.new("stack", {"players": len(names), "mode": "clowder"}, f"clowder {gid}")
    placed = 0
    while game.result() is None:
        p = game.to_act()[0]
        legal = game.legal(p)
        fall = placed >= placements
        action = next((a for a in legal if (a[0] == "collapse") == fall), legal[0])
        placed += any(e.get("type") == "placed" for e in game.act(p, action))
    record = dict(game.record(), log=[[p, list(a)] for p, a in game.log])
    return records.Play("t", gid, 1, 1.8e9 + gid, None, record, game.result(), names)
