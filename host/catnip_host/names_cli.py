"""`catnip names`: the players' names sent to the table, one per station, so
the stations show them and the games carry them into the records."""

from __future__ import annotations

import click

from catnip import wire
from catnip_host.ports import PORT_HELP

HELLO_TRIES = 3
ANSWER_S = 3.0


def parse(given: tuple[str, ...]) -> list[str]:
    """Names as typed: one per station from the first, "-" for a station
    nobody is named at; a comma-separated list is the same."""
    names = [n.strip() for text in given for n in text.split(",")] if given else []
    return ["" if n == "-" else n for n in names]


@click.command("names")
@click.argument("names", nargs=-1)
@click.option("--clear", is_flag=True, help="name nobody: the stations show P1, P2, ...")
@click.option("--port", help=PORT_HELP)
def names(names: tuple[str, ...], clear: bool, port: str | None) -> None:
    """Name the players at the table, one NAME per station from station 1
    (`-` for a station nobody is named at): `catnip names Ana Bo - Dee`.

    The table keeps the names (a power cut does not lose them), its setup
    and game screens show the first five letters of each, and each game
    journals them, so they reach the records (a name given later with
    `catnip players name` still wins). Names are public. Refused, with the
    reason and nothing changed: more names than stations, a name over 12
    characters, characters a station cannot show (letters, digits, ASCII
    punctuation and spaces between them), or two names whose first five
    letters are alike."""
    from catnip_host.calibrate import Refused, Talk
    from catnip_host.ports import Disconnected, Link
    from catnip_host.ports import PortError

    if clear == bool(names):
        raise click.UsageError("give the names, one per station (catnip names Ana Bo - Dee), "
                               "or --clear to name nobody")
    wanted = [] if clear else parse(names)
    link = Link(port)
    try:
        link.open()
        talk = Talk(link)
        hello = None
        for _ in range(HELLO_TRIES):
            hello = talk.ask("hello", 1.0)
            if hello is not None:
                break
        if hello is None:
            raise click.ClickException("the table does not answer: is catnip running on it? "
                                       "(`catnip monitor` shows what it says)")
        stations = hello[1].get("stations")
        try:
            wire.check_names(wanted, stations if isinstance(stations, int) else len(wanted))
        except wire.WireError as e:
            raise click.ClickException(f"{e}; nothing was sent") from None
        got = talk.ask("names", ANSWER_S, names=wanted)
        if got is None:
            raise click.ClickException("the table did not answer: run catnip names again")
    except Refused as e:
        raise click.ClickException(f"the table refused: {e}") from None
    except PortError as e:
        raise click.ClickException(str(e)) from None
    except Disconnected as e:
        raise click.ClickException(f"the table went away ({e}): plug it in and send the "
                                   "names again") from None
    finally:
        link.close()
    told = got[1].get("names", [])
    if not told:
        click.echo("Nobody is named: the stations show P1, P2, ...")
    for k, name in enumerate(told):
        click.echo(f"Station {k + 1}: {name or '(no name: P' + str(k + 1) + ')'}")
