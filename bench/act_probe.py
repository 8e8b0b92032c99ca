"""Run in a subprocess by bench_act_then, for the checkout at argv[1], so two
commits are timed by one script in turns: `act GAMES` prints the rules'
act() alone over the first GAMES bench games (bench/replay_store.py), in
moves per second; `verify GAMES FOLDER` prints `replay --verify`'s over a
session of GAMES games stored in FOLDER (built by that checkout's code)."""

import sys
import time
from pathlib import Path

root, what, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [root, root + "/host", root + "/firmware", root + "/tests/shared"]

from bench import replay_store  # noqa: E402


def act() -> float:
    games = [(k, replay_store.moves(replay_store.new_game(k))) for k in range(count)]
    moves, spent = 0, 0.0
    for k, todo in games:
        game = replay_store.new_game(k)
        t0 = time.perf_counter()
        for seat, action in todo:
            game.act(seat, action)
        spent += time.perf_counter() - t0
        moves += len(todo)
    return moves / spent


def verify() -> float:
    from catnip_host import verify
    from catnip_host.store import Store

    path = Path(sys.argv[4]) / "s.sqlite3"
    sid, moves = replay_store.build(path, replay_store.play(count))
    spent = []
    for _ in range(3):  # the best of three, as bench_link times it
        t0 = time.perf_counter()
        store = Store(path)
        checks = verify.from_store(store, sid)
        lines = [c.summary() for c in checks]
        store.close()
        spent.append(time.perf_counter() - t0)
        assert len(lines) == count and all(c.status == verify.VERIFIED for c in checks)
    return moves / min(spent)


print(round(act() if what == "act" else verify()))
