"""A fourth game joins with its own file and one registry line: Mouse Race
(tests/fourth_game.py, never shipped) registers, then the rules, the
stations' setup menu and end screen, and the laptop's words, records and
exports know it without a change anywhere else."""

from __future__ import annotations

import pytest

from catnip import rules


@pytest.fixture
def mice():
    before = (list(rules.NAMES), dict(rules.ABOUTS), dict(rules.TITLES), dict(rules.SHORT))
    rules.register("mice", "fourth_game")  # the one line a new game adds to the registry
    yield
    for kept, now in zip(before, (rules.NAMES, rules.ABOUTS, rules.TITLES, rules.SHORT)):
        now.clear()
        now.extend(kept) if isinstance(now, list) else now.update(kept)


def _played(config=None, seed="race"):
    game = rules.new("mice", config, seed)
    while game.to_act():
        game.act(game.to_act()[0], ("roll",))
    return game


def test_unregistered_it_is_unknown():
    assert "mice" not in rules.NAMES
    with pytest.raises(rules.RuleError, match="unknown game 'mice'"):
        rules.new("mice")


def test_its_rules_and_named_player_ranges(mice):
    assert rules.NAMES[-1] == "mice" and rules.TITLES["mice"] == "Mouse Race"
    game = _played({"players": 4})
    assert game.result()["scores"] == game.standing() and len(game.log) == 8
    with pytest.raises(rules.RuleError, match="the long track is for 2 or 3 mice"):
        rules.new("mice", {"players": 4, "track": "long"})
    assert rules.replay(game.record()).result() == game.result()


def test_the_setup_menu_offers_it_by_its_titles(mice):
    from catnip.ui.setup import Setup

    menu = Setup(6, lambda: [0, 1, 2], {"game": "purrfect"})
    game_row = menu.rows.index(("game",))
    menu.cursor.at = game_row
    from catnip.keys import OK, PRESS

    menu.key(0, OK, PRESS)  # the next game after Purrfect: the fourth
    assert menu.game == "mice" and menu.label(("game",)) == "Mouse Race"
    assert any(r[0] == "option" and r[2] == "track" for r in menu.rows)
    resume = Setup(6, lambda: [0, 1], resume=(3, {"game": "mice"}, []))
    assert resume.label(("resume",)) == "Resume Mice"


def test_its_end_screen_and_the_laptop_s_words(mice):
    from catnip.ui import draw
    from catnip.ui.end import standings
    from catnip_host.monitor import Mirror
    from catnip_host.words import Words

    game = _played({"players": 2}, seed="tie 3")
    draw.named(None)
    lines = standings(game.result())
    assert lines[0].startswith("1. P") and lines[2] == "finish"
    mirror = Mirror()
    mirror.apply("begin", {"gid": 1, "header": game.header(), "seats": [0, 1], "moves": 0})
    assert mirror.feed[-1] == "Mouse Race begins (game 1)"
    assert Words(("Ann",)).event({"type": "rolled", "player": 0, "pips": 5}) == \
        "rolled: pips 5, player Ann"


def test_the_laptop_s_records_and_exports_name_it(mice, tmp_path):
    from recordrig import engine_store

    from catnip_host import export, records
    from catnip_host.store import Store

    store = engine_store(tmp_path / "s.sqlite3", [("mice", {"players": 3}, "race 1")],
                         1780000000.0)
    plays = records.load(Store(store)).plays
    assert [p.title for p in plays] == ["Mouse Race"]
    (row,) = export.bgg_csv(plays).splitlines()[1:]
    assert row.startswith("2026-05-28,Mouse Race,,") and "wins with" in row
    assert export.bgstats(plays, "home", {})["games"][0]["name"] == "Mouse Race"
