# The rules of every game, as pure deterministic state machines.
# Modules are imported on demand: on the Pico each import costs RAM.

GAMES = {
    "heist": ("catnip.rules.heist", "Heist"),
    "stack": ("catnip.rules.stack", "Stack"),
    "purrfect": ("catnip.rules.purrfect", "Purrfect"),
}


def game_class(name):
    """The Game subclass registered under `name`."""
    try:
        module, cls = GAMES[name]
    except KeyError:
        raise ValueError(
            "unknown game %r; choose one of %s" % (name, ", ".join(sorted(GAMES)))
        )
    mod = __import__(module, None, None, [cls])
    return getattr(mod, cls)


def new(name, config=None, seed=None):
    return game_class(name)(config, seed)


def replay(record):
    from catnip.rules.engine import replay as _replay

    return _replay(game_class(record["game"]), record)
