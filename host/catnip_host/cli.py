"""The `catnip` command line."""

from __future__ import annotations

import click

from catnip_host import check_board


@click.group()
def main() -> None:
    """catnip: the laptop side of the table companion."""


@main.command()
def sim() -> None:
    """Start the virtual table: the real firmware with simulated hardware."""
    raise click.ClickException(
        "the virtual table is not built yet: the rules, drivers and simulated hardware "
        "(devsim/table.py) are in place, but the device app that runs a game on the "
        "stations is not. Until it lands, `make test` plays every game and drives every "
        "simulated part under both interpreters."
    )


main.add_command(check_board.main)
