"""A journal written by one interpreter reads back on the other: the Pico
(MicroPython) writes what the laptop (CPython) pulls, and the laptop's own
journals read on the device."""

from __future__ import annotations

import json
from pathlib import Path

import mpunix
from test_journal import HEADER, actions, record_game

from catnip.flash.journal import Journal

END = {"ranks": [2, 1, 3], "reasons": ["player 1 has the most points"]}

WRITE = """
import sys
from test_journal import actions, record_game
record_game(sys.argv[1], actions(90), notes_every=13, end={end!r})
gid = record_game(sys.argv[1], actions(20), notes_every=7)[1]
print("OK", gid)
"""

READ = """
import json, sys
from catnip.flash.journal import Journal
j = Journal(sys.argv[1])
for gid, status in j.games():
    print(json.dumps([gid, status, j.header(gid), [list(e) for e in j.entries(gid)]]))
print("OK", j.resumable()[0], j.resumable()[2])
"""


def _micropython(script: str, folder: Path) -> list[str]:
    path = folder / "script.py"
    path.write_text(script)
    proc = mpunix.run([str(path), str(folder / "journal")], path=[mpunix.SHARED_TESTS])
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def _as_read(entry: list) -> tuple:
    # What json made of an entry, back in the journal's shape.
    if entry[0] == "action":
        return ("action", entry[1], tuple(entry[2]))
    return tuple(entry)


def test_cpython_reads_what_micropython_wrote(tmp_path):
    out = _micropython(WRITE.format(end=END), tmp_path)
    assert out[-1] == "OK 2"
    mine = tmp_path / "mine"
    record_game(str(mine), actions(90), notes_every=13, end=END)
    record_game(str(mine), actions(20), notes_every=7)
    theirs, ours = Journal(str(tmp_path / "journal")), Journal(str(mine))
    assert theirs.problems == [] and theirs.games() == [(1, "finished"), (2, "playing")]
    assert theirs.resumable() == ours.resumable() == (2, HEADER, 20)
    for gid in (1, 2):
        assert theirs.header(gid) == HEADER
        assert list(theirs.entries(gid)) == list(ours.entries(gid))


def test_micropython_reads_what_cpython_wrote(tmp_path):
    root = str(tmp_path / "journal")
    record_game(root, actions(90), notes_every=13, end=END)
    record_game(root, actions(20), notes_every=7)
    ours = Journal(root)
    out = _micropython(READ, tmp_path)
    assert out[-1] == "OK 2 20"
    games = [json.loads(line) for line in out[:-1]]
    assert [(g[0], g[1]) for g in games] == ours.games()
    for gid, _, header, entries in games:
        assert header == ours.header(gid)
        assert [_as_read(e) for e in entries] == list(ours.entries(gid))
