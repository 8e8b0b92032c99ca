# The contract every game keeps, and the machinery they share.
#
# A game is a deterministic state machine: state = fold(config, seed, log).
# Subclasses describe one game; this base class owns the log, the seed and its
# commitment, replay and the checks every action passes through.
#
# Information flows out only through two doors: public() (safe for every
# screen, the serial line and the laptop) and view(player) (safe for that
# player's own station). Events returned by act() are public too. The seed and
# the full log leave the game only through record(), which refuses until the
# game is over.
from catnip.rules.log import Log
from catnip.rules.rng import Rng, commit, new_seed


class RuleError(ValueError):
    """An action the rules forbid. The message says what was wrong and what
    the player can do instead; the game state is unchanged."""


class Game:
    # Registry name ("heist", "stack", "purrfect"); set by each subclass.
    NAME = ""

    def __init__(self, config=None, seed=None):
        self.config = self.settle(dict(config or {}))
        self.seed = seed if seed is not None else new_seed()
        self.seed_commit = commit(self.seed)
        self.rng = Rng(self.seed)
        self.log = Log()
        self.setup()

    # ---- what a subclass provides --------------------------------------

    def settle(self, config):
        """Validate a config dict, fill defaults, return it (RuleError if bad)."""
        return config

    def setup(self):
        """Build the initial state from self.config and self.rng."""

    def to_act(self):
        """Players who may act now (several in simultaneous phases)."""
        return []

    def legal(self, player):
        """Every action `player` may take now, as tuples."""
        return []

    def apply(self, player, action):
        """Carry out an action already known to come from a player in
        to_act(). Validate fully before changing anything; raise RuleError to
        refuse. Return the list of public events (dicts) it caused."""
        raise RuleError("this game takes no actions")

    def public(self):
        """Everything every player may see, as a JSON-ready dict."""
        return {}

    def private(self, player):
        """What only `player` may see, as a JSON-ready dict."""
        return {}

    def result(self):
        """None while the game runs; afterwards a JSON-ready dict with
        'ranks' (player -> 1-based rank) and the reasons for tie-breaks."""
        return None

    # ---- shared machinery ------------------------------------------------

    def act(self, player, action):
        if not isinstance(action, (tuple, list)):
            raise RuleError("an action is a tuple that starts with its name, e.g. ('play', 3)")
        action = tuple(action)
        if self.result() is not None:
            raise RuleError("the game is over; start a new one")
        if player not in self.to_act():
            raise RuleError(
                "player %s cannot act now; waiting for %s"
                % (player, _names(self.to_act()))
            )
        if not action or not isinstance(action[0], str):
            raise RuleError("an action starts with its name, e.g. ('play', 3)")
        events = self.apply(player, action)
        # A game validates its own items, so every accepted action is loggable.
        self.log.append((player, action))
        return events

    def view(self, player):
        """What `player`'s own station may show: public plus their secrets."""
        if not 0 <= player < self.players():
            raise RuleError("no player %s in a %d-player game" % (player, self.players()))
        v = self.public()
        v["you"] = player
        v.update(self.private(player))
        return v

    def players(self):
        return self.config["players"]

    def header(self):
        """The public start of a game's log: what was played and the seed's
        commitment, never the seed."""
        return {
            "game": self.NAME,
            "config": self.config,
            "seed_commit": self.seed_commit,
        }

    def record(self):
        """The whole game (header, seed, log) once it is over, for replay
        and verification by anyone."""
        if self.result() is None:
            raise RuleError("the log and seed stay secret until the game ends")
        return self.journal()

    def journal(self):
        """The whole game, secrets included. Only for the device's own flash
        journal; never send it anywhere before the game ends."""
        r = self.header()
        r["seed"] = self.seed
        r["log"] = self.log.pack()
        return r

    def state(self):
        """Full internal state (secrets included) for equality checks. The
        containers are copied, so a state taken before an action still shows
        the old values afterwards (keep game state in plain containers)."""
        d = {}
        for k, v in self.__dict__.items():
            if k != "rng":
                d[k] = _copy(v)
        d["rng"] = self.rng.state()
        return d

    def __eq__(self, other):
        # Compared in place: copying a long game's state twice to compare it
        # would need more heap than the Pico has to spare.
        if type(self) is not type(other) or self.rng.state() != other.rng.state():
            return False
        mine, theirs = self.__dict__, other.__dict__
        if len(mine) != len(theirs):
            return False
        for k, v in mine.items():
            if k != "rng" and (k not in theirs or theirs[k] != v):
                return False
        return True


def _copy(x):
    """Deep copy of nested dicts, lists, tuples, sets, bytearrays and logs;
    anything else is shared."""
    if isinstance(x, (int, str)) or x is None:
        return x
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_copy(v) for v in x)
    if isinstance(x, set):
        return set(x)
    if isinstance(x, bytearray):
        return bytearray(x)
    if isinstance(x, Log):
        return x.copy()
    return x


def _names(players):
    return ", ".join(str(p) for p in players) or "nobody"


def replay(cls, record):
    """Rebuild a game from a record or journal: the same state, exactly."""
    game = cls(record["config"], record["seed"])
    if "seed_commit" in record and record["seed_commit"] != game.seed_commit:
        raise RuleError("the seed does not match its commitment: log tampered")
    try:
        log = Log.unpack(record["log"])
    except ValueError as e:
        raise RuleError(str(e))
    for player, action in log:
        game.act(player, action)
    return game
