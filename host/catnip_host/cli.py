"""The `catnip` command line."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """catnip: the laptop side of the table companion."""


@main.command()
def sim() -> None:
    """Start the virtual table: the real firmware with simulated hardware."""
    raise click.ClickException(
        "the virtual table is not built yet: it needs the station drivers and the "
        "device app. Until then, `make test` exercises the rules under both interpreters."
    )
