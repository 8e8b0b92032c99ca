"""What BG Stats, BGG and spreadsheets receive: BGG ids from the user's table,
one Stack O' Cats with the mode as the play's board, the Clowder as the
team result the rules give it, unnamed seats as BG Stats' anonymous player,
the one-game push link, and CSV that any console and spreadsheet read."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import urllib.parse

import pytest
from click.testing import CliRunner

from catnip_host import export
from catnip_host.cli import main
from recordrig import engine_store

GAMES = [
    ("heist", {"players": 3}, "formats 1"),
    ("stack", {"players": 2, "mode": "clowder"}, "formats 2"),
    ("stack", {"players": 2, "mode": "patient"}, "formats 3"),
    ("stack", {"players": 3}, "formats 4"),
]


@pytest.fixture
def store(tmp_path):
    return engine_store(tmp_path / "s.sqlite3", GAMES, 1780000000.0, per_session=4)


def catnip(store, *args, env=None):
    return CliRunner().invoke(main, [*args, "--store", str(store)], env=env)


def bgstats(store, *args) -> dict:
    out = catnip(store, "export", "--format", "bgstats", "--settings", os.devnull, *args)
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def test_a_game_without_a_known_bgg_id_has_none_and_one_given_is_used(store, tmp_path):
    data = bgstats(store)
    assert all("bggId" not in g for g in data["games"])  # never a 0 that matches nothing
    data = bgstats(store, "--bgg-id", "heist=123456")
    ids = {g["name"]: g.get("bggId") for g in data["games"]}
    assert ids == {"Meow Heist": 123456, "Stack O' Cats": None}
    settings = tmp_path / "settings.toml"
    settings.write_text('[bgg-ids]\nstack = 222\nheist = 111\n')
    out = catnip(store, "export", "--format", "bgstats", "--settings", str(settings),
                 "--bgg-id", "heist=999")
    ids = {g["name"]: g.get("bggId") for g in json.loads(out.stdout)["games"]}
    assert ids == {"Meow Heist": 999, "Stack O' Cats": 222}  # the option wins over the file


@pytest.mark.parametrize(("given", "why"), [
    ("heist", "is not GAME=ID"), ("chess=5", "'chess' is not a catnip game"),
    ("heist=0", "a BGG id is the whole number"), ("heist=١٢", "a BGG id is the whole number"),
])
def test_a_bgg_id_that_cannot_be_used_is_refused(store, given, why):
    out = catnip(store, "export", "--format", "bgstats", "--settings", os.devnull,
                 "--bgg-id", given)
    assert out.exit_code == 2 and why in out.output, out.output


def test_stack_o_cats_is_one_game_with_the_mode_as_the_plays_board(store):
    data = bgstats(store)
    assert [g["name"] for g in data["games"]] == ["Meow Heist", "Stack O' Cats"]
    stack = next(g["id"] for g in data["games"] if g["name"] == "Stack O' Cats")
    boards = [p["board"] for p in data["plays"] if p["gameRefId"] == stack]
    assert boards == ["Clowder", "Patient Paws", "Catlike Composure"]


def test_the_clowder_is_one_team_sharing_its_score_and_the_win(store):
    clowder = next(p for p in bgstats(store)["plays"] if p["board"] == "Clowder")
    seats = clowder["playerScores"]
    assert len({s["score"] for s in seats}) == 1
    assert all(s["winner"] and s["rank"] == 1 for s in seats)
    assert "cooperative" in clowder["comments"]


def test_unnamed_seats_are_the_anonymous_player_and_named_ones_people(store):
    assert catnip(store, "players", "name", "1", "P1=Alice").exit_code == 0
    data = bgstats(store)
    people = {p["id"]: p for p in data["players"]}
    assert sorted((p["name"], p["isAnonymous"]) for p in people.values()) == [
        ("Alice", False), ("Anonymous player", True)]
    heist = data["plays"][0]["playerScores"]
    assert [people[s["playerRefId"]]["name"] for s in heist] == [
        "Alice", "Anonymous player", "Anonymous player"]


def test_a_bgstats_file_not_named_bgsplay_is_said(store, tmp_path):
    out = catnip(store, "export", "--format", "bgstats", "-o", str(tmp_path / "plays.json"))
    assert out.exit_code == 0 and "rename it plays.bgsplay" in out.stderr
    out = catnip(store, "export", "--format", "bgstats", "-o", str(tmp_path / "plays.bgsplay"))
    assert out.exit_code == 0 and "rename" not in out.stderr


def test_the_bgstats_link_opens_one_play_in_the_documented_format(store):
    catnip(store, "players", "name", "1", "P1=Alice", "P2=Bob")
    out = catnip(store, "export", "--format", "bgstats-link", "--session", "1", "--gid", "1",
                 "--bgg-id", "heist=77", "--settings", os.devnull)
    assert out.exit_code == 0, out.output
    url = out.stdout.strip()
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(urllib.parse.unquote(url.split("data=", 1)[1]))
    assert set(data) == {"sourceName", "sourcePlayId", "game", "location", "board",
                         "durationMin", "comments", "players", "playDate"}
    assert data["game"] == {"name": "Meow Heist", "bggId": 77, "highestWins": True,
                            "noPoints": False, "sourceGameId": "heist"}
    assert [p["name"] for p in data["players"]] == ["Alice", "Bob", "Anonymous player"]
    assert set(data["players"][0]) == {"name", "sourcePlayerId", "score", "winner", "rank",
                                       "startPlayer", "role"}
    assert "sourcePlayerId" not in data["players"][2]
    out = catnip(store, "export", "--format", "bgstats-link", "--session", "1")
    assert out.exit_code == 2 and "carries one game and 4 match" in out.output


# ---- CSV and consoles ---------------------------------------------------------------


def test_csv_is_rfc_4180_with_the_variant_in_its_own_column(store):
    out = catnip(store, "export", "--format", "csv")
    assert out.exit_code == 0, out.output
    raw = out.stdout_bytes
    assert raw.count(b"\r\n") == len(GAMES) + 1 and b"\n" not in raw.replace(b"\r\n", b"")
    rows = list(csv.DictReader(io.StringIO(raw.decode(), newline="")))
    assert [(r["game"], r["variant"]) for r in rows] == [
        ("Meow Heist", ""), ("Stack O' Cats", "Clowder"), ("Stack O' Cats", "Patient Paws"),
        ("Stack O' Cats", "Catlike Composure")]


def test_the_bom_is_for_spreadsheets_only(store):
    out = catnip(store, "export", "--format", "csv", "--bom")
    assert out.stdout_bytes.startswith("\ufeffdate,".encode())
    out = catnip(store, "export", "--format", "jsonl", "--bom")
    assert out.exit_code == 2 and "--bom is for --format csv" in out.output


def test_export_writes_utf8_on_a_console_that_cannot_encode_the_names(store):
    assert catnip(store, "players", "name", "1", "P1=Zoë", "P2=李雷").exit_code == 0
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    run = subprocess.run([sys.executable, "-m", "catnip_host", "export", "--format", "csv",
                          "--store", str(store)], capture_output=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    assert "Zoë; 李雷".encode() in run.stdout


@pytest.mark.parametrize("name", ["+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "-Zed"])
def test_csv_cells_that_would_start_a_formula_are_plain_text(store, name):
    assert export.plain(name) == "'" + name
    assert catnip(store, "players", "name", "1", f"P1={name}").exit_code == 0
    out = catnip(store, "export", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.stdout_bytes.decode(), newline="")))
    cells = [cell for row in rows[1:] for cell in row]
    assert not any(cell.startswith(export.FORMULA) for cell in cells)
    assert rows[1][4].startswith("'" + name)


def test_numbers_stay_numbers():
    assert export.plain("-3") == "-3" and export.plain(25) == 25 and export.plain("Mia") == "Mia"


def test_an_older_table_s_tie_is_said_in_the_players_names(tmp_path):
    """A Purrfect tie an older table stored as a sentence numbering seats
    from 0 reaches BG Stats and the CSV in the names given to the seats."""
    from test_results_shape import SENTENCES, _old_frames
    from test_signatures import _store

    line = next(g for g in SENTENCES if g["record"]["game"] == "purrfect"
                and "tied" in g["result"]["reason"] and g["record"]["config"]["players"] == 5)
    assert line["result"]["reason"].startswith("players 3, 4 tied")  # won by seat 2
    store, session = _store(tmp_path, _old_frames(line), None)
    store.close()
    path = tmp_path / "s.sqlite3"
    named = catnip(path, "players", "name", str(session), "P1=Ann", "P2=Bo", "P3=Cy",
                   "P4=Di", "P5=Ed")
    assert named.exit_code == 0, named.output
    tied = [["Ann", "Bo", "Cy", "Di", "Ed"][p] for p in (3, 4)]  # the seats of the sentence
    row = next(csv.DictReader(io.StringIO(catnip(path, "export", "--format", "csv").output)))
    assert row["ended"] == (f"{row['winners']} wins with 4 pawprints ({tied[0]} and {tied[1]} "
                            f"tied at 5 pawprints; {row['winners']} won this round's two "
                            "pawprints)")
    assert row["winners"] == "Cy"
    (play,) = bgstats(path)["plays"]
    assert play["comments"].startswith(row["ended"] + "; ")
