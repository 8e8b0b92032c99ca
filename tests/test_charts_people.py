"""Charts a group can read: many names told apart with the legend beside the
plot, names in any script drawn (or a plain word when no font has them), the
Clowder as one team, and the tower chart saying what a session played."""

from __future__ import annotations

import warnings

import pytest
from click.testing import CliRunner

from catnip_host import charts
from catnip_host.cli import main
from recordrig import clowder_play, engine_store


def _many(n: int) -> charts.Series:
    s = charts.Series("Wins over time", "game", "wins so far", x=[1, 2, 3], steps=True)
    s.lines = {f"player {k:02}": [0, k % 2, k % 3] for k in range(n)}
    return s


@pytest.mark.parametrize("n", [11, 16, 24])
def test_wins_past_ten_names_keep_a_look_each_and_the_legend_off_the_plot(n):
    fig = charts.figure([_many(n)])
    fig.canvas.draw()
    (ax,) = fig.axes
    looks = [(line.get_color(), line.get_linestyle()) for line in ax.get_lines()]
    assert len(set(looks)) == n  # no two names drawn alike
    renderer = fig.canvas.get_renderer()
    legend, plot = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert legend.x0 >= plot.x1  # beside the plot, never over it
    assert len(ax.get_legend().get_texts()) == n


def _cjk_font() -> bool:
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    return any(f in names for f in charts.FONTS[1:])


def test_cjk_names_are_drawn_without_a_font_warning(tmp_path, capfd):
    if not _cjk_font():
        pytest.skip("no CJK font installed (fonts-noto-cjk)")
    s = _many(2)
    s.lines = {"李雷": [0, 1, 1], "さくら": [0, 0, 1], "Zoë": [1, 1, 1]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph warns: fail on it
        assert charts.draw([s], tmp_path / "w.png") == []
    assert capfd.readouterr().err == ""


def test_without_a_font_for_the_names_it_says_so_once_and_plainly(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(charts, "FONTS", ("DejaVu Sans",))
    s = _many(2)
    s.lines = {"李雷": [0, 1, 1], "韩梅梅": [0, 0, 1]}
    notes = charts.draw([s], tmp_path / "w.png")
    assert len(notes) == 1 and "install one with them" in notes[0]
    assert "Glyph" not in capfd.readouterr().err
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"


def test_the_clowder_is_one_line_for_the_team():
    play = clowder_play(1, ("Mia", "Jo", "Ada", "Bo"), 12)
    s = charts.scores_by_round(play)
    (team,) = s.lines.values()
    assert list(s.lines) == ["the clowder: Mia, Jo, Ada, Bo"] and team[-1] == play.result["team"]


def test_the_tower_chart_of_a_session_without_stack_o_cats_says_what_it_played(tmp_path):
    store = engine_store(tmp_path / "s.sqlite3", [("heist", {"players": 2}, "t 1")], 1.78e9)
    out = CliRunner().invoke(main, ["chart", "tower", "--session", "1", "--store", str(store),
                                    "-o", str(tmp_path / "t.png")])
    assert out.exit_code == 1
    assert "session 1 has no Stack O' Cats game (it played Meow Heist)" in out.output


def _stack_play(correct: bool):
    """Stack O' Cats placed to its end; with `correct`, every third placement
    is taken back and given again, one higher."""
    from catnip import rules
    from catnip_host import records

    game = rules.new("stack", {"players": 2}, "taken back")
    placed = 0
    while game.result() is None:
        p = game.to_act()[0]
        legal = game.legal(p)
        action = legal[0]
        if action[0] == "place":
            placed += 1
            ends = game.public()["bag_left"] == 0
            if correct and placed % 3 == 0 and not ends:
                game.act(p, action)
                game.act(p, ("correct",))
            action = ("place", 1, 0)
        game.act(p, action)
    record = dict(game.record(), log=[[p, list(a)] for p, a in game.log])
    return records.Play("t", 1, 1, 1.8e9, None, record, game.result(), ("Mia", "Jo"))


def test_a_result_taken_back_is_one_turn_in_the_charts():
    plain, fixed = _stack_play(False), _stack_play(True)
    assert len(fixed.record["log"]) > len(plain.record["log"])
    for chart in (charts.scores_by_round, charts.tower_by_turn):
        a, b = chart(plain), chart(fixed)
        assert a.x == b.x and a.lines == b.lines
