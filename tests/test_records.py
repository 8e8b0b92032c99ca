"""catnip export, players, stats and chart against a store the link filled
from games the real firmware played on the virtual table. What the records
say is checked against what the table itself announced live (its "end"
result, its "act" events, its snapshots), which the records never read."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3

import pytest
from click.testing import CliRunner

from catnip import rules
from catnip_host import charts, export, players, records, stats, verify
from catnip_host.cli import main
from catnip_host.store import Store
from recordrig import virtual_store

pytestmark = pytest.mark.xdist_group("records")  # one worker builds the store once

GAMES = [
    ("heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2]),
    ("stack", {"mode": "composure", "draw": "digital"}, [0, 1]),
    ("stack", {"mode": "clowder", "draw": "digital"}, [0, 1, 2]),
    ("purrfect", {"mode": "stations"}, [0, 1, 2, 3]),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return virtual_store(tmp_path_factory.mktemp("virtual"), GAMES)


@pytest.fixture
def store_path(built, tmp_path):
    """A copy of the built store for one test to change."""
    path = tmp_path / "sessions.sqlite3"
    src, dst = sqlite3.connect(built), sqlite3.connect(path)
    src.backup(dst)
    src.close()
    dst.close()
    return path


def catnip(store_path, *args):
    result = CliRunner().invoke(main, [*args, "--store", str(store_path)])
    return result


def live(store_path) -> dict[tuple[int, int], verify.Game]:
    """What the table announced, by (session, gid)."""
    store = Store(store_path)
    games = verify.stored_games(store, store.tables()[0])
    store.close()
    return {(min(g.sessions), g.gid): g for g in games.values()}


def announced(store_path, session: int) -> tuple[list[list], list[dict]]:
    """The events of each act frame, and the public part of each snapshot,
    the table sent in one session, in order."""
    store = Store(store_path)
    acts, snaps = [], []
    for f in store.frames(session):
        if f.kind == "act":
            acts.append(f.fields()["events"])
        elif f.kind == "snap" and f.fields()["public"] is not None:
            snaps.append(f.fields()["public"])
    store.close()
    return acts, snaps


def load(store_path, **keep) -> list[records.Play]:
    store = Store(store_path)
    try:
        return records.load(store, records.Filter(**keep)).plays
    finally:
        store.close()


# ---- the plays ----------------------------------------------------------------------


def test_every_game_is_replayed_to_the_result_the_table_announced(store_path):
    plays = load(store_path)
    table = live(store_path)
    assert [p.name for p in plays] == [g[0] for g in GAMES]
    for p in plays:
        g = table[(p.session, p.gid)]
        assert p.finished and p.result == json.loads(json.dumps(g.live_result))
        assert p.players == tuple(f"S{p.session} P{k + 1}" for k in range(len(p.players)))
        assert p.began == g.began and p.ended is not None and p.ended >= p.began


def test_the_table_signs_every_game_it_finished_and_the_laptop_pinned_its_key(store_path):
    from catnip_host.signatures import Keys, fingerprint

    store = Store(store_path, readonly=True)
    (uid,) = store.tables()
    key = Keys(store).pinned(uid)
    assert key is not None
    for s in store.sessions():
        (c,) = verify.from_store(store, s.id)
        assert c.status == verify.VERIFIED, c.problems
        assert f"signed by table {uid} (key {fingerprint(key)})" in c.summary()
    listed = CliRunner().invoke(main, ["tables", "--store", str(store_path)])
    assert listed.exit_code == 0 and fingerprint(key) in listed.output


# ---- export -------------------------------------------------------------------------


def test_json_lines_hold_whole_games_that_replay_and_match_the_live_events(store_path):
    out = catnip(store_path, "export")
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == len(GAMES)
    for line in lines:
        game = rules.replay(export.record_of(line))  # the rules accept it whole
        assert json.loads(json.dumps(game.result())) == line["result"]
        acts, _ = announced(store_path, line["session"])
        assert line["events"] == acts  # every move's public events, as the table sent them
        assert len(line["actions"]) == len(acts)
        assert set(line["header"]) == {"game", "config", "seed_commit"}


def _summary(p: records.Play, anonymous: str | None = None) -> tuple:
    """A play as an export gives it back; `anonymous`: the name unnamed seats get."""
    names = [anonymous if anonymous and p.anonymous(k) else n for k, n in enumerate(p.players)]
    winners = range(len(names)) if anonymous and p.clowder else p.winners()  # BG Stats: a team win
    return (p.date.strftime("%Y-%m-%d"), p.game, p.variant, names, p.scores(),
            sorted(names[s] for s in winners))


def test_bg_stats_file_parses_back_to_the_same_plays(store_path):
    catnip(store_path, "players", "name", "1", "P1=Alice", "P2=Bob")
    out = catnip(store_path, "export", "--format", "bgstats", "--location", "Kitchen")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert set(data) >= {"games", "players", "locations", "plays"}
    games = {g["id"]: g["name"] for g in data["games"]}
    people = {p["id"]: p["name"] for p in data["players"]}
    assert [loc["name"] for loc in data["locations"]] == ["Kitchen"]
    back = []
    for play in data["plays"]:
        seats = sorted(play["playerScores"], key=lambda s: s["seatOrder"])
        names = [people[s["playerRefId"]] for s in seats]
        back.append((play["playDate"][:10], games[play["gameRefId"]], play["board"], names,
                     [int(s["score"]) for s in seats],
                     sorted(people[s["playerRefId"]] for s in seats if s["winner"])))
        assert {"durationMin", "locationRefId", "uuid"} <= set(play)
        assert [s["startPlayer"] for s in seats].count(True) <= 1
    plays = load(store_path)
    assert back == [_summary(p, export.ANONYMOUS) for p in plays]
    assert back[0][3] == ["Alice", "Bob", "Anonymous player"]
    heist = data["plays"][0]["playerScores"]
    assert [s["startPlayer"] for s in heist] == [True, False, False]  # the rules' start seat
    assert sorted(g["name"] for g in data["games"]) == ["Meow Heist", "Purrfect", "Stack O' Cats"]
    # Exporting again gives the same ids, so a second import adds nothing.
    again = json.loads(catnip(store_path, "export", "--format", "bgstats",
                              "--location", "Kitchen").stdout)
    assert [p["uuid"] for p in again["plays"]] == [p["uuid"] for p in data["plays"]]


def test_bgg_csv_parses_back_to_the_same_plays(store_path, tmp_path):
    target = tmp_path / "plays.csv"
    out = catnip(store_path, "export", "--format", "csv", "-o", str(target))
    assert out.exit_code == 0 and "4 game(s) written" in out.output, out.output
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    back = [(r["date"], r["game"], r["variant"], r["players"].split("; "),
             [int(s) for s in r["scores"].split("; ")],
             sorted(r["winners"].split("; ")) if r["winners"] else []) for r in rows]
    assert back == [_summary(p) for p in load(store_path)]
    assert list(rows[0]) == list(export.CSV_FIELDS)


def test_filters_pick_a_session_a_date_range_a_game_and_a_player(store_path):
    today = dt.date.today()
    tomorrow = today + dt.timedelta(days=1)
    assert [p.session for p in load(store_path, sessions=(2,))] == [2]
    assert len(load(store_path, since=today, until=today)) == len(GAMES)
    assert load(store_path, since=tomorrow) == []
    assert [p.name for p in load(store_path, game="stack")] == ["stack", "stack"]
    assert [p.session for p in load(store_path, player="S4 P4")] == [4]
    out = catnip(store_path, "export", "--format", "csv", "--since", tomorrow.isoformat())
    assert out.exit_code == 1 and "no finished games in the store match: since" in out.output
    out = catnip(store_path, "export", "--since", "2026-05-02", "--until", "2026-05-01")
    assert out.exit_code == 2 and "is after --until" in out.output
    out = catnip(store_path, "stats", "--since", "2026-13-01")
    assert out.exit_code == 2 and "'2026-13-01' is not a day: write it as YYYY-MM-DD" in out.output
    out = catnip(store_path, "export", "--player", "Zed")
    assert out.exit_code == 2 and "nobody is called 'Zed'" in out.output
    out = catnip(store_path, "export", "--session", "9")
    assert out.exit_code == 1 and "no session 9" in out.output


# ---- players ------------------------------------------------------------------------


def test_named_and_merged_players_are_used_everywhere(store_path):
    assert catnip(store_path, "players", "name", "1", "P1=Alice", "2=Bob").exit_code == 0
    assert catnip(store_path, "players", "name", "2", "P1=Ali").exit_code == 0
    out = catnip(store_path, "players", "merge", "Ali", "Alice")
    assert out.exit_code == 0 and "Ali is now counted as Alice" in out.output
    assert catnip(store_path, "players", "merge", "S4 P1", "Alice").exit_code == 0
    plays = load(store_path)
    assert [p.players[0] for p in plays] == ["Alice", "Alice", "S3 P1", "Alice"]
    assert load(store_path, player="Alice") == [plays[0], plays[1], plays[3]]
    out = catnip(store_path, "stats", "--player", "Ali")  # a merged name finds the person
    assert out.exit_code == 0 and "Alice" in out.output and "S3 P1" not in out.output
    listing = catnip(store_path, "players", "list").output
    assert "Ali " in listing and "merged into" in listing
    assert catnip(store_path, "players", "unmerge", "Ali").exit_code == 0
    assert load(store_path)[1].players[0] == "Ali"


@pytest.mark.parametrize(("pairs", "why"), [
    (["P5=Eve"], "session 1 has no seat P5: its seats are P1-P3"),
    (["Alice"], "is not SEAT=NAME"),
    (["P1=Al;ce"], "cannot hold semicolons"),
    (["P1=" + "x" * 41], "keep names to 40"),
    (["P1=Alice", "1=Bob"], "P1 is named twice"),
    (["P1= "], "cannot be empty"),
])
def test_a_name_that_cannot_be_used_is_refused_and_changes_nothing(store_path, pairs, why):
    out = catnip(store_path, "players", "name", "1", "P2=Bob", *pairs)
    assert out.exit_code == 1 and why in out.output, out.output
    assert load(store_path)[0].players == ("S1 P1", "S1 P2", "S1 P3")


def test_merging_refuses_what_would_lose_a_name(store_path):
    catnip(store_path, "players", "name", "1", "P1=Alice")
    for args, why in ((["Zed", "Alice"], "nobody is called 'Zed'"),
                      (["Alice", "Alice"], "already one name"),
                      (["Ali", "Bob"], "nobody is called 'Ali'")):
        out = catnip(store_path, "players", "merge", *args)
        assert out.exit_code == 1 and why in out.output, out.output
    out = catnip(store_path, "players", "unmerge", "Alice")
    assert out.exit_code == 1 and "was never merged" in out.output


def test_an_old_store_gains_the_names_tables_and_keeps_its_frames(tmp_path, built):
    from catnip_host.store_schema import MIGRATIONS, SCHEMA_VERSION, statements

    old = tmp_path / "v1.sqlite3"
    db = sqlite3.connect(old)
    for statement in statements(MIGRATIONS[0]):
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO sessions VALUES (1, 'u', 'b', 'direct', '0.1.0', 0)")
    db.commit()
    db.close()
    store = Store(old)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert store.db.execute("SELECT COUNT(*) FROM table_keys").fetchone()[0] == 0
    assert players.load(store).seats == {} and store.sessions()[0].uid == "u"
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("DELETE FROM sessions")
    store.close()


# ---- stats --------------------------------------------------------------------------


def test_stats_count_what_the_table_announced(store_path):
    catnip(store_path, "players", "name", "1", "P1=Alice")
    catnip(store_path, "players", "name", "2", "P1=Alice")
    catnip(store_path, "players", "name", "4", "P1=Alice")
    plays = load(store_path)
    table = live(store_path)
    mine = {line.game: line for line in stats.lines(plays, "Alice")}
    assert set(mine) == {"Meow Heist", "Stack O' Cats", "Purrfect"}
    for p in plays:
        if p.players[0] != "Alice":
            continue
        said = table[(p.session, p.gid)].live_result
        line = mine[p.title]
        assert line.plays == 1 and line.wins == (said["ranks"][0] == 1)
        score = said["pawprints" if p.name == "purrfect" else "scores"][0]
        assert line.average == line.best == score
    out = catnip(store_path, "stats", "--player", "Alice")
    assert out.exit_code == 0, out.output
    assert "Alice" in out.output and "S2 P2" not in out.output


def test_clowder_high_scores_rank_the_team_scores(store_path):
    plays = load(store_path)
    (clowder,) = [p for p in plays if p.clowder]
    said = live(store_path)[(clowder.session, clowder.gid)].live_result
    board = stats.clowder_high_scores(plays)
    assert board.ranked() == [(1, list(clowder.players), said["team"])]
    assert clowder.winners() == []  # one team, no winner
    out = catnip(store_path, "stats", "--game", "stack")
    assert out.exit_code == 0 and "Colonnade of Competent Clowders" in out.output


# ---- charts -------------------------------------------------------------------------


def _png(path):
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_scores_chart_follows_the_rounds_the_table_played(store_path, tmp_path):
    plays = {p.name: p for p in load(store_path) if not p.clowder}
    for name, p in plays.items():
        s = charts.scores_by_round(p)
        acts, snaps = announced(store_path, p.session)
        assert set(s.lines) == set(p.players)
        assert [s.lines[n][-1] for n in p.players] == p.scores()  # ends at the result
        if name == "stack":  # each turn ends with a placed cat (its score said live) or a collapse
            turns = [e for events in acts for e in events if e.get("type") in ("placed",
                                                                                "collapse")]
            assert s.x == list(range(1, len(turns) + 1))
            for k, e in enumerate(turns):
                if "score" in e:
                    assert s.lines[p.players[e["player"]]][k] == e["score"]
        else:  # one point per round the table went through
            assert s.x == list(range(1, snaps[-1]["round"] + 1))
    out = catnip(store_path, "chart", "scores", "--session", "1", "-o",
                 str(tmp_path / "scores.png"))
    assert out.exit_code == 0, out.output
    _png(tmp_path / "scores.png")


def test_the_tower_chart_is_the_tower_the_table_showed(store_path, tmp_path):
    (p,) = [p for p in load(store_path, game="stack") if not p.clowder]
    s = charts.tower_by_turn(p)
    acts, snaps = announced(store_path, p.session)
    moves = [(events, snap) for events, snap in zip(acts, snaps[1:])]
    assert len(snaps) >= len(acts) + 1  # the snapshot at the start, then one after each move
    shown = [snap["tower"] for events, snap in moves
             if any(e.get("type") in ("placed", "collapse") for e in events)]
    assert s.lines["tower"] == shown
    out = catnip(store_path, "chart", "tower", "--session", str(p.session), "-o",
                 str(tmp_path / "t.png"))
    assert out.exit_code == 0, out.output
    _png(tmp_path / "t.png")
    with pytest.raises(ValueError, match="tower chart is for Stack O' Cats"):
        charts.tower_by_turn(load(store_path, game="heist")[0])


def test_the_wins_chart_counts_each_players_wins_game_by_game(store_path, tmp_path):
    catnip(store_path, "players", "name", "2", "P2=Bob")
    catnip(store_path, "players", "name", "4", "P1=Bob")
    plays = load(store_path)
    s = charts.wins_over_time(plays)
    table = live(store_path)
    wins: dict[str, int] = {}
    for p in plays:
        result = table[(p.session, p.gid)].live_result
        if not p.clowder:
            for seat, rank in enumerate(result["ranks"]):
                wins[p.players[seat]] = wins.get(p.players[seat], 0) + (rank == 1)
    assert {n: ys[-1] for n, ys in s.lines.items()} == {n: wins.get(n, 0) for n in s.lines}
    assert s.x == [p.date for p in plays] and all(len(ys) == len(plays) for ys in s.lines.values())
    out = catnip(store_path, "chart", "wins", "-o", str(tmp_path / "w.png"))
    assert out.exit_code == 0, out.output
    _png(tmp_path / "w.png")


def test_open_shows_the_chart_it_wrote(store_path, tmp_path, monkeypatch):
    import click

    opened = []
    monkeypatch.setattr(click, "launch", lambda url, **kw: opened.append(url))
    out = catnip(store_path, "chart", "wins", "-o", str(tmp_path / "w.png"), "--open")
    assert out.exit_code == 0 and opened == [str(tmp_path / "w.png")], out.output


def test_a_chart_of_one_session_needs_the_session(store_path):
    out = catnip(store_path, "chart", "scores")
    assert out.exit_code == 2 and "add --session N" in out.output
