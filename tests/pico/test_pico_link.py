"""The link end to end on the real build: `catnip monitor` on the emulated
Pico's USB CDC (served by the bench on socket://) mirrors a Meow Heist game
played by buttons, stores every frame (catching up on those it missed while
it was stopped for a few moves), pulls the game off the journal once it has
ended, and `catnip replay SESSION --verify` verifies the stored session."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from bench import pico_rig, pico_run
from catnip.ui.end import standings
from catnip_host.monitor import Mirror
from catnip_host.store import Store
from checks import clean, journaled_game, resumed_as_planned, standings_shown

GAME = ("heist", {"variant": "standard", "gems": "digital"}, [0, 1])
CATNIP = pico_rig.BIN / "catnip"
PULLED_WAIT_S = 900  # wall seconds, a cap: the game takes a few minutes at the bench's speed
AWAY_AFTER = 5  # moves stored before the monitor is stopped for a while
AWAY_S = 15  # wall seconds without a monitor: several moves at the bench's speed


def stored(store: Path, query: str) -> int:
    """A count from the store as the monitor writes it (opened read-only)."""
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
            return db.execute(query).fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # not made yet


def monitor(store: Path, log: Path) -> pico_run.Linked:
    """`catnip monitor --port socket://... --store STORE` on the bench's USB
    serial, as a person runs it: stopped with Ctrl-C once AWAY_AFTER moves are
    stored and started again AWAY_S later (it must catch up on what it
    missed), then stopped once it has pulled the ended game and had a moment
    to acknowledge it."""
    acts = "SELECT count(*) FROM frames WHERE kind = 'act'"
    pulls = "SELECT count(*) FROM pulls"

    def linked(url: str, running) -> None:
        deadline = time.monotonic() + PULLED_WAIT_S
        watch(url, store, log, lambda: running() and stored(store, acts) < AWAY_AFTER
              and time.monotonic() < deadline)
        time.sleep(AWAY_S)
        watch(url, store, log, lambda: running() and not stored(store, pulls)
              and time.monotonic() < deadline)

    return linked


def watch(url: str, store: Path, log: Path, meanwhile) -> None:
    """One `catnip monitor` process, while `meanwhile()` holds; its output
    goes to `log`, and Ctrl-C must end it cleanly."""
    with open(log, "a") as out:
        proc = subprocess.Popen([str(CATNIP), "monitor", "--port", url, "--store", str(store)],
                                stdout=out, stderr=subprocess.STDOUT)
        try:
            while meanwhile():
                time.sleep(0.25)
            time.sleep(2)  # an acknowledgement on its way
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
    assert proc.returncode == 0, log.read_text()[-2000:]


@pytest.mark.xdist_group("heist")
def test_monitor_mirrors_a_game_and_its_session_verifies(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_run.start(pico, tmp_path, name, options, seats))
    store_path = tmp_path / "sessions.sqlite3"
    log = tmp_path / "monitor.txt"
    played = pico_run.finish(pico, tmp_path, name, options, seats,
                             linked=monitor(store_path, log))
    print(log.read_text()[-3000:])
    (run,) = played.runs
    clean(run)
    resumed_as_planned(played, [0])
    standings_shown(played, seats)
    replayed, status, result = journaled_game(played.journal)
    # the laptop stored the game, then acknowledged it: only then did the table free it
    assert status == "pulled" and result == played.expected["result"]
    moves = len(replayed.log)

    store = Store(store_path)
    (session,) = store.sessions()
    assert session.pulled == session.games == [1], session
    assert store.gaps(session.id) == []
    frames = list(store.frames(session.id))
    stream = [f for f in frames if f.seq]
    # none lost while the monitor was away, none stored twice
    assert [f.seq for f in stream] == list(range(1, len(stream) + 1))
    hellos = [i for i, f in enumerate(frames) if f.kind == "hello"]
    assert len(hellos) == 2  # the monitor came back ...
    missed = frames[hellos[1]].fields()["last"] - max(f.seq for f in frames[:hellos[1]])
    assert missed > 0  # ... after moves were made without it, and caught up on them
    print("frames the monitor caught up on:", missed)
    game = [(f.kind, f.fields()) for f in stream if f.kind in ("begin", "act", "end")]
    assert game[0][0] == "begin" and game[0][1]["moves"] == 0
    assert [f["n"] for k, f in game[1:-1]] == list(range(1, moves + 1))
    commit = game[0][1]["header"]["seed_commit"][:16]  # whose frames they are (wire.COMMIT_ID)
    end = dict(game[-1][1])
    assert isinstance(end.pop("signs"), bool)  # whether a signature follows (docs/link.md)
    assert game[-1][0] == "end" and end == {"gid": 1, "commit": commit, "result": result}

    # The mirror (what the monitor showed) ends in the journal's game.
    mirror = Mirror()
    for f in frames:
        if f.kind in ("begin", "act", "end", "say", "snap"):
            mirror.apply(f.kind, f.fields())
    assert (mirror.game, mirror.moves, mirror.result) == (name, moves, result)
    assert mirror.public == json.loads(json.dumps(replayed.public()))  # as sent
    shown = [line for line in standings(mirror.result) if line[:1].isdigit()]
    for k in seats:
        lines = played.screens[f"st{k}_oled"]
        assert all(line in lines for line in shown), (shown, lines)

    replay = subprocess.run([str(CATNIP), "replay", str(session.id), "--verify",
                             "--store", str(store_path)], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert f"game 1 (Meow Heist): verified; {moves} of {moves} moves compared" in replay.stdout
    # signed by the table on the Pico, with the key the laptop pinned at first sight
    assert "; signed by table " in replay.stdout, replay.stdout
