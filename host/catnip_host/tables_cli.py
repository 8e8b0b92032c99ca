"""`catnip tables`: every table this laptop has heard, with the key it
pinned at first sight (catnip_host.signatures) and any other key heard since."""

from __future__ import annotations

import time

import click

from catnip_host.cli_store import STORE_HELP, open_store


@click.command("tables")
@click.option("--store", "store_path", help=STORE_HELP)
def tables(store_path: str | None) -> None:
    """The tables heard, their keys' fingerprints, first and last seen.

    Each table signs its games with a key it made at its first power-up; the
    first key the laptop hears from a table is pinned, and `replay --verify`
    checks the table's games against it. Compare a fingerprint with the one
    the table shows (setup screen: hold OK on "About") to be sure it is the
    table's own. A key marked CHANGED was heard after the pinned one: the
    table's flash was erased, its Pico replaced, or another Pico speaks for it."""
    from catnip_host.signatures import Keys, LaptopPins, fingerprint

    store = open_store(store_path, create=False, readonly=True)
    keys = Keys(store).all()
    heard = store.tables()
    if not heard and not keys:
        click.echo("no table heard yet: `catnip monitor` hears one")
        return
    pinned: dict[str, str] = {}
    for uid, key, first, last in keys:
        mark = "pinned " if pinned.setdefault(uid, key) == key else "CHANGED"
        click.echo(f"{uid}  {mark}  {fingerprint(key)}  first seen {_when(first)}, "
                   f"last seen {_when(last)}")
    mine = LaptopPins().all()
    for uid, key in pinned.items():
        if mine.get(uid, key) != key:
            click.echo(f"{uid}  but this laptop pinned {fingerprint(mine[uid])}: the store's keys "
                       "were altered, or another table speaks for it")
    for uid in heard:
        if uid not in pinned:
            click.echo(f"{uid}  unsigned  (its firmware signs no games)")


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
