"""The link end to end on the real build: `catnip monitor` on the emulated
Pico's USB CDC (served by the bench on socket://) mirrors a Meow Heist game
played by buttons, stores every frame, pulls the game off the journal once it
has ended, and `catnip replay SESSION --verify` verifies the stored session."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from bench import pico_rig
from catnip.ui.end import standings
from catnip_host import verify
from catnip_host.monitor import Mirror
from catnip_host.store import Store
from checks import clean, journaled_game, resumed_as_planned, standings_shown

GAME = ("heist", {"variant": "standard", "gems": "digital"}, [0, 1])
CATNIP = pico_rig.BIN / "catnip"
PULLED_WAIT_S = 900  # wall seconds, a cap: the game takes minutes at the bench's speed


def pulled(store: Path) -> bool:
    """Whether the monitor has stored a game pulled off the table's journal
    (read as the monitor writes, without opening the store for writing)."""
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM pulls").fetchone()[0] > 0
    except sqlite3.OperationalError:
        return False  # not made yet


def monitor(store: Path, log: Path) -> pico_rig.Linked:
    """`catnip monitor --port socket://... --store STORE` for as long as the
    bench runs, stopped with Ctrl-C once it has pulled the ended game (and had
    a moment to acknowledge it)."""

    def linked(url: str, running) -> None:
        with open(log, "w") as out:
            proc = subprocess.Popen([str(CATNIP), "monitor", "--port", url, "--store", str(store)],
                                    stdout=out, stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + PULLED_WAIT_S
                while running() and not pulled(store) and time.monotonic() < deadline:
                    time.sleep(0.5)
                time.sleep(3)  # the acknowledgement
            finally:
                proc.send_signal(signal.SIGINT)
                proc.wait(60)
        assert proc.returncode == 0, log.read_text()[-2000:]

    return linked


@pytest.mark.xdist_group("heist")
def test_monitor_mirrors_a_game_and_its_session_verifies(pico, tmp_path):
    name, options, seats = GAME
    clean(pico_rig.start(pico, tmp_path, name, options, seats))
    store_path = tmp_path / "sessions.sqlite3"
    log = tmp_path / "monitor.txt"
    played = pico_rig.finish(pico, tmp_path, name, options, seats,
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
    assert [f.seq for f in stream] == list(range(1, len(stream) + 1))  # none lost, none twice
    game = [(f.kind, f.fields()) for f in stream if f.kind in ("begin", "act", "end")]
    assert game[0][0] == "begin" and game[0][1]["moves"] == 0
    assert [f["n"] for k, f in game[1:-1]] == list(range(1, moves + 1))
    assert game[-1] == ("end", {"gid": 1, "result": result})

    # The mirror (what the monitor showed) ends in the journal's game.
    mirror = Mirror()
    for f in frames:
        if f.kind in ("begin", "act", "end", "say", "snap"):
            mirror.apply(f.kind, f.fields())
    assert (mirror.game, mirror.moves, mirror.result) == (name, moves, result)
    assert mirror.public == verify._plain(replayed.public())
    shown = [line for line in standings(name, mirror.result) if line[:1].isdigit()]
    for k in seats:
        lines = played.screens[f"st{k}_oled"]
        assert all(line in lines for line in shown), (shown, lines)

    replay = subprocess.run([str(CATNIP), "replay", str(session.id), "--verify",
                             "--store", str(store_path)], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert f"game 1 (Meow Heist): verified; {moves} of {moves} moves compared" in replay.stdout
