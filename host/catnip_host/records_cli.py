"""The record keeper's commands: catnip export, players, stats and chart."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from catnip import rules
from catnip_host import records
from catnip_host.cli_store import STORE_HELP, open_store
from catnip_host.store import StoreError



class _Day(click.DateTime):
    """A day as YYYY-MM-DD, and said so in --help."""

    def __init__(self) -> None:
        super().__init__(formats=["%Y-%m-%d"])

    def get_metavar(self, *args, **kwargs) -> str:
        return "YYYY-MM-DD"

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not a day: write it as YYYY-MM-DD, e.g. 2026-12-01",
                      param, ctx)


DATE = _Day()


def selecting(command):
    """The options every command that reads plays shares."""
    options = [
        click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP),
        click.option("--session", "sessions", type=int, multiple=True,
                     help="only this session's games (repeat for several; "
                     "`catnip sessions list` shows them)"),
        click.option("--since", type=DATE, help="only games begun on or after this day"),
        click.option("--until", type=DATE, help="only games begun on or before this day"),
        click.option("--game", type=click.Choice(list(rules.NAMES)),
                     help="only this game (" + ", ".join(
                         f"{name}: {rules.TITLES[name]}" for name in rules.NAMES) + ")"),
        click.option("--player", help="only games this person played (a name from "
                     "`catnip players list`)"),
    ]

    @functools.wraps(command)
    def run(store_path, sessions, since, until, game, player, **rest):
        store = open_store(store_path, create=False)
        try:
            keep = _filter(store, sessions, since, until, game, player)
            loaded = records.load(store, keep)
        except StoreError as e:
            raise click.ClickException(str(e)) from e
        records.warn_about(loaded, lambda text: click.echo(text, err=True))
        return command(store=store, loaded=loaded, keep=keep, **rest)

    for option in reversed(options):
        run = option(run)
    return run


def _filter(store, sessions, since, until, game, player) -> records.Filter:
    from catnip_host import players

    for s in sessions:
        store.info(s)  # names the sessions there are
    if since and until and since > until:
        raise click.BadParameter(f"--since {since:%Y-%m-%d} is after --until {until:%Y-%m-%d}",
                                 param_hint="--since/--until")
    if player is not None:
        known = players.known(store)
        player = players.load(store).canonical(player.strip())
        if player not in known:
            raise click.BadParameter(f"nobody is called {player!r}; the names are "
                                     + (", ".join(sorted(known)) or "none yet"),
                                     param_hint="--player")
    return records.Filter(tuple(sessions), since and since.date(), until and until.date(),
                          game, player)


def _none_match(keep: records.Filter) -> click.ClickException:
    said = [f"session {', '.join(map(str, keep.sessions))}" if keep.sessions else "",
            f"since {keep.since}" if keep.since else "",
            f"until {keep.until}" if keep.until else "",
            keep.game or "", f"with {keep.player}" if keep.player else ""]
    what = " ".join(w for w in said if w)
    return click.ClickException("no finished games in the store" + (f" match: {what}" if what
                                                                     else " yet"))


@click.command()
@selecting
@click.option("--format", "fmt", type=click.Choice(["jsonl", "bgstats", "bgstats-link", "csv"]),
              default="jsonl", show_default=True,
              help="jsonl: a whole game per line (header, seed, actions, public events, result; "
              "abandoned games too); bgstats: the BG Stats app's import file (save it as "
              "NAME.bgsplay); bgstats-link: BG Stats' link that opens one game in the app "
              "(pick it with --session and --gid); csv: BGG-style play fields (date, game, "
              "variant, length, players, scores, winners)")
@click.option("--gid", type=int, help="only this game of the session (its number in "
              "`catnip sessions list`)")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="write here instead of to standard output")
@click.option("--location", default="catnip table", show_default=True,
              help="the location the BG Stats plays are filed under")
@click.option("--bgg-id", "bgg_ids", multiple=True, metavar="GAME=ID",
              help="the game's BoardGameGeek id (the number in its boardgamegeek.com "
              "address), e.g. --bgg-id heist=123456; repeatable; wins over the settings file")
@click.option("--settings", "settings", type=click.Path(dir_okay=False, path_type=Path),
              help="the settings file whose [bgg-ids] table names each game's BGG id  "
              "[default: settings.toml in your user config folder]")
@click.option("--bom", is_flag=True, help="csv: begin with a UTF-8 byte order mark, so "
              "spreadsheets that guess the encoding read names such as Zoë right")
def export(store, loaded, keep, fmt: str, gid: int | None, output: Path | None, location: str,
           bgg_ids: tuple[str, ...], settings: Path | None, bom: bool) -> None:
    """Export the stored games: one session (--session), a date range
    (--since/--until) or everything, with the players' names, as UTF-8
    whatever the console's encoding.

    Each game is rebuilt from its revealed seed and moves by the rules, so
    scores and winners are the rules' own. Games still in play or not pulled
    from the table yet are left out (and counted on standard error)."""
    from catnip_host import bgg
    from catnip_host import export as formats

    if bom and fmt != "csv":
        raise click.UsageError("--bom is for --format csv: JSON readers refuse a byte order mark")
    try:
        ids = bgg.ids(bgg_ids, settings)
    except bgg.SettingsError as e:
        raise click.BadParameter(str(e), param_hint="--bgg-id/--settings") from e
    plays = loaded.plays if fmt == "jsonl" else [p for p in loaded.plays if p.finished]
    plays = [p for p in plays if gid is None or p.gid == gid]
    if not plays:
        raise _none_match(keep)
    if fmt == "bgstats-link" and len(plays) != 1:
        raise click.UsageError(f"a BG Stats link carries one game and {len(plays)} match: pick "
                               "one with --session N --gid G (`catnip sessions list`)")
    unknown = sorted({p.game for p in plays if p.name not in ids})
    if fmt.startswith("bgstats") and unknown:
        click.echo("no BGG id for " + ", ".join(unknown) + ": BG Stats will ask which game it "
                   "is (--bgg-id GAME=ID or the settings file tell it)", err=True)
    if output is None:
        sys.stdout.flush()
        formats.write(fmt, plays, sys.stdout.buffer, location, ids, bom)
        sys.stdout.buffer.flush()
        return
    try:
        with output.open("wb") as out:
            formats.write(fmt, plays, out, location, ids, bom)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror}") from e
    click.echo(f"{len(plays)} game(s) written to {output}", err=True)
    if fmt == "bgstats" and output.suffix != ".bgsplay":
        click.echo(f"BG Stats opens files named .bgsplay: rename it {output.stem}.bgsplay to "
                   "open it there", err=True)


@click.command()
@selecting
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON, for a script")
def stats(store, loaded, keep, as_json: bool) -> None:
    """Per player and game: plays, wins, win rate, average and best score,
    and the Clowder's high scores (Stack O' Cats' Colonnade of Competent
    Clowders).

    Stack O' Cats' modes count as games of their own (Patient Paws: fewest
    points wins); the Clowder plays as one team and has no winner."""
    from rich.console import Console

    from catnip_host import stats as tally

    plays = [p for p in loaded.plays if p.finished]
    if not plays:
        raise _none_match(keep)
    days = [p.date for p in plays if p.date is not None]
    found, board = tally.lines(plays, keep.player), tally.clowder_high_scores(plays)
    if as_json:
        click.echo(json.dumps(tally.as_json(found, board, len(plays), days), indent=1))
        return
    title = f"{len(plays)} game(s)" + (f", {min(days):%Y-%m-%d} to {max(days):%Y-%m-%d}"
                                       if days else "")
    Console().print(tally.render(found, board, title))


@click.command()
@click.argument("kind", type=click.Choice(["scores", "wins", "tower"]))
@selecting
@click.option("--gid", type=int, help="scores, tower: only this game of the session (its "
              "number in `catnip sessions list`)")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="the PNG to write  [default: catnip-KIND.png here]")
@click.option("--open", "show", is_flag=True, help="open the PNG once written")
def chart(store, loaded, keep, kind: str, gid: int | None, output: Path | None,
          show: bool) -> None:
    """Draw a chart as a PNG.

    \b
    scores  every player's score by round (by turn in Stack O' Cats),
            a panel per game of one --session
    wins    every player's wins so far, game by game (any selection)
    tower   Stack O' Cats: cats standing in the tower after each turn,
            a panel per game of one --session"""
    from catnip_host import charts

    plays = [p for p in loaded.plays if p.finished]
    if kind != "wins":
        plays = [p for p in plays if gid is None or p.gid == gid]
        if len(keep.sessions) != 1:
            raise click.UsageError(f"the {kind} chart is of one session: add --session N")
        if kind == "tower":
            others = sorted({p.game for p in plays if p.name != "stack"})
            plays = [p for p in plays if p.name == "stack"]
            if not plays and others:
                raise click.ClickException(
                    f"session {keep.sessions[0]}{'' if gid is None else f' game {gid}'} has no "
                    f"Stack O' Cats game (it played {', '.join(others)}); the tower chart is "
                    "for Stack O' Cats: `catnip sessions list` shows the sessions")
    if not plays:
        raise _none_match(keep)
    if kind == "wins":
        series = [charts.wins_over_time(plays)]
    else:
        one = charts.scores_by_round if kind == "scores" else charts.tower_by_turn
        series = [one(p) for p in plays]
    path = output or Path(f"catnip-{kind}.png")
    try:
        notes = charts.draw(series, path)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror}") from e
    for note in notes:
        click.echo(note, err=True)
    click.echo(f"wrote {path}")
    if show:
        click.launch(str(path))


@click.group()
def players() -> None:
    """Name the seats of each session (P1, P2, ...) and merge names that are
    one person. Every export, stat and chart uses these names; a seat never
    named is "S3 P1" (session 3's P1)."""


@players.command("list")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
@click.option("--json", "as_json", is_flag=True, help="print the seats and merges as JSON")
def players_list(store_path: str | None, as_json: bool) -> None:
    """Every session's seats with their names, and the merged names."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from catnip_host import players as seating

    store = open_store(store_path, create=False)
    if not store.sessions() and not as_json:
        click.echo(f"no sessions in {store.path} yet: `catnip monitor` records them")
        return
    names = seating.load(store)
    rows = [(session, seat, names.of(session, seat), names.seats.get((session, seat)))
            for session, seats in seating.seated(store) for seat in range(seats)]
    if as_json:
        click.echo(json.dumps({
            "seats": [{"session": session, "seat": f"P{seat + 1}", "name": shown,
                       "named_as": given if given and given != shown else None}
                      for session, seat, shown, given in rows],
            "merged": [{"name": alias, "into": name}
                       for alias, name in sorted(names.aliases.items())]}, indent=1))
        return
    t = Table("session", "seat", "name", "named as")
    for session, seat, shown, given in rows:  # names: never markup
        t.add_row(str(session), f"P{seat + 1}", Text(shown),
                  Text(given if given and given != shown else ""))
    console = Console()
    console.print(t)
    if names.aliases:
        m = Table("name", "merged into")
        for alias, name in sorted(names.aliases.items()):
            m.add_row(Text(alias), Text(name))
        console.print(m)


@players.command("name")
@click.argument("session", type=int)
@click.argument("pairs", nargs=-1, required=True, metavar="SEAT=NAME...")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def players_name(session: int, pairs: tuple[str, ...], store_path: str | None) -> None:
    """Name seats of one SESSION: catnip players name 3 P1=Alice P2=Bob.

    Naming a seat again replaces its name. Names are up to 40 characters,
    without semicolons, quotes or '='."""
    from catnip_host import players as seating

    store = open_store(store_path, create=False)
    try:
        named = seating.name_seats(store, session, list(pairs))
    except (StoreError, seating.PlayerError) as e:
        raise click.ClickException(str(e)) from e
    for seat, name in sorted(named.items()):
        click.echo(f"session {session} P{seat + 1}: {name}")


@players.command("merge")
@click.argument("name")
@click.argument("into")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def players_merge(name: str, into: str, store_path: str | None) -> None:
    """Count NAME as INTO everywhere (one person under two names, or an
    unnamed seat such as "S3 P1"): catnip players merge Ali Alice."""
    from catnip_host import players as seating

    store = open_store(store_path, create=False)
    try:
        seating.merge(store, name, into)
    except seating.PlayerError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"{name} is now counted as {seating.load(store).canonical(into)}")


@players.command("unmerge")
@click.argument("name")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def players_unmerge(name: str, store_path: str | None) -> None:
    """Count NAME as itself again, undoing `catnip players merge`."""
    from catnip_host import players as seating

    store = open_store(store_path, create=False)
    try:
        was = seating.unmerge(store, name)
    except seating.PlayerError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"{name} is no longer counted as {was}")


@click.command("date")
@click.argument("session", type=int)
@click.argument("gid", type=int)
@click.argument("when", metavar="'YYYY-MM-DD [HH:MM]'")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def sessions_date(session: int, gid: int, when: str, store_path: str | None) -> None:
    """Say when game GID of SESSION began (local time), for a game the table
    could not date (no clock module, and no laptop listened):
    catnip sessions date 3 2 '2026-11-28 19:30'. Its length, when the table
    timed it, is kept; saying it again replaces the date."""
    import datetime as dt

    store = open_store(store_path, create=False)
    try:
        store.info(session)  # names the sessions there are
        plays = records.load(store, records.Filter(sessions=(session,))).plays
    except StoreError as e:
        raise click.ClickException(str(e)) from e
    play = next((p for p in plays if p.gid == gid), None)
    if play is None:
        have = ", ".join(str(p.gid) for p in plays) or "none pulled yet"
        raise click.ClickException(f"session {session} has no pulled game {gid} (its games: "
                                   f"{have}; `catnip sessions list` shows them)")
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            at = dt.datetime.strptime(when.strip(), fmt).astimezone()
            break
        except ValueError:
            continue
    else:
        raise click.BadParameter(f"{when!r} is not a date: write YYYY-MM-DD or "
                                 "'YYYY-MM-DD HH:MM', e.g. '2026-11-28 19:30'", param_hint="WHEN")
    if at > dt.datetime.now().astimezone():
        raise click.BadParameter(f"{at:%Y-%m-%d %H:%M} is still to come", param_hint="WHEN")
    store.db.execute("INSERT OR REPLACE INTO game_dates (uid, gid, seed_commit, began) "
                     "VALUES (?, ?, ?, ?)", (play.table, gid, play.record["seed_commit"],
                                             at.timestamp()))
    was = "unknown" if play.date is None else f"{play.date:%Y-%m-%d %H:%M} " + {
        "person": "as given before", "live": "as the laptop heard it",
        "table": "by the table's clock", "uptime": "by the table's ticks at its pull",
        "approximate": "approximate: its pull's"}[play.dated]
    click.echo(f"game {gid} of session {session} began {at:%Y-%m-%d %H:%M} (was {was})")


COMMANDS = (export, stats, chart, players)
SESSION_COMMANDS = (sessions_date,)  # `catnip sessions date`
