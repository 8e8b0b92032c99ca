"""`catnip serve` (its libraries load only when it runs: every other catnip
command starts as fast as before)."""

from __future__ import annotations

import click
from click.core import ParameterSource


def greeting(site, bind: str) -> str:
    """Who can reach what, said at start."""
    from catnip_host.serve.phones import UNAVAILABLE

    lines = [f"catnip serve: {site.url}/ shows the table live, {site.url}/sessions the "
             "evening's games. Ctrl-C stops."]
    if site.base is None:
        lines.append("Only this computer can open these pages. " + UNAVAILABLE)
    else:
        lines.append(f"Listening on {bind}: anyone on this network can open {site.base}/ and "
                     "see the table's public state and the stored games (never a hidden card).")
        code = site.seats.hosts.code
        lines.append(f"Phone seats: each is joined once, from {site.base}/join, by the code "
                     f"printed here when a game with phone seats begins; {site.base}/host, "
                     "opened on this computer, shows them too and releases a seat. A phone "
                     "holds only its own seat's screen.")
        lines.append(f"To show the seats' codes on a TV: open {site.base}/host on it and type "
                     f"the host code {code[:4]}-{code[4:]} (it works once; this computer's "
                     "host page shows the next one).")
    return "\n".join(lines)


@click.command("serve")
@click.option("--web-port", "http_port", type=click.IntRange(1, 65535), default=8000,
              show_default=True, help="the web server's port")
@click.option("--port", "old_port", type=click.IntRange(1, 65535), default=None, hidden=True,
              help="the web server's port, as --web-port (kept for old scripts; it warns)")
@click.option("--bind", default="127.0.0.1", show_default=True,
              help="the address to listen on: 127.0.0.1 is this computer only; 0.0.0.0 lets "
              "phones and a TV on your network in")
@click.option("--table", "table_port", help="the table's port or a pyserial URL (found by its "
              "USB ids if left out)")
@click.option("--store", "store_path", type=click.Path(dir_okay=False),
              help="the session store (default: sessions.sqlite3 in your user data folder)")
def serve(http_port: int, old_port: int | None, bind: str, table_port: str | None,
          store_path: str | None) -> None:
    """Show the table live in a browser, and the evening's games.

    Follows the table as `catnip monitor` does (and stores every frame the
    same way); the pages only read, and show only what the table made
    public. Phones and a TV can follow along with --bind 0.0.0.0."""
    from catnip_host.cli_store import open_store

    given = click.get_current_context().get_parameter_source("http_port")
    http_port = web_port(http_port if given != ParameterSource.DEFAULT else None, old_port)
    from catnip_host.serve.app import ServeError
    from catnip_host.serve.site import Site

    store = open_store(store_path)  # made or migrated here, with the monitor's messages
    path = store.path
    store.close()
    try:
        site = Site(table_port, path, bind, http_port, say=click.echo)
    except ServeError as e:
        raise click.ClickException(str(e)) from None
    click.echo(greeting(site, bind))
    try:
        site.server.run()
    except KeyboardInterrupt:
        pass  # uvicorn stops cleanly on Ctrl-C, then raises it again
    click.echo("catnip serve stopped")


def web_port(web: int | None, old: int | None) -> int:
    """The web server's port from --web-port, or the old --port (said to be
    the web port, unlike every other command's --port: the table's serial)."""
    if old is None:
        return web or 8000
    if web is not None and web != old:
        raise click.UsageError(f"--port {old} and --web-port {web} both name the web server's "
                               "port: give only --web-port (the table's port is --table)")
    click.echo(f"catnip serve: --port is the web server's port here, not the table's (that is "
               f"--table); say --web-port {old}, as --port will go", err=True)
    return old
