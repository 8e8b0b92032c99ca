"""The records commands where no virtual table is needed: every command's
help, the games an export leaves out (not pulled yet, or refused by the
rules) and the Colonnade's ranking of Clowder teams."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner

from catnip import wire
from catnip_host import charts, stats
from catnip_host.cli import main
from recordrig import clowder_play


def test_every_command_and_option_explains_itself():
    import click

    from catnip_host.records_cli import COMMANDS

    todo = list(COMMANDS)
    while todo:
        command = todo.pop()
        if isinstance(command, click.Group):
            todo += command.commands.values()
        assert command.help and len(command.help) > 30, command.name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{command.name} {param.opts[0]} has no help"
        out = CliRunner().invoke(main, [*_path(command), "--help"])
        assert out.exit_code == 0 and command.help.split("\n")[0][:30] in out.output


def _path(command) -> list[str]:
    from catnip_host.records_cli import players as group

    return ["players", command.name] if command.name in group.commands and \
        group.commands[command.name] is command else [command.name]


# ---- games left out -----------------------------------------------------------------


def test_games_not_pulled_or_refused_by_the_rules_are_left_out_and_said(tmp_path):
    from recordrig import engine_store, mixed_games
    from test_verify import _frames

    path = engine_store(tmp_path / "s.sqlite3", mixed_games(2), 1.8e9)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER frames_no_update")  # what a damaged or edited file could hold
    raw = db.execute("SELECT id, raw FROM frames WHERE kind = 'entry' AND gid = 1 "
                     "ORDER BY id LIMIT 1").fetchone()
    db.execute("UPDATE frames SET raw = ? WHERE id = ?",
               (raw[1].replace('"play",', '"fly",', 1), raw[0]))
    for kind, fields in _frames(pulled=False)[:3]:  # a game still in play
        fields["gid"] = 9
        db.execute("INSERT INTO frames (session, at, seq, kind, gid, raw) VALUES "
                   "(1, 0, 0, ?, 9, ?)", (kind, wire.encode(kind, 0, fields)[:-1].decode()))
    db.commit()
    db.close()
    out = CliRunner().invoke(main, ["export", "--format", "csv", "--store", str(path)])
    assert out.exit_code == 0, out.output
    assert "1 game(s) not pulled from the table yet are left out" in out.stderr
    assert "left out game 1 of session 1: log entry #0" in out.stderr
    assert "catnip replay 1 --verify" in out.stderr
    assert len(out.stdout.splitlines()) == 2  # the header and the one sound game


def test_the_colonnade_ranks_clowders_best_first_and_keeps_the_first_of_equals():
    plays = [clowder_play(1, ("Mia", "Jo"), 16), clowder_play(2, ("Sam", "Noor"), 20),
             clowder_play(3, ("Ada", "Bo"), 16)]
    teams = [p.result["team"] for p in plays]
    assert teams[0] == teams[2] < teams[1] and teams[0] > 0
    assert stats.clowder_high_scores(plays).ranked() == [
        (1, ["Sam", "Noor"], teams[1]), (2, ["Mia", "Jo"], teams[0]), (2, ["Ada", "Bo"], teams[0])]
    assert stats.clowder_high_scores(plays, size=2).ranked() == [
        (1, ["Sam", "Noor"], teams[1]), (2, ["Mia", "Jo"], teams[0])]
    (line,) = stats.lines(plays, "Sam")
    assert (line.game, line.plays, line.wins, line.best) == ("Stack O' Cats: Clowder", 1, 0,
                                                               teams[1])
    series = charts.scores_by_round(plays[1])
    (team,) = series.lines.values()  # one team, one line
    assert list(series.lines) == ["the clowder: Sam, Noor"] and team[-1] == teams[1]
