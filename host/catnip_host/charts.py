"""Charts of the records as PNG files (catnip chart), drawn by matplotlib's
Agg backend, so no display is needed.

Each chart is a Series first: exactly the numbers it plots, read from the
rules as they replay the games, so what a chart shows can be checked on its
own. draw() only turns Series into pictures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from catnip_host import records
from catnip_host.records import Play

CHARTS = ("scores", "wins", "tower")


@dataclass
class Series:
    title: str
    xlabel: str
    ylabel: str
    x: list = field(default_factory=list)
    lines: dict[str, list[float]] = field(default_factory=dict)  # label -> a y per x
    steps: bool = False  # a count that holds until it changes


def scores_by_round(play: Play) -> Series:
    """Every seat's score at the end of each round (Meow Heist, Purrfect) or
    each turn (Stack O' Cats: a cat placed or a collapse)."""
    by_turn = play.name == "stack"
    s = Series(f"{play.title}, game {play.gid} of session {play.session}",
               "turn" if by_turn else "round", _score_word(play))
    totals: list[list[int]] = []
    current = 1  # the round in play
    for _, _, events, game in records.steps(play):
        if by_turn:
            if not any(e.get("event") in ("placed", "collapse") for e in events):
                continue
            s.x.append(len(s.x) + 1)
        else:
            now, ended = game.public()["round"], game.result() is not None
            if now == current and not ended:
                continue
            s.x.append(current)  # a round closed: its scores are in
            current = now
        totals.append(records.standing(game))
    for seat, name in enumerate(play.players):
        s.lines[name] = [t[seat] for t in totals]
    return s


def _score_word(play: Play) -> str:
    if play.name == "purrfect":
        return "pawprints"
    return "team score" if play.clowder else "points"


def tower_by_turn(play: Play) -> Series:
    """Stack O' Cats: the cats standing in the tower after each turn."""
    if play.name != "stack":
        raise ValueError(f"game {play.gid} of session {play.session} is {play.title}; the "
                         "tower chart is for Stack O' Cats")
    s = Series(f"{play.title}: the tower, game {play.gid} of session {play.session}", "turn",
               "cats in the tower", steps=True)
    tower: list[float] = []
    for _, _, events, game in records.steps(play):
        if any(e.get("event") in ("placed", "collapse") for e in events):
            s.x.append(len(s.x) + 1)
            tower.append(game.public()["tower"])
    s.lines["tower"] = tower
    return s


def wins_over_time(plays: Iterable[Play]) -> Series:
    """Each player's wins so far, after every finished play, by date."""
    plays = [p for p in plays if p.finished]
    s = Series("Wins over time", "date", "wins so far", steps=True)
    everyone = sorted({name for p in plays for name in p.players})
    wins = dict.fromkeys(everyone, 0)
    s.lines = {name: [] for name in everyone}
    for p in plays:
        for seat in p.winners():
            wins[p.players[seat]] += 1
        s.x.append(p.date)
        for name in everyone:
            s.lines[name].append(wins[name])
    return s


def draw(charts: list[Series], path: Path) -> Path:
    """One PNG with a panel per Series, stacked."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(8, 3.2 * len(charts)), layout="constrained")
    for ax, s in zip(fig.subplots(len(charts), 1, squeeze=False)[:, 0], charts):
        for label, ys in s.lines.items():
            if s.steps:
                ax.step(s.x, ys, where="post", label=label)
            else:
                ax.plot(s.x, ys, marker="o", label=label)
        ax.set(title=s.title, xlabel=s.xlabel, ylabel=s.ylabel)
        ax.grid(alpha=0.3)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        if s.xlabel == "date":
            dates = AutoDateLocator()
            ax.xaxis.set_major_locator(dates)
            ax.xaxis.set_major_formatter(ConciseDateFormatter(dates))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if len(s.lines) > 1:
            ax.legend(loc="upper left", fontsize="small")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=100)
    return path
