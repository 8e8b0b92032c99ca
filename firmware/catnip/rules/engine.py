# The contract every game keeps, and the machinery they share.
#
# A game is a deterministic state machine: state = fold(config, seed, log).
# Subclasses describe one game; this base class owns the log, the seed and its
# commitment, replay and the checks every action passes through.
#
# Information flows out only through two doors: public() (safe for every
# screen, the serial line and the laptop) and view(player) (safe for that
# player's own station). Events returned by act() are public too. The seed,
# the salt of its commitment and the full log leave the game only through
# record(), which refuses until the game is over.
#
# Every door checks its input first (catnip.rules.vet): a player is an exact
# int seat, an action holds words and small ints, so a refused call changes
# nothing and an accepted action can always be logged and replayed.
from catnip.rules.log import Log
from catnip.rules.rng import Rng, commit, new_salt, new_seed
from catnip.rules.vet import RuleError, action_tuple, check_correct, check_seed, describe, settings

# The action that takes back the last correctable result (CORRECTABLE) so its
# player can report it again: logged and replayed like any other.
CORRECT = "correct"
# What a correction keeps of the game it corrects: what no action changes, and
# the log, which goes on (the correction is logged like any other action).
_KEPT = ("config", "seed", "salt", "seed_commit", "log")


class Game:
    # Registry name ("heist", "stack", "purrfect"); set by each subclass.
    NAME = ""
    # An action of this game, for error messages.
    EXAMPLE = "('play', 3)"
    # Names of the actions whose result a person confirmed and may correct
    # with ('correct',) until anyone acts next; they never draw from the rng.
    CORRECTABLE = ()
    # What can be corrected, for the refusal when there is nothing to.
    CORRECTS = "this game has no result to correct"
    def __init__(self, config=None, seed=None, salt=None):
        # Everything is checked before anything is computed from it. The salt
        # is drawn fresh for a new game; replay passes the record's.
        self.config = self.settle(settings(config))
        self.seed = new_seed() if seed is None else check_seed(seed)
        self.salt = new_salt() if salt is None else _hex_field(salt, 32, "salt")
        self.seed_commit = commit(self.seed, self.salt)
        self.rng = Rng(self.seed)
        self.log = Log()
        self.last = None  # the player whose last result may be corrected, until anyone acts
        self.setup()

    # ---- what a subclass provides --------------------------------------

    def settle(self, config):
        """Validate a config dict, fill defaults, return it (RuleError if bad)."""
        return config

    def setup(self):
        """Build the initial state from self.config and self.rng."""

    def to_act(self):
        """Players who may act now (several in simultaneous phases); none
        once result() is not None."""
        return []

    def options(self, player):
        """Every action `player` (a seat number) may take now, as tuples."""
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
        """None while the game runs; afterwards a JSON-ready dict of one
        shape for every game, so the end screen and the laptop read it
        without knowing the game:
          scores    a score per seat (the team's at every seat when the
                    seats play together)
          ranks     a 1-based rank per seat
          winners   the seats that won ([] when the seats play together)
          reasons   how the game ended and why ties fell as they did, as
                    data for a screen to word: each {"why": a code, "seats":
                    the seats it concerns (numbered from 0), ...} with the
                    numbers its words need (docs/outcomes.md)
          unit      what a score counts: "points" or "pawprints"
          fewest    the fewest wins
          together  the seats play as one team for one score
        A game may add fields of its own beside these."""
        return None

    def standing(self):
        """Each seat's score as it stands, in result()'s terms, secrets
        included (Meow Heist's loot behind the shields): for replaying a
        finished record, never for a screen while the game is on."""
        return []

    # ---- shared machinery ------------------------------------------------

    def keep_log(self, log):
        """Go on with `log` in place of the game's own, as long as it: the
        table's journal keeps the actions then (catnip.flash.journal_log)."""
        self.log = log

    def act(self, player, action):
        """Carry out `player`'s action and return its public events; or
        refuse it with RuleError, changing nothing."""
        action = self.admit(player, action)
        if action[0] == CORRECT:
            events = self._correct(player)
        else:
            events = self.apply(player, action)
            # Any other accepted action closes the window: the next one acted.
            self.last = player if action[0] in self.CORRECTABLE else None
        # Admitted actions hold only words and small ints: always loggable,
        # so the log need not check them again.
        self.log.add(player, action)
        return events

    def corrector(self):
        """The player who may correct their last result now, or None."""
        return self.last

    def takes_back(self, player, name):
        """True if `player`, though not in to_act(), may take action `name`
        now (a card taken back before the reveal). None by default."""
        return False

    def _correct(self, player):
        # The game as it was just before the result, for its player to report
        # again: this game replayed from its seed without its last move. A
        # rare press pays for a replay, where a snapshot kept for it would
        # copy the game at every result reported. Results taken back earlier
        # are left out of the replay with their corrections, so it corrects
        # nothing again: one pass over the log, however many came before.
        end = len(self.log) - 1
        undone = _taken_back(self.log, end)
        before = type(self)(self.config, self.seed, self.salt)
        k = 0
        for move in self.log:
            if k == end:
                break
            if k not in undone:
                before.act(move[0], move[1])
            k += 1
        for k, v in before.__dict__.items():
            if k not in _KEPT:
                setattr(self, k, v)
        self.last = None
        return [{"type": CORRECT, "player": player}]  # public: no card, no value

    def admit(self, player, action):
        """`action` as a tuple if `player` may act now and it is shaped like
        an action; RuleError otherwise. The game's own rules come after."""
        n = self.config["players"]  # seat(), inlined: every act() comes here
        if type(player) is not int or not 0 <= player < n:
            self.seat(player)  # says why
        action = action_tuple(action, self.EXAMPLE)
        if action[0] != CORRECT and player in self.to_act():
            return action  # nobody is to act once the game is over: no result() to ask
        if self.result() is not None:
            raise RuleError("the game is over; start a new one")
        if action[0] == CORRECT:
            check_correct(player, action, self.last, self.CORRECTS)
        elif not self.takes_back(player, action[0]):
            raise RuleError(
                "player %d cannot act now; waiting for %s"
                % (player, _names(self.to_act()))
            )
        return action

    def seat(self, player):
        """`player` if it numbers a seat of this game, else RuleError."""
        n = self.config["players"]  # players(), without a call: every act() comes here
        if type(player) is not int or not 0 <= player < n:
            raise RuleError("no player %s: the %d players are numbered 0 to %d"
                            % (describe(player), n, n - 1))
        return player

    def legal(self, player):
        """Every action `player` may take now ([] while they wait)."""
        return self.options(self.seat(player))

    def view(self, player):
        """What `player`'s own station may show: public plus their secrets."""
        self.seat(player)
        v = self.public()
        v["you"] = player
        v.update(self.private(player))
        return v

    def players(self):
        return self.config["players"]

    def header(self):
        """The public start of a game's log: what was played (a copy) and the
        seed's salted commitment, never the seed or the salt."""
        return {
            "game": self.NAME,
            "config": _copy(self.config),
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
        r["salt"] = self.salt
        r["log"] = self.log.pack()
        r["finished"] = self.result() is not None
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


def _taken_back(log, end):
    """The log positions before `end` of every correction and the result it
    took back (the entry just before it: any other action closes the window)."""
    undone = set()
    k = 0
    for move in log:
        if k == end:
            break
        if move[1][0] == CORRECT:
            undone.add(k - 1)
            undone.add(k)
        k += 1
    return undone


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


RECORD_FIELDS = ("game", "config", "seed", "salt", "seed_commit", "log", "finished")


def record_field(record, key):
    """One field of a record or journal; RuleError if there is none."""
    if not isinstance(record, dict):
        raise RuleError("a record is the dict record() or journal() gives, not %s"
                        % describe(record))
    if key not in record:
        raise RuleError("the record has no %r; replay needs the whole record (%s)"
                        % (key, ", ".join(RECORD_FIELDS)))
    return record[key]


def replay(cls, record):
    """Rebuild a game from a record or journal: the same state, exactly.
    RuleError names what is wrong: a missing or unknown field, a seed that
    breaks its commitment, or the log entry the game refuses. A record that
    says it is finished must replay to the game's end."""
    for key in RECORD_FIELDS:
        record_field(record, key)
    for key in record:
        if key not in RECORD_FIELDS:
            raise RuleError("the record has an unknown field %s" % describe(key))
    seed, salt = check_seed(record["seed"]), _hex_field(record["salt"], 32, "salt")
    if _hex_field(record["seed_commit"], 64, "seed_commit") != commit(seed, salt):
        raise RuleError("the seed and salt do not match the record's seed_commit: "
                        "the record was tampered with")
    finished = record["finished"]
    if type(finished) is not bool:
        raise RuleError("the record's 'finished' is true or false, not %s" % describe(finished))
    try:
        game = cls(record["config"], seed, salt)
    except RuleError as e:
        raise RuleError("the record's config: %s" % e)
    entries = record["log"]
    if isinstance(entries, dict):
        try:
            entries = Log.unpack(entries)
        except ValueError as e:
            raise RuleError("the record's log: %s" % e)
    elif not isinstance(entries, list):
        raise RuleError("the record's log is packed (a dict) or a list of [player, action] "
                        "entries, not %s" % describe(entries))
    for i, entry in enumerate(entries):
        _replay_entry(game, i, entry)
    if finished != (game.result() is not None):
        raise RuleError(
            "the record says the game %s, but its %d actions leave it %s: the log was cut "
            "or changed" % ("is finished" if finished else "is still on", len(entries),
                            "still on" if finished else "finished"))
    return game


def _replay_entry(game, i, entry):
    if not isinstance(entry, (list, tuple)) or len(entry) != 2:
        raise RuleError("log entry #%d is %s, not a [player, action] pair" % (i, describe(entry)))
    player, action = entry
    try:
        game.act(player, action)
    except RuleError as e:
        raise RuleError("log entry #%d (player %s, action %s): %s"
                        % (i, describe(player), _show_action(action), e))


def _show_action(action):
    if isinstance(action, (list, tuple)) and len(action) <= 16:
        return "(%s)" % ", ".join(describe(item) for item in action)
    return describe(action)


def _hex_field(value, digits, what):
    if (not isinstance(value, str) or len(value) != digits
            or not all(ch in "0123456789abcdef" for ch in value)):
        raise RuleError("%s must be %d lowercase hex digits, not %s" % (what, digits,
                                                                         describe(value)))
    return value
