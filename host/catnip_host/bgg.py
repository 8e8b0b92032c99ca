"""Which BoardGameGeek entry each catnip game is, for the exports that BG Stats
and BGG match plays by.

BG Stats matches an imported game by its BGG id first, then by name; a wrong
id files the plays under another game, so catnip ships no id it cannot vouch
for (IDS below holds none yet) and leaves the field out when it does not know
one. A person who has found their game on boardgamegeek.com states its id
once, in the settings file:

    [bgg-ids]
    heist = 123456

or for one export with `catnip export --bgg-id heist=123456` (repeatable),
which wins over the file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import platformdirs

from catnip.rules import NAMES as GAMES
IDS: dict[str, int] = {}  # shipped, known-good ids (game -> BGG id); none vouched for yet


class SettingsError(ValueError):
    """A BGG id or settings file that cannot be used; the message says what to do."""


def settings_path() -> Path:
    return Path(platformdirs.user_config_dir("catnip", appauthor=False)) / "settings.toml"


def ids(overrides: tuple[str, ...] = (), path: Path | None = None) -> dict[str, int]:
    """game -> BGG id: the shipped table, then the settings file, then the
    GAME=ID overrides of this command."""
    found = dict(IDS)
    found.update(_from_file(path or settings_path()))
    for pair in overrides:
        game, sep, value = pair.partition("=")
        found[_game(game.strip(), pair)] = _id(value.strip(), pair) if sep else _bad(pair)
    return found


def _from_file(path: Path) -> dict[str, int]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise SettingsError(f"cannot read the settings file {path}: {e}") from None
    try:
        table = tomllib.loads(text).get("bgg-ids", {})
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"the settings file {path} is not TOML ({e}); fix it or move it "
                            "aside") from None
    if not isinstance(table, dict):
        raise SettingsError(f"in {path}, [bgg-ids] must be a table of game = id")
    where = f"{path} [bgg-ids]"
    return {_game(game, where): _id(value, f"{where} {game}") for game, value in table.items()}


def _game(game: str, where: str) -> str:
    if game not in GAMES:
        raise SettingsError(f"{where}: {game!r} is not a catnip game; the games are "
                            + ", ".join(GAMES))
    return game


def _id(value, where: str) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if type(value) is not int or not 0 < value < 2**31:
        raise SettingsError(f"{where}: a BGG id is the whole number in the game's "
                            "boardgamegeek.com/boardgame/ID address, e.g. heist=123456")
    return value


def _bad(pair: str):
    raise SettingsError(f"{pair!r} is not GAME=ID; write e.g. heist=123456")
