"""Per player and game: plays, wins, win rate, average and best score; and
the Clowder's high-score table (catnip stats). Scores and winners are the
rules' (records.Play); the high scores are kept by the rules' own Colonnade.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.console import Group
from rich.table import Table
from rich.text import Text

from catnip.rules.colonnade import MAX_SIZE, Colonnade
from catnip_host.records import Play


@dataclass
class Line:
    player: str
    game: str  # the play's title (Stack O' Cats' modes apart)
    lower_wins: bool = False
    wins: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def plays(self) -> int:
        return len(self.scores)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays

    @property
    def average(self) -> float:
        return sum(self.scores) / self.plays

    @property
    def best(self) -> int:
        return min(self.scores) if self.lower_wins else max(self.scores)


def lines(plays: Iterable[Play], player: str | None = None) -> list[Line]:
    """A line per (player, game), by player then game; only `player`'s if given."""
    found: dict[tuple[str, str], Line] = {}
    for play in plays:
        if not play.finished:
            continue
        scores, winners = play.scores(), play.winners()
        for seat, name in enumerate(play.players):
            if player is not None and name != player:
                continue
            line = found.setdefault((name, play.title), Line(name, play.title, play.lower_wins))
            line.scores.append(scores[seat])
            line.wins += seat in winners
    return [found[k] for k in sorted(found)]


def clowder_high_scores(plays: Iterable[Play], size: int = 10) -> Colonnade:
    """The Colonnade of Competent Clowders over these plays, oldest first so
    an equal score keeps the clowder that reached it first."""
    board = Colonnade(min(size, MAX_SIZE))
    for play in plays:
        if play.clowder and play.finished:
            board.add(list(play.players), play.scores()[0])
    return board


def render(found: list[Line], board: Colonnade, title: str) -> Group:
    t = Table("player", "game", "plays", "wins", "win rate", "average", "best", title=title)
    for line in found:
        t.add_row(*map(Text, (line.player, line.game, str(line.plays), str(line.wins),
                              f"{line.win_rate:.0%}", f"{line.average:.1f}",
                              str(line.best) + (" (fewest)" if line.lower_wins else ""))))
    parts: list = [t]
    if board.entries:
        h = Table("rank", "cats in the clowder", "high score",
                  title="Colonnade of Competent Clowders")
        for rank, names, score in board.ranked():
            h.add_row(str(rank), Text(", ".join(names)), str(score))  # names: never markup
        parts.append(h)
    return Group(*parts)


def as_json(found: list[Line], board: Colonnade, games: int, days: list) -> dict:
    """What render() shows, for a script (`catnip stats --json`; the keys are
    kept stable: docs/records.md)."""
    return {
        "games": games,
        "first_day": min(days).isoformat() if days else None,
        "last_day": max(days).isoformat() if days else None,
        "lines": [{"player": line.player, "game": line.game, "plays": line.plays,
                   "wins": line.wins, "win_rate": round(line.win_rate, 4),
                   "average": round(line.average, 2), "best": line.best,
                   "fewest_wins": line.lower_wins} for line in found],
        "clowder_high_scores": [{"rank": rank, "players": list(names), "score": score}
                                for rank, names, score in board.ranked()],
    }
