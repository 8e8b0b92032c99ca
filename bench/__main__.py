"""Run the bench modules and print each row as soon as it is measured, under
a line that says which module runs, how far along the bench is and how long
it has taken. `python -m bench [--full] [bench_x ...]`."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import resource
import sys
import time
import traceback
from collections.abc import Iterable

from rich.console import Console, JustifyMethod
from rich.table import Table

import bench

# Columns of a row: area, measure, value, unit; the note takes the rest.
WIDTHS = (18, 46, 10, 10)
JUSTIFY: tuple[JustifyMethod, ...] = ("left", "left", "right", "left")


def modules() -> list[str]:
    """Every bench module's name, in the order they run."""
    return sorted(m.name for m in pkgutil.iter_modules(bench.__path__)
                  if m.name.startswith("bench_"))


def chosen(names: Iterable[str], known: list[str]) -> list[str]:
    """The modules named (with or without the bench_ prefix), in run order;
    all of them when none is named. An unknown name is refused, naming the known."""
    wanted = {n if n.startswith("bench_") else f"bench_{n}" for n in names}
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SystemExit(f"no bench module {', '.join(unknown)}; the modules are: "
                         + ", ".join(known))
    return [m for m in known if not wanted or m in wanted]


def row_line(row: tuple) -> Table:
    """One row, laid out in the bench's columns (the note wraps on a terminal)."""
    line = Table.grid(padding=(0, 1))
    for width, justify in zip(WIDTHS, JUSTIFY, strict=True):
        line.add_column(width=width, justify=justify, overflow="fold")
    line.add_column(ratio=1, overflow="fold")
    area, measure, value, unit, note = row
    line.add_row(str(area), str(measure), fmt(value), str(unit), str(note))
    return line


def fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def clock(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def cpu() -> float:
    """CPU seconds this process and its finished children have used: on a
    machine shared with other work, the figure that says what the bench costs."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(names: list[str], console: Console) -> int:
    """Run `names` in turn, printing as it goes; the number of modules that failed."""
    mode = "full" if bench.full() else "default (the full bench: make bench-full)"
    console.print(f"[bold]catnip benchmarks[/bold]: {len(names)} modules, {mode}")
    began, began_cpu, failed = time.monotonic(), cpu(), []
    for i, name in enumerate(names, 1):
        console.rule(f"[{i}/{len(names)}] {name}  (bench at {clock(time.monotonic() - began)})",
                     align="left")
        start, start_cpu, count = time.monotonic(), cpu(), 0
        with console.status(f"{name}: measuring"):
            try:
                module = importlib.import_module(f"bench.{name}")
                for row in module.rows():
                    console.print(row_line(row))
                    count += 1
            except Exception:  # one module's failure is reported, the others still run
                failed.append(name)
                console.print(row_line((name, "failed", "error", "", traceback.format_exc())))
        console.print(f"[dim]{name}: {count} rows in {clock(time.monotonic() - start)} "
                      f"(CPU {clock(cpu() - start_cpu)})[/dim]")
    console.rule(f"done: {len(names)} modules in {clock(time.monotonic() - began)} "
                 f"(CPU {clock(cpu() - began_cpu)})"
                 + (f"; failed: {', '.join(failed)}" if failed else ""), align="left")
    return len(failed)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--full", action="store_true",
                        help="the full bench: the long runs a release measures")
    parser.add_argument("--list", action="store_true", help="name the modules and stop")
    parser.add_argument("module", nargs="*", help="run only these (bench_x or x)")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(modules()))
        return 0
    if args.full:
        os.environ[bench.FULL] = "1"  # before the modules are imported: they size by it
    names = chosen(args.module, modules())
    # Piped output (CI logs, a file) is laid out 180 columns wide, not 80.
    console = Console(width=None if sys.stdout.isatty() else 180)
    return 1 if run(names, console) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
