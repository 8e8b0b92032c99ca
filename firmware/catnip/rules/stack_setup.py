# Stack O' Cats settings and setup plan, checked once as a game starts; the
# play itself is in stack.py. The component counts are not published: the
# defaults (32 colourful cats, 8 black) are the counts for which the
# rulebook's removal table gives every player count the same number of
# turns (docs/stack.md).
from catnip.rules.engine import RuleError

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


BLACK = "black"
BASE_CATS = const(4)
MAX_PLAYERS = const(6)  # the setup tables stop at 6
MAX_CLOWDER = const(8)  # the Clowder names no limit; 8 keeps turns coming round
MAX_CATS_PER_COLOUR = const(99)
MAX_COLOUR_NAME = const(12)  # a station's 21-character line holds the name and its count
MAX_CAT_GRAMS = const(1000)

# Cats pulled at random and removed from play once the base is built, by
# player count (the rulebook's setup tables).
_REMOVED = (0, 0, 0, 1, 0, 1, 0)

DEFAULTS = {
    "mode": "composure",        # composure | patient | clowder
    "black_cat": False,         # the Black Cat variant (composure or patient)
    "black_touch": "each",      # each | once: 2 points per black cat touched, or once
    "draw": "digital",          # digital: the engine draws; physical: report the draw
    "start": 0,                 # the player who goes first
    "colours": ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"],
    "per_colour": 4,            # cats of each colour
    "black_cats": 8,            # black cats (the small bag)
    "table_colour": None,       # Clowder: the colour set out with the black cats
    "cat_grams": 6,             # mass of one cat, for showing weights in grams
}

_CHOICES = {
    "mode": ("composure", "patient", "clowder"),
    "black_touch": ("each", "once"),
    "draw": ("digital", "physical"),
}


def settle_config(config):
    """Check a Stack O' Cats config, fill in defaults and return it."""
    known = ["players"] + list(DEFAULTS)
    for key in config:
        if key not in known:
            raise RuleError("unknown setting %r; Stack O' Cats knows %s" % (key, ", ".join(known)))
    c = {}
    for key in known[1:]:
        c[key] = config.get(key, DEFAULTS[key])
    for key, options in _CHOICES.items():
        if c[key] not in options:
            raise RuleError("%s must be one of %s; got %r" % (key, ", ".join(options), c[key]))
    clowder = c["mode"] == "clowder"
    least, most = (1, MAX_CLOWDER) if clowder else (2, MAX_PLAYERS)
    players = config.get("players", least)
    if clowder:
        why = "the Clowder Collaboration is for 1 to %d players" % most
    else:
        why = "%s is for 2 to %d players; alone, play the Clowder Collaboration" % (
            c["mode"], most)
    check_number(players, "players", (least, most), why)
    settled = {"players": players}
    settled.update(c)
    c = settled
    check_number(c["start"], "start", (0, players - 1), "players are numbered from 0")
    _check_colours(c["colours"])
    c["colours"] = list(c["colours"])
    check_number(c["per_colour"], "per_colour", (1, MAX_CATS_PER_COLOUR), "cats of each colour")
    check_number(c["black_cats"], "black_cats", (0, MAX_CATS_PER_COLOUR), "cats in the small bag")
    if type(c["black_cat"]) is not bool:
        raise RuleError("black_cat must be true or false; got %r" % (c["black_cat"],))
    if c["black_cat"] and clowder:
        raise RuleError("the Black Cat variant plays on composure or patient, not clowder")
    if c["black_cat"] and not c["black_cats"]:
        raise RuleError("the Black Cat variant needs black cats; set black_cats above 0")
    if clowder and c["table_colour"] is None:
        c["table_colour"] = c["colours"][0]
    if clowder and c["table_colour"] not in c["colours"]:
        raise RuleError("table_colour must be one of %s; got %r"
                        % (", ".join(c["colours"]), c["table_colour"]))
    if not clowder and c["table_colour"] is not None:
        raise RuleError("table_colour is a clowder setting; leave it out for %s" % c["mode"])
    grams = c["cat_grams"]
    if type(grams) not in (int, float) or not 0 < grams <= MAX_CAT_GRAMS:
        raise RuleError("cat_grams must be a number of grams above 0 and up to %d; got %r"
                        % (MAX_CAT_GRAMS, grams))
    _check_supply(c)
    return c


def setup_steps(c):
    """The setup in the rulebook's order. 'join' moves the black cats into
    the bag; 'table' sets out the Clowder's table cats; 'base' and 'out' take
    one cat from the bag (at random, or as reported); 'out_nonblack' is the
    Black Cat variant's five-player cat left out, never a black one."""
    if c["mode"] == "clowder":
        return ["table"] + ["base"] * BASE_CATS
    if c["black_cat"]:
        out = ["out_nonblack"] if c["players"] == 5 else []
        return ["join"] + out + ["base"] * BASE_CATS
    steps = ["base"] * BASE_CATS
    if c["players"] >= 5:
        steps.append("join")
    return steps + ["out"] * _REMOVED[c["players"]]


def _check_supply(c):
    """Refuse settings whose bag cannot supply the setup and one turn."""
    regular = len(c["colours"]) * c["per_colour"]
    black = 0
    for step in setup_steps(c):
        if step == "join":
            black = c["black_cats"]
        elif step == "table":
            regular -= c["per_colour"]
        elif step == "out_nonblack" and not regular:
            raise RuleError("the Black Cat variant needs a non-black cat to leave out")
        elif regular + black:
            # Only 'out_nonblack' cares which kind leaves, and it comes first.
            if regular:
                regular -= 1
            else:
                black -= 1
        else:
            raise RuleError("the bag runs out during setup; add colours or cats per colour")
    if not regular + black:
        raise RuleError("the setup empties the bag, leaving no turn to play; "
                        "add colours or cats per colour")


def _check_colours(colours):
    if not isinstance(colours, (list, tuple)) or not colours:
        raise RuleError("colours must be a list of colour names; got %r" % (colours,))
    for name in colours:
        if (not isinstance(name, str) or not 0 < len(name) <= MAX_COLOUR_NAME
                or name.strip() != name or not all(" " <= ch <= "~" for ch in name)):
            raise RuleError("every colour needs a name of 1 to %d letters the stations can "
                            "show (plain ASCII); got %r" % (MAX_COLOUR_NAME, name))
    if BLACK in colours:
        raise RuleError("black cats are set by black_cats; leave black out of colours")
    if len(set(colours)) != len(colours):
        raise RuleError("colour names must differ; got %s" % ", ".join(colours))


def check_number(value, what, limits, why):
    """`value` if it is a whole number within (low, high) `limits`; otherwise
    a RuleError naming `what` and `why` the limits are what they are."""
    low, high = limits
    if type(value) is not int:
        raise RuleError("%s must be a whole number; got %r" % (what, value))
    if not low <= value <= high:
        span = "%d" % low if low == high else "from %d to %d" % (low, high)
        raise RuleError("%s must be %s (%s); got %d" % (what, span, why, value))
    return value
