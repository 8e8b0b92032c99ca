"""Collect every bench module's rows and print them as one table."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from rich.console import Console
from rich.table import Table

import bench


def main(only: list[str]) -> None:
    table = Table(title="catnip benchmarks", show_lines=False)
    for column in ("area", "measure", "value", "unit", "note"):
        table.add_column(column, justify="right" if column == "value" else "left")
    # Piped output (CI logs, closing notes) gets a wide table, not 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 180)
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if not info.name.startswith("bench_") or (only and info.name not in only):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        with console.status(f"running {info.name}"):
            for area, measure, value, unit, note in module.rows():
                table.add_row(area, measure, _fmt(value), unit, note)
    console.print(table)


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


main(sys.argv[1:])
