# Stack O' Cats settings and setup plan, checked once as a game starts; the
# play itself is in stack.py, the settings and their defaults are described
# in stack_about.py.
from catnip.rules.about import about, check_number, settle
from catnip.rules.engine import RuleError

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


BLACK = "black"
BASE_CATS = const(4)
MAX_CATS_PER_COLOUR = const(99)
MAX_COLOUR_NAME = const(12)  # a station's 21-character line holds the name and its count
MAX_CAT_GRAMS = const(1000)

# Cats pulled at random and removed from play once the base is built, by
# player count (the rulebook's setup tables).
_REMOVED = (0, 0, 0, 1, 0, 1, 0)


def settle_config(config):
    """Check a Stack O' Cats config against its description (stack_about),
    fill in defaults and return it."""
    c = settle(about("stack"), config, "Stack O' Cats")
    clowder = c["mode"] == "clowder"
    _check_colours(c["colours"])
    c["colours"] = list(c["colours"])
    check_number(c["per_colour"], "per_colour", (1, MAX_CATS_PER_COLOUR), "cats of each colour")
    check_number(c["black_cats"], "black_cats", (0, MAX_CATS_PER_COLOUR), "cats in the small bag")
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
