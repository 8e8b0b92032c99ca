"""`--json` for the commands a script reads: `stats`, `sessions list`,
`players list` and `check-board`. The keys are the documented ones
(docs/records.md, docs/hardware.md) and stay put; the values agree with
what the tables show."""

from __future__ import annotations

import json

from click.testing import CliRunner

from catnip_host import bundle
from catnip_host.cli import main
from test_records import built, catnip, store_path  # noqa: F401 (fixtures)

BOARDS = bundle.FIRMWARE / "boards"


def _json(result) -> object:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_stats_as_json(store_path):  # noqa: F811
    assert catnip(store_path, "players", "name", "1", "P1=Alice").exit_code == 0
    out = _json(catnip(store_path, "stats", "--json"))
    assert set(out) == {"games", "first_day", "last_day", "lines", "clowder_high_scores"}
    assert out["games"] >= 1 and out["lines"]
    for line in out["lines"]:
        assert set(line) == {"player", "game", "plays", "wins", "win_rate", "average", "best",
                             "fewest_wins"}
        assert 0 <= line["wins"] <= line["plays"]
        assert line["win_rate"] == round(line["wins"] / line["plays"], 4)
    assert any(line["player"] == "Alice" for line in out["lines"])
    alice = _json(catnip(store_path, "stats", "--json", "--player", "Alice"))
    assert {line["player"] for line in alice["lines"]} == {"Alice"}


def test_sessions_and_players_list_as_json(store_path):  # noqa: F811
    sessions = _json(catnip(store_path, "sessions", "list", "--json"))
    assert sessions and all(set(s) == {"id", "opened", "board", "frames", "games_live",
                                       "pulled", "gaps"} for s in sessions)
    assert [s["id"] for s in sessions] == sorted(s["id"] for s in sessions)
    assert all(s["opened"].endswith("Z") and isinstance(s["frames"], int) for s in sessions)
    assert catnip(store_path, "players", "name", "1", "P1=Alice").exit_code == 0
    assert catnip(store_path, "players", "merge", "S2 P1", "Alice").exit_code == 0
    seats = _json(catnip(store_path, "players", "list", "--json"))
    assert set(seats) == {"seats", "merged"}
    assert {"session": 1, "seat": "P1", "name": "Alice", "named_as": None} in seats["seats"]
    assert seats["merged"] == [{"name": "S2 P1", "into": "Alice"}]


def test_an_empty_store_lists_nothing_as_json(tmp_path):
    from catnip_host.store import Store

    Store(tmp_path / "s.sqlite3").close()
    out = CliRunner().invoke(main, ["sessions", "list", "--json", "--store",
                                    str(tmp_path / "s.sqlite3")])
    assert _json(out) == []
    out = CliRunner().invoke(main, ["players", "list", "--json", "--store",
                                    str(tmp_path / "s.sqlite3")])
    assert _json(out) == {"seats": [], "merged": []}


def test_check_board_as_json_keeps_its_exit_codes():
    runner = CliRunner()
    ok = runner.invoke(main, ["check-board", str(BOARDS / "mux.json"), "--json"])
    assert ok.exit_code == 0, ok.output
    found = json.loads(ok.stdout)
    assert set(found) == {"board", "name", "stations", "cable_m", "cable_pf_per_m", "warnings",
                          "findings"}
    assert found["name"] == "mux" and found["warnings"] == 0 and found["findings"]
    assert all(set(f) == {"level", "topic", "text"} for f in found["findings"])
    warned = runner.invoke(main, ["check-board", str(BOARDS / "direct.json"), "--cable", "2",
                                  "--json"])
    assert warned.exit_code == 1
    out = json.loads(warned.stdout)
    assert out["warnings"] == sum(f["level"] == "warn" for f in out["findings"]) > 0
