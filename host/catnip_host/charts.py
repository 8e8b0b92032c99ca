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
# Fonts tried, in turn, for a character the first lacks (matplotlib falls back glyph by
# glyph): DejaVu Sans for Latin, Greek and Cyrillic, then fonts with Chinese, Japanese and
# Korean (Debian/Ubuntu's fonts-noto-cjk, then what Windows and macOS ship).
FONTS = ("DejaVu Sans", "Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK TC",
         "Noto Sans CJK KR", "Source Han Sans", "WenQuanYi Zen Hei", "Droid Sans Fallback",
         "Microsoft YaHei", "Yu Gothic", "Malgun Gothic", "PingFang SC", "Hiragino Sans",
         "Arial Unicode MS")
STYLES = ("-", "--", ":", "-.")  # with 20 colours: 80 lines told apart


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
    by_turn = "round" not in records.opening(play).public()  # a game without rounds: turns
    s = Series(f"{play.title}, game {play.gid} of session {play.session}",
               "turn" if by_turn else "round", _score_word(play))
    totals: list[list[int]] = []
    current = 1  # the round in play
    for _, _, events, game in records.steps(play):
        if _taken_back(events):  # a turn taken back, or the round that closed last
            if s.x and (by_turn or game.public()["round"] != current):
                s.x.pop()
                totals.pop()
                current = current if by_turn else game.public()["round"]
            continue
        if by_turn:
            if not any(e.get("type") in ("placed", "collapse") for e in events):
                continue
            s.x.append(len(s.x) + 1)
        else:
            now, ended = game.public()["round"], game.result() is not None
            if now == current and not ended:
                continue
            s.x.append(current)  # a round closed: its scores are in
            current = now
        totals.append(records.standing(game))
    if play.clowder:  # one team, one score: one line, named for the clowder
        s.lines["the clowder: " + ", ".join(play.players)] = [t[0] for t in totals]
        return s
    for seat, name in enumerate(play.players):
        s.lines[name] = [t[seat] for t in totals]
    return s


def _taken_back(events: list[dict]) -> bool:
    """A correction: the last result was taken back, to be given again."""
    return any(e.get("type") == "correct" for e in events)


def _score_word(play: Play) -> str:
    if play.result is None:
        return "score"
    return "team score" if play.clowder else play.result["unit"]


def tower_by_turn(play: Play) -> Series:
    """Stack O' Cats: the cats standing in the tower after each turn."""
    if play.name != "stack":
        raise ValueError(f"game {play.gid} of session {play.session} is {play.title}; the "
                         "tower chart is for Stack O' Cats")
    s = Series(f"{play.title}: the tower, game {play.gid} of session {play.session}", "turn",
               "cats in the tower", steps=True)
    tower: list[float] = []
    for _, _, events, game in records.steps(play):
        if _taken_back(events) and s.x:  # the last turn is reported again
            s.x.pop()
            tower.pop()
        elif any(e.get("type") in ("placed", "collapse") for e in events):
            s.x.append(len(s.x) + 1)
            tower.append(game.public()["tower"])
    s.lines["tower"] = tower
    return s


def wins_over_time(plays: Iterable[Play]) -> Series:
    """Each player's wins so far, after every finished play, by date."""
    plays = [p for p in plays if p.finished]
    dated = all(p.date is not None for p in plays)  # else by play: some dates are unknown
    s = Series("Wins over time", "date" if dated else "game", "wins so far", steps=True)
    everyone = sorted({name for p in plays for name in p.players})
    wins = dict.fromkeys(everyone, 0)
    s.lines = {name: [] for name in everyone}
    for p in plays:
        for seat in p.winners():
            wins[p.players[seat]] += 1
        s.x.append(p.date if dated else len(s.x) + 1)
        for name in everyone:
            s.lines[name].append(wins[name])
    return s


def draw(charts: list[Series], path: Path) -> list[str]:
    """One PNG with a panel per Series, stacked; what could not be drawn as
    written (characters no installed font has), for the person to hear."""
    import warnings

    missing: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = figure(charts)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format="png", dpi=100)
    for w in caught:
        if "missing from font" in str(w.message) and str(w.message) not in missing:
            missing.append(str(w.message))
        elif "missing from font" not in str(w.message):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if missing:
        return [f"{len(missing)} character(s) in the names have no font on this computer and "
                "show as boxes: install one with them (e.g. Noto Sans CJK, fonts-noto-cjk)"]
    return []


def figure(charts: list[Series]):
    """The chart as a matplotlib Figure (Agg): a panel per Series, the legend
    beside the plot, every line a colour and dash of its own."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    installed = {f.name for f in font_manager.fontManager.ttflist}
    matplotlib.rcParams["font.family"] = [f for f in FONTS if f in installed] or ["sans-serif"]
    most = max(len(s.lines) for s in charts)
    columns = 1 + (most - 1) // 20  # a legend column per 20 names
    fig = Figure(figsize=(8 + 2.2 * columns, 3.2 * len(charts) + 0.12 * max(0, most - 20)),
                 layout="constrained")
    FigureCanvasAgg(fig)
    for ax, s in zip(fig.subplots(len(charts), 1, squeeze=False)[:, 0], charts):
        colours = matplotlib.colormaps["tab10" if len(s.lines) <= 10 else "tab20"]
        for k, (label, ys) in enumerate(s.lines.items()):
            look = {"color": colours(k % colours.N), "linestyle": STYLES[k // colours.N % 4],
                    "label": label}
            if s.steps:
                ax.step(s.x, ys, where="post", **look)
            else:
                ax.plot(s.x, ys, marker="o", **look)
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
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
                      ncol=1 + (len(s.lines) - 1) // 20, borderaxespad=0)
    return fig
