# What a game is, as data: its titles, where its rules are, how many play it
# and the settings it takes, with their choices and defaults. Each game
# describes itself once, beside its rules (heist_about.py, stack_about.py,
# purrfect_about.py), and registers it with one line (catnip.rules); the
# game's settle() checks a config against it, the setup screen builds its
# rows from it and the laptop names a play and its variant from it. PURE:
# imports only catnip.rules and catnip.rules.vet.
#
# A description is a dict:
#   "title"    the game's name for people; "short" its name in a menu row
#   "module", "class"  where its rules are (a catnip.rules.engine.Game)
#   "players"  ranges {"when", "least", "most", "default", "why"}, the first
#              whose `when` holds applies; `why` says the range in words
#   "options"  the settings a player chooses on the setup screen, in order:
#              {"key", "label", "choices", "says" (each choice, on a station),
#              "names" (each choice in the records, "" for the plain game),
#              "apart" (each choice scores as a game of its own), "when"}.
#              The first choice is the default.
#   "table"    options the table keeps for itself, not settings of the
#              rules (the Clowder's name for the high scores); shaped alike
#   "settings" (key, default) of further settings the game's own settle()
#              checks; "start" among them is the first player's seat
#   "high_scores"  the game keeps a high-score table on the device
# A `when` is None (always) or (key, choices): it holds while that option
# applies and holds one of `choices`.
from catnip.rules import description as about  # noqa: F401  (a registered game's)
from catnip.rules.vet import RuleError, describe

NONE = ()


def option(game, key):
    """The option of `game` (a description) named `key`, or None."""
    for o in game["options"] + game.get("table", NONE):
        if o["key"] == key:
            return o
    return None


def holds(game, when, chosen):
    """Whether a `when` holds for these chosen settings (missing: defaults)."""
    if when is None:
        return True
    key, choices = when
    o = option(game, key)
    return applies(game, key, chosen) and _among(chosen.get(key, o["choices"][0]), choices)


def applies(game, key, chosen):
    """Whether the option `key` applies given the other settings chosen."""
    o = option(game, key)
    return o is not None and holds(game, o.get("when"), chosen)


def players(game, chosen):
    """(least, most, default, why) for these chosen settings."""
    for r in game["players"]:
        if holds(game, r["when"], chosen):
            return r["least"], r["most"], r["default"], r["why"]
    raise RuleError("no player count fits these settings")


def has_start(game):
    return any(key == "start" for key, _ in game["settings"])


def settle(game, config, title):
    """`config` checked against the description `game` and completed with
    its defaults: players first, then the options and the settings in the
    description's order. RuleError names an unknown setting, a choice not
    offered or a player count out of range; the game's own checks follow."""
    known = ["players"] + [o["key"] for o in game["options"]] + [k for k, _ in game["settings"]]
    for key in config:
        if key not in known:
            raise RuleError("unknown setting %s: %s has no setting %s; it takes %s"
                            % (describe(key), title, describe(key), ", ".join(known)))
    c = {}
    for o in game["options"]:
        key, choices = o["key"], o["choices"]
        value = config.get(key, choices[0])
        if not _among(value, choices):
            if choices == (False, True):
                raise RuleError("%s must be true or false; got %s" % (key, describe(value)))
            raise RuleError("%s must be one of %s; got %s"
                            % (key, ", ".join(str(v) for v in choices), describe(value)))
        c[key] = value
    least, most, default, why = players(game, c)
    n = check_number(config.get("players", default), "players", (least, most), why)
    settled = {"players": n}
    settled.update(c)
    for key, default in game["settings"]:
        settled[key] = config.get(key, default)
    if "start" in settled:
        check_number(settled["start"], "start", (0, n - 1),
                     "the first player's seat; players are numbered from 0")
    return settled


def check_number(value, what, limits, why):
    """`value` if it is a whole number within (low, high) `limits`; otherwise
    a RuleError naming `what` and `why` the limits are what they are."""
    low, high = limits
    if type(value) is not int:
        raise RuleError("%s must be a whole number; got %s (%s)" % (what, describe(value), why))
    if not low <= value <= high:
        span = "%d" % low if low == high else "from %d to %d" % (low, high)
        raise RuleError("%s must be %s (%s); got %d" % (what, span, why, value))
    return value


def _among(value, choices):
    """`value` is one of `choices`, of the same type (1 is not True)."""
    for c in choices:
        if type(c) is type(value) and c == value:
            return True
    return False
