# What every door of the rules engine checks before a game sees the input:
# players, seeds, settings and actions. Input arrives from station menus, the
# serial line, files on flash and the laptop, so anything may come in; what
# passes here is small, exact (ints are ints, never floats or bools) and
# JSON-ready, and whatever is refused is named in the error.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


class RuleError(ValueError):
    """An action the rules forbid, or input no game can take. The message
    says what was wrong and what the player can do instead; the game state is
    unchanged."""


MAX_SEED = const(64)  # characters
MAX_WORD = const(32)  # characters in a word of an action or a setting
MAX_ITEMS = const(16)  # items in an action, its name included
MAX_LIST = const(16)  # items in a setting that is a list
MAX_SETTINGS = const(16)
MAX_INT = const(1 << 28)  # |n| below this: a small int on the Pico, and loggable


def describe(value):
    """A short, safe rendering of any value for an error message: scalars as
    they are (long text cut), containers by their kind only, so a deeply
    nested or huge input can never make the message itself fail."""
    if value is None or isinstance(value, (bool, int)):
        if isinstance(value, int) and not -MAX_INT < value < MAX_INT:
            return "a number beyond 2**28"
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) > MAX_WORD:
            return repr(value[:MAX_WORD]) + "..."
        return repr(value)
    return "a value of type %s" % type(value).__name__


def whole(value):
    """True for an exact int (not a bool, not a float) a game can log."""
    return type(value) is int and -MAX_INT < value < MAX_INT


def check_seed(seed):
    if (not isinstance(seed, str) or not 0 < len(seed) <= MAX_SEED
            or not all(" " <= ch <= "~" for ch in seed)):
        raise RuleError("the seed must be text of 1 to %d printable ASCII characters "
                        "(leave it out for a random one), not %s" % (MAX_SEED, describe(seed)))
    return seed


def settings(config):
    """A fresh copy of a game's settings, each value a JSON-ready scalar or a
    short list of them; RuleError naming the first that is not."""
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise RuleError("the settings are a dict such as {'players': 4}, not %s"
                        % describe(config))
    if len(config) > MAX_SETTINGS:
        raise RuleError("%d settings given; no game takes more than %d"
                        % (len(config), MAX_SETTINGS))
    out = {}
    for key, value in config.items():
        if not isinstance(key, str) or not 0 < len(key) <= MAX_WORD:
            raise RuleError("a setting is named by a word, not %s" % describe(key))
        if isinstance(value, (list, tuple)):
            if len(value) > MAX_LIST:
                raise RuleError("setting %r lists %d items; at most %d"
                                % (key, len(value), MAX_LIST))
            for item in value:
                _scalar(key, item)
            value = list(value)
        else:
            _scalar(key, value)
        out[key] = value
    return out


def _scalar(key, value):
    if value is None or isinstance(value, bool) or whole(value):
        return
    if isinstance(value, str) and len(value) <= MAX_WORD:
        return
    if isinstance(value, float) and -MAX_INT < value < MAX_INT:  # not inf, not nan
        return
    raise RuleError("setting %r cannot be %s: settings are true/false, whole numbers, "
                    "finite numbers below 2**28 or words of up to %d characters"
                    % (key, describe(value), MAX_WORD))


def action_tuple(action, example):
    """`action` as a tuple if it is shaped like one: a name, then words and
    whole numbers. RuleError otherwise, showing the game's `example`."""
    # Every action a table or a check replays is a plain list or tuple of
    # plain words and ints: those pass here, at a third less than the
    # general path (subclasses too), which also says what is wrong.
    kind = type(action)
    if (kind is list or kind is tuple) and 0 < len(action) <= MAX_ITEMS and \
            type(action[0]) is str:
        for item in action:  # the name too, a word: one loop with no indexing
            t = type(item)
            if t is int:  # whole(), inlined
                if -MAX_INT < item < MAX_INT:
                    continue
            elif t is str and len(item) <= MAX_WORD:
                continue
            break
        else:
            return action if kind is tuple else tuple(action)
    return _shaped(action, example)


def _shaped(action, example):
    # action_tuple() for any action: subclasses of its types pass; what
    # does not is named.
    if not isinstance(action, (tuple, list)):
        raise RuleError("an action is a tuple that starts with its name, e.g. %s, not %s"
                        % (example, describe(action)))
    if not action or not isinstance(action[0], str) or len(action[0]) > MAX_WORD:
        raise RuleError("an action starts with its name, e.g. %s, not %s"
                        % (example, "nothing" if not action else describe(action[0])))
    if len(action) > MAX_ITEMS:
        raise RuleError("an action has at most %d items, not %d" % (MAX_ITEMS, len(action)))
    for i, item in enumerate(action):
        if not (whole(item) or isinstance(item, str) and len(item) <= MAX_WORD):
            raise RuleError("%r: item %d is %s, but an action holds words and whole numbers "
                            "only, e.g. %s" % (action[0], i, describe(item), example))
    return tuple(action)


def check_correct(player, action, last, corrects):
    """May `player` take back their last result with `action` ('correct',)?
    `last` is the player whose result may be corrected, else None;
    `corrects` says what the game can correct. RuleError if not."""
    if len(action) != 1:
        raise RuleError("('correct',) takes nothing else: it takes back your last result "
                        "so you can report it again")
    if last is None:
        raise RuleError("nothing to correct: %s" % corrects)
    if last != player:
        raise RuleError("only player %d can correct their last result, until anyone "
                        "acts next" % last)
