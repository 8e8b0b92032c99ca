# The rules of every game, as pure deterministic state machines.
# Modules are imported on demand: on the Pico each import costs RAM.
# PURE: may import only itself (the laptop imports it too).
from catnip.rules.vet import RuleError, describe

NAMES = ("heist", "stack", "purrfect")  # in the setup screen's order
GAMES = {
    "heist": ("catnip.rules.heist", "Heist"),
    "stack": ("catnip.rules.stack", "Stack"),
    "purrfect": ("catnip.rules.purrfect", "Purrfect"),
}
TITLES = {"heist": "Meow Heist", "stack": "Stack O' Cats", "purrfect": "Purrfect"}


def game_class(name):
    """The Game subclass registered under `name`; RuleError if none is."""
    if not isinstance(name, str) or name not in GAMES:
        raise RuleError(
            "unknown game %s; choose one of %s" % (describe(name), ", ".join(sorted(GAMES)))
        )
    module, cls = GAMES[name]
    mod = __import__(module, None, None, [cls])
    return getattr(mod, cls)


def new(name, config=None, seed=None):
    """A new game of `name` with these settings; the seed defaults to 128
    random bits. RuleError names a bad name, setting or seed."""
    return game_class(name)(config, seed)


def replay(record):
    """The game a record or journal describes, rebuilt action by action;
    RuleError names whatever is wrong with the record."""
    from catnip.rules.engine import record_field, replay as _replay

    return _replay(game_class(record_field(record, "game")), record)


def rebuild(header, moves=()):
    """The game a journal's header begins (the same seed and salt, so its
    commitment is the one the table announced), with `moves` ((player,
    action) pairs, in order) played again; RuleError names a move refused."""
    game = game_class(header["game"])(header["config"], header["seed"], header["salt"])
    for player, action in moves:
        game.act(player, action)
    return game
