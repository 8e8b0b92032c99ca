"""One person, one name: names NFC-normalised, one person in one seat of a
game, merges kept as made (so undoing one restores the one before), and names
that are text a spreadsheet or a line reader cannot misread."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

import pytest
from click.testing import CliRunner

from catnip_host import players, records, stats
from catnip_host.cli import main
from catnip_host.store import Store
from recordrig import engine_store

GAMES = [("heist", {"players": 3}, "names 1"), ("stack", {"players": 2}, "names 2"),
         ("heist", {"players": 2}, "names 3")]


@pytest.fixture
def store(tmp_path):
    return engine_store(tmp_path / "s.sqlite3", GAMES, 1780000000.0, per_session=2)


def catnip(store, *args):
    return CliRunner().invoke(main, [*args, "--store", str(store)])


def seats(store) -> list[tuple[str, ...]]:
    s = Store(store)
    try:
        return [p.players for p in records.load(s).plays]
    finally:
        s.close()


def test_a_name_typed_composed_or_decomposed_is_one_person(store):
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    assert composed != decomposed and unicodedata.normalize("NFC", decomposed) == composed
    assert catnip(store, "players", "name", "1", f"P1={composed}").exit_code == 0
    assert catnip(store, "players", "name", "2", f"P2={decomposed}").exit_code == 0
    assert seats(store)[0][0] == seats(store)[2][1] == composed
    out = catnip(store, "stats", "--player", decomposed)
    assert out.exit_code == 0 and out.output.count("Zoë") == 2  # a line per game, not per form
    s = Store(store)
    lines = stats.lines(records.load(s).plays, composed)
    s.close()
    assert [(line.game, line.plays) for line in lines] == [("Meow Heist", 2), ("Stack O' Cats", 1)]


def test_one_person_in_two_seats_of_a_game_is_refused_and_changes_nothing(store):
    out = catnip(store, "players", "name", "1", "P1=Alice", "P3=Alice")
    assert out.exit_code == 1 and "both P1 and P3 of session 1" in out.output, out.output
    assert catnip(store, "players", "name", "1", "P1=Alice", "P2=Ali").exit_code == 0
    out = catnip(store, "players", "name", "1", "P2=Alice")
    assert out.exit_code == 1 and "one person sits in one seat" in out.output
    out = catnip(store, "players", "merge", "Ali", "Alice")
    assert out.exit_code == 1 and "both P1 and P2 of session 1" in out.output
    assert seats(store)[0] == ("Alice", "Ali", "S1 P3")


def test_merges_keep_their_history(store):
    catnip(store, "players", "name", "1", "P1=Ali")
    catnip(store, "players", "name", "2", "P1=Alice")
    assert catnip(store, "players", "merge", "Ali", "Alice").exit_code == 0
    assert catnip(store, "players", "merge", "Alice", "Alicia").exit_code == 0  # a rename
    assert [s[0] for s in seats(store)] == ["Alicia", "Alicia", "Alicia"]
    assert catnip(store, "players", "unmerge", "Alice").exit_code == 0
    assert [s[0] for s in seats(store)] == ["Alice", "Alice", "Alice"]  # Ali is still Alice


def test_a_seat_label_is_not_a_persons_name(store):
    out = catnip(store, "players", "name", "1", "P1=S2 P1")
    assert out.exit_code == 1 and "a seat nobody named" in out.output


@pytest.mark.parametrize("bad", ["Al\u0085ice", "Al\u2028ice", "Al\u2029ice", "Al\u009bice",
                                 "\u202eecilA", "Al\u200bice", "Alice\u200d", "\u2066Al",
                                 "Al\tice", "Al\x7fice", "\ufeffAlice"])
def test_names_refuse_controls_separators_bidi_and_lone_zero_widths(store, bad):
    out = catnip(store, "players", "name", "1", f"P1={bad}")
    assert out.exit_code == 1 and "invisible characters" in out.output, out.output
    assert "U+" in out.output
    assert seats(store)[0][0] == "S1 P1"


@pytest.mark.parametrize("good", ["Zoë", "李雷", "أحمد", "👩\u200d🚀 Sam", "Mi\u200cna"])
def test_names_in_any_script_are_kept(store, good):
    out = catnip(store, "players", "name", "1", f"P1={good}")
    assert out.exit_code == 0, out.output
    assert seats(store)[0][0] == unicodedata.normalize("NFC", good)


@pytest.mark.parametrize("pair", ["P²=Sam", "P١=Sam", "١=Sam", "P1\u0663=Sam"])
def test_seat_numbers_are_ascii_digits_only(store, pair):
    out = catnip(store, "players", "name", "1", pair)
    assert out.exit_code == 1 and "is not SEAT=NAME" in out.output, out.output
    assert seats(store)[0] == ("S1 P1", "S1 P2", "S1 P3")


def test_a_name_in_latin1_bytes_is_refused_by_name(store):
    """On a UTF-8 system, Latin-1 bytes in argv arrive as lone surrogates."""
    env = dict(os.environ, LC_ALL="C.UTF-8", PYTHONUTF8="1")
    run = subprocess.run([os.fsencode(sys.executable), b"-m", b"catnip_host", b"players",
                          b"name", b"1", b"P1=Zo\xeb", b"--store", os.fsencode(store)],
                         capture_output=True, env=env, timeout=120)
    assert run.returncode == 1, run.stderr
    assert b"is not UTF-8 text" in run.stderr and b"Traceback" not in run.stderr
    assert seats(store)[0][0] == "S1 P1"


def test_check_name_gives_back_the_stored_form():
    assert players.check_name("  Zoe\u0308 ") == "Zoë"
    with pytest.raises(players.PlayerError, match="U\\+2028"):
        players.check_name("a\u2028b")
