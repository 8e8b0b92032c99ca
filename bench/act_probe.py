"""A worker for bench_act_then, for the checkout at argv[1], so two commits
are timed by one script in turns: it gets ready (`act GAMES`: the first
GAMES bench games' moves, bench/replay_store.py; `verify GAMES FOLDER`: a
session of GAMES games stored in FOLDER, built by that checkout's code),
says "ready", then times one run for every line it reads and prints its
moves per second: the rules' act() alone over those games, or `replay
--verify` of that session. It ends when its input does."""

import sys
import time
from pathlib import Path

root, what, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [root, root + "/host", root + "/firmware", root + "/tests/shared"]

from bench import replay_store  # noqa: E402


def act_runs():
    games = [(k, replay_store.moves(replay_store.new_game(k))) for k in range(count)]

    def run() -> float:
        moves, spent = 0, 0.0
        for k, todo in games:
            game = replay_store.new_game(k)
            t0 = time.perf_counter()
            for seat, action in todo:
                game.act(seat, action)
            spent += time.perf_counter() - t0
            moves += len(todo)
        return moves / spent
    return run


def verify_runs():
    from catnip_host import verify
    from catnip_host.store import Store

    path = Path(sys.argv[4]) / "s.sqlite3"
    sid, moves = replay_store.build(path, replay_store.play(count))

    def run() -> float:
        t0 = time.perf_counter()
        store = Store(path)
        checks = verify.from_store(store, sid)
        lines = [c.summary() for c in checks]
        store.close()
        spent = time.perf_counter() - t0
        assert len(lines) == count and all(c.status == verify.VERIFIED for c in checks)
        return moves / spent
    return run


timed = act_runs() if what == "act" else verify_runs()
print("ready", flush=True)
for _ in sys.stdin:
    print(round(timed()), flush=True)
