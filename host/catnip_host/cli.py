"""The `catnip` command line."""

from __future__ import annotations

from pathlib import Path

import click

from catnip_host import check_board


@click.group()
def main() -> None:
    """catnip: the laptop side of the table companion."""


@main.command()
@click.option("--board", default=None, help="A shipped board (direct: 4 stations, mux: 8) or a "
              "board.json path.  [default: direct, or the scenario's]")
@click.option("--stations", type=click.IntRange(1, 8), default=None,
              help="Use only the board's first N stations.")
@click.option("--journal", type=click.Path(file_okay=False, path_type=Path), default=None,
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
              help="With --headless: save the scenario's snap steps as PNGs here.")
def sim(board: str | None, stations: int | None, journal: Path | None, seed: str | None,
        script: Path | None, headless: bool, snapshots: Path | None) -> None:
    """Start the virtual table: the real firmware with simulated hardware."""
    from catnip_host import sim as virtual

    try:
        if headless:
            if script is None:
                raise click.UsageError("--headless plays a scenario: "
                                       "catnip sim --script FILE --headless")
            outcome = virtual.run_script(script, board, journal, seed, snapshots, stations)
            click.echo(virtual.report(outcome))
            raise SystemExit(outcome.status)
        virtual.interactive(board, journal, seed, stations, script)
    except virtual.SimError as e:
        raise click.ClickException(str(e)) from None


main.add_command(check_board.main)
