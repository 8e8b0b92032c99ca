"""A worker for bench_act_then, for the checkout at argv[1], so two commits
are timed by one script in turns: it gets ready (`act GAMES`: the first
GAMES bench games' moves, bench/replay_store.py; `verify GAMES FOLDER`: a
session of GAMES games stored in FOLDER, built by that checkout's code),
says "ready", then times one run for every line it reads and prints two
figures in moves per second: that run's, and the best so far, pieced from
each game's fastest time over every run yet (for verify, each game's check
and, whole, the rest: the query, the gathering and the signatures). The
rules' act() alone over those games, or `replay --verify` of that session.
It ends when its input does.

Why pieces: on a shared machine a burst of other work slows whatever runs
then, a game or two of a run, not all of it; a run's total carries every
burst it met, and the best of fifteen runs still moved by a tenth from one
bench to the next. Each game's best over the runs leaves the bursts out, and
comes out the same, within a percent, in two processes."""

import sys
import time
from pathlib import Path

root, what, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [root, root + "/host", root + "/firmware", root + "/tests/shared"]

from bench import replay_store  # noqa: E402


def act_runs():
    games = [(k, replay_store.moves(replay_store.new_game(k))) for k in range(count)]
    moves = sum(len(todo) for _, todo in games)
    best = [float("inf")] * len(games)

    def run() -> tuple[float, float]:
        spent = 0.0
        for i, (k, todo) in enumerate(games):
            game = replay_store.new_game(k)
            t0 = time.perf_counter()
            for seat, action in todo:
                game.act(seat, action)
            took = time.perf_counter() - t0
            spent += took
            best[i] = min(best[i], took)
        return moves / spent, moves / sum(best)
    return run


def verify_runs():
    from catnip_host import verify
    from catnip_host.store import Store

    path = Path(sys.argv[4]) / "s.sqlite3"
    sid, moves = replay_store.build(path, replay_store.play(count))
    checked = verify.check  # what from_store calls for each game, in both commits
    took: list[float] = []  # this run's, game by game, in from_store's order

    def timed_check(g):
        t0 = time.perf_counter()
        c = checked(g)
        took.append(time.perf_counter() - t0)
        return c

    verify.check = timed_check
    best_games = [float("inf")] * count
    best_rest = float("inf")

    def run() -> tuple[float, float]:
        nonlocal best_rest
        took.clear()
        t0 = time.perf_counter()
        store = Store(path)
        checks = verify.from_store(store, sid)
        lines = [c.summary() for c in checks]
        store.close()
        spent = time.perf_counter() - t0
        assert len(lines) == count == len(took) and all(c.status == verify.VERIFIED
                                                          for c in checks)
        best_rest = min(best_rest, spent - sum(took))
        for i, t in enumerate(took):
            best_games[i] = min(best_games[i], t)
        return moves / spent, moves / (best_rest + sum(best_games))
    return run


timed = act_runs() if what == "act" else verify_runs()
print("ready", flush=True)
for _ in sys.stdin:
    print(*(round(x) for x in timed()), flush=True)
