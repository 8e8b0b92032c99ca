# The rules of every game, as pure deterministic state machines, and the
# registry of games. A game's rules are imported on demand (on the Pico each
# import costs RAM); its description (a small ABOUT) when it registers.
# PURE: may import only itself (the laptop imports it too).
from catnip.rules.vet import RuleError, describe

NAMES = []  # the games, in the setup screen's order
ABOUTS = {}  # name: the module holding the game's description (its ABOUT)
TITLES = {}  # name: its title, from its ABOUT
SHORT = {}  # name: its short title (a row of a station's menu), from its ABOUT


def register(name, module):
    """Make game `name` known: its ABOUT (catnip.rules.about) in `module`
    says its title, its rules' module and class, its players and settings."""
    d = __import__(module, None, None, ["ABOUT"]).ABOUT
    NAMES.append(name)
    ABOUTS[name] = module
    TITLES[name] = d["title"]
    SHORT[name] = d["short"]


# The registry: a game joins with a line here.
register("heist", "catnip.rules.heist_about")
register("stack", "catnip.rules.stack_about")
register("purrfect", "catnip.rules.purrfect_about")


def description(name):
    """The description (ABOUT) of the registered game `name`; RuleError if
    none is registered under it."""
    if not isinstance(name, str) or name not in ABOUTS:
        raise RuleError(
            "unknown game %s; choose one of %s" % (describe(name), ", ".join(sorted(NAMES)))
        )
    return __import__(ABOUTS[name], None, None, ["ABOUT"]).ABOUT


def game_class(name):
    """The Game subclass registered under `name`; RuleError if none is."""
    d = description(name)
    mod = __import__(d["module"], None, None, [d["class"]])
    return getattr(mod, d["class"])


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
