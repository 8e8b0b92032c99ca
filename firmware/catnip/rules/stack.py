# Stack O' Cats as a pure state machine (rules: shared/rules/stack-o-cats-rulebook.txt).
#
# The tower is wooden and the engine cannot see it. The table reports what
# happened (the load-cell tray proposes, a person confirms); the engine keeps
# the bag, the turn and the score. A turn:
#   1. the player gets a cat: ("draw",) lets the engine draw it (digital mode),
#      ("drew", colour) reports a real draw (physical mode), and in the Clowder
#      Collaboration ("take", colour) first empties the table;
#   2. then reports ("place", height, black_touched): the cat stands, it
#      scores and the turn passes; or ("collapse", fallen, black_fallen):
#      the fallen cats leave play and the same player tries the same cat again.
# Black cats are counted only in the Black Cat variant, where they score;
# elsewhere both black numbers are 0.
#
# Colour counts are lists indexed like self.colours (black last). Every cat of
# the box is in exactly one place: bag, box (unused), table, removed, the hand,
# or it reached the tower (base + placed), where it stands or has fallen.
from catnip.rules.engine import Game, RuleError
from catnip.rules.stack_setup import BLACK, check_number, settle_config, setup_steps

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


_NO_CAT = const(-1)

# What the player to act is asked for, by step.
_ASK = {
    "base": "report a cat wedged into the base: ('base', colour)",
    "out": "report the cat set out of play: ('out', colour)",
    "take": "take a cat from the table: ('take', colour)",
    "draw": "draw a cat: ('draw',)",
    "drew": "report the colour drawn from the bag: ('drew', colour)",
    "place": "report where the cat stands: ('place', height, black_touched), "
             "or a collapse: ('collapse', fallen, black_fallen)",
}

_ENDINGS = {
    "bag empty": "the bag is empty",
    "collapse": "the tower collapsed",
}


class Stack(Game):
    NAME = "stack"
    EXAMPLE = "('place', 2, 0)"
    # What a person reported; a digital draw is the engine's own and stands.
    CORRECTABLE = ("place", "collapse", "drew", "take", "base", "out")
    EVENT = "event"
    CORRECTS = "only the last report (a cat drawn or taken, where it stood, a collapse), by " \
               "its player, until anyone acts next"

    def settle(self, config):
        return settle_config(config)

    # ---- state ---------------------------------------------------------

    def setup(self):
        c = self.config
        self.colours = c["colours"] + [BLACK]
        kinds = len(c["colours"])
        self.black = kinds
        self.bag = [c["per_colour"]] * kinds + [0]
        self.box = [0] * kinds + [c["black_cats"]]
        self.table = [0] * (kinds + 1)
        self.removed = [0] * (kinds + 1)
        self.base = [0] * (kinds + 1)
        self.placed = [0] * (kinds + 1)
        self.counts_black = c["black_cat"]
        self.tower = 0
        self.tower_black = 0
        self.heights = []  # reported heights of the placed cats standing, oldest first
        self.fallen = 0
        self.fallen_black = 0
        self.hand = _NO_CAT
        self.from_table = False
        self.turn = c["start"]
        self.collapses = 0
        self.scores = [0] * c["players"]
        self.team = 0
        self.ended = None
        self.steps = setup_steps(c)
        self._advance_setup()

    def _advance_setup(self):
        """Carry out the setup steps nobody needs to report; in digital mode
        that is all of them. Returns their public events."""
        events = []
        digital = self.config["draw"] == "digital"
        while self.steps:
            step = self.steps[0]
            if step == "join":
                n = self.box[self.black]
                self.bag[self.black] += n
                self.box[self.black] = 0
                events.append({"event": "join", "black_cats": n})
            elif step == "table":
                for i in (self.black, self.colours.index(self.config["table_colour"])):
                    self.table[i] += self.bag[i] + self.box[i]
                    self.bag[i] = self.box[i] = 0
                events.append({"event": "table", "cats": sum(self.table)})
            elif digital:
                self._set_up_cat(step, self._random_cat(step == "out_nonblack"))
            else:
                return events
            self.steps.pop(0)
        return events

    def _random_cat(self, nonblack):
        """A cat drawn uniformly from the bag, by colour index."""
        kinds = self.black if nonblack else self.black + 1
        r = self.rng.below(sum(self.bag[:kinds]))
        i = 0
        while r >= self.bag[i]:
            r -= self.bag[i]
            i += 1
        return i

    def _set_up_cat(self, step, i):
        self.bag[i] -= 1
        if step == "base":
            self.base[i] += 1
            self.tower += 1
            if i == self.black and self.counts_black:
                self.tower_black += 1
        else:
            self.removed[i] += 1

    # ---- whose turn and what they may do -------------------------------

    def _step(self):
        """What the player to act must report next (a key of _ASK), or None."""
        if self.ended is not None:
            return None
        if self.steps:
            return "base" if self.steps[0] == "base" else "out"
        if self.hand != _NO_CAT:
            return "place"
        if sum(self.table):
            return "take"
        return "draw" if self.config["draw"] == "digital" else "drew"

    def to_act(self):
        return [] if self.ended is not None else [self.turn]

    def options(self, player):
        if player not in self.to_act():
            return []
        step = self._step()
        if step == "draw":
            return [("draw",)]
        if step != "place":
            return [(step, self.colours[i]) for i in self._choosable(step)]
        # This list grows with the tower (about 500 reports for 35 cats, 7
        # black); a station asks for each number within limits() instead.
        # Sizing it first spares the heap a trail of outgrown copies.
        lim = self.limits()
        heights, touches = lim["height"][1], lim["black_touched"][1] + 1
        size = heights * touches
        for f in range(1, self.tower + 1):
            low, high = self.black_fallen_limits(f)
            size += high - low + 1
        moves = [None] * size
        k = 0
        for h in range(1, heights + 1):
            for b in range(touches):
                moves[k] = ("place", h, b)
                k += 1
        for f in range(1, self.tower + 1):
            low, high = self.black_fallen_limits(f)
            for b in range(low, high + 1):
                moves[k] = ("collapse", f, b)
                k += 1
        return moves

    def _choosable(self, step):
        """Colour indexes the player may report for a setup, take or drew step."""
        counts = self.table if step == "take" else self.bag
        kinds = self.black if self.steps and self.steps[0] == "out_nonblack" else self.black + 1
        return [i for i in range(kinds) if counts[i]]

    def limits(self):
        """(low, high) for each number of a report on the held cat: height
        and black_touched of a placement, fallen of a collapse (high 0: none
        can fall). For a station's number pickers and the tray's proposals."""
        return {
            # A cat on an empty base still counts height 1: the rulebook
            # promises every placement scores at least that.
            "height": (1, max(1, self.tower)),
            "black_touched": (0, self.tower_black),
            "fallen": (1, self.tower),
        }

    def likely_height(self):
        """Where the next cat most likely stands, for a station to start its
        height question at: one above the highest cat standing (the rules
        reward height, and the Clowder builds up), or level with the last
        one in Patient Paws (it rewards staying low); 1 on a bare base. Never
        the most the rules allow when less is possible: a slip on OK then
        scores what was likely, not the most."""
        hs = self.heights
        if not hs:
            h = 1
        elif self.config["mode"] == "patient":
            h = hs[len(hs) - 1]
        else:
            h = max(hs) + 1
        low, high = self.limits()["height"]
        return max(low, min(h, high - 1 if high > low else high))

    def black_fallen_limits(self, fallen):
        """(low, high) black cats among `fallen` cats that fell."""
        others = self.tower - self.tower_black
        return max(0, fallen - others), min(fallen, self.tower_black)

    # ---- actions -------------------------------------------------------

    def apply(self, player, action):
        step = self._step()
        name = action[0]
        allowed = ("place", "collapse") if step == "place" else (step,)
        if name not in allowed:
            raise RuleError("%r is not possible now: player %d must %s"
                            % (name, player, _ASK[step]))
        return getattr(self, "_" + name)(player, action)

    def _base(self, player, action):
        return self._setup_report("base", action)

    def _out(self, player, action):
        return self._setup_report("out", action)

    def _setup_report(self, step, action):
        i = self._colour(action, self._choosable(step), "in the bag")
        self._set_up_cat(self.steps.pop(0), i)
        return [{"event": step, "colour": self.colours[i]}] + self._advance_setup()

    def _take(self, player, action):
        i = self._colour(action, self._choosable("take"), "on the table")
        self.table[i] -= 1
        return self._hold(player, i, True, "took")

    def _drew(self, player, action):
        i = self._colour(action, self._choosable("drew"), "in the bag")
        self.bag[i] -= 1
        return self._hold(player, i, False, "drew")

    def _draw(self, player, action):
        _arguments(action, 0, "('draw',)")
        i = self._random_cat(False)
        self.bag[i] -= 1
        return self._hold(player, i, False, "drew")

    def _hold(self, player, i, from_table, verb):
        self.hand = i
        self.from_table = from_table
        return [{"event": verb, "player": player, "colour": self.colours[i]}]

    def _place(self, player, action):
        height, touched = _arguments(action, 2, "('place', height, black_touched)")
        lim = self.limits()
        check_number(height, "height", lim["height"],
                     "the least number of cats between this cat and the base; "
                     "the tower holds %d" % self.tower)
        check_number(touched, "black cats touched", lim["black_touched"],
                     self._black_why("stand"))
        points = self._placement_points(height, touched)
        self.placed[self.hand] += 1
        self.tower += 1
        self.heights.append(height)
        if self.hand == self.black and self.counts_black:
            self.tower_black += 1
        event = {"event": "placed", "player": player, "colour": self.colours[self.hand],
                 "height": height, "black": touched, "points": points}
        self.hand = _NO_CAT
        self.collapses = 0
        self._score(player, points, event)
        self.turn = (self.turn + 1) % self.config["players"]
        events = [event]
        if not sum(self.bag) and not sum(self.table):
            events.append(self._end("bag empty"))
        return events

    def _collapse(self, player, action):
        fallen, black = _arguments(action, 2, "('collapse', fallen, black_fallen)")
        if not self.tower:
            raise RuleError("nothing can fall: the tower is empty; report where the cat stands")
        check_number(fallen, "fallen cats", self.limits()["fallen"],
                     "the tower holds %d" % self.tower)
        check_number(black, "black cats fallen", self.black_fallen_limits(fallen),
                     self._black_why("fall"))
        points = self._collapse_points(fallen)
        self.tower -= fallen
        self.tower_black -= black
        # Which cats fell is not reported: the top ones, the last placed.
        del self.heights[max(0, len(self.heights) - fallen):]
        self.fallen += fallen
        self.fallen_black += black
        self.collapses += 1
        event = {"event": "collapse", "player": player, "fallen": fallen, "black": black,
                 "points": points}
        self._score(player, points, event)
        if self.config["mode"] == "clowder":
            return [event, self._end("collapse")]
        return [event]

    def _black_why(self, verb):
        if not self.counts_black:
            return "black cats count only in the Black Cat variant; report 0"
        return "%d of the %d cats that %s are black" % (
            self.tower_black, self.tower, "could fall" if verb == "fall" else "stand")

    def _colour(self, action, choosable, where):
        (name,) = _arguments(action, 1, "(%r, colour)" % action[0])
        names = [self.colours[i] for i in choosable]
        if name not in names:
            raise RuleError("no %r cat %s; choose one of %s" % (name, where, ", ".join(names)))
        return self.colours.index(name)

    # ---- scoring -------------------------------------------------------

    def _placement_points(self, height, touched):
        mode = self.config["mode"]
        if mode == "clowder":
            return 0 if self.from_table else 1
        black = 0
        if touched and self.counts_black:
            black = 2 * (touched if self.config["black_touch"] == "each" else 1)
        if mode == "composure":
            return 2 * height - black
        return height + black

    def _collapse_points(self, fallen):
        mode = self.config["mode"]
        if mode == "composure":
            return -fallen
        return fallen if mode == "patient" else 0

    def _score(self, player, points, event):
        if self.config["mode"] == "clowder":
            self.team += points
            event["team"] = self.team
        else:
            self.scores[player] += points
            event["score"] = self.scores[player]

    def _end(self, reason):
        self.ended = reason
        return {"event": "over", "reason": _ENDINGS[reason]}

    # ---- what leaves the game ------------------------------------------

    def public(self):
        step = self._step()
        p = {
            "mode": self.config["mode"],
            "black_cat": self.counts_black,
            "phase": "over" if step is None else ("setup" if self.steps else "play"),
            "turn": None if step is None else self.turn,
            "step": step,
            "hand": None if self.hand == _NO_CAT else self.colours[self.hand],
            "collapses": self.collapses,
            "tower": self.tower,
            "tower_black": self.tower_black,
            "likely_height": self.likely_height(),
            "fallen": self.fallen,
            "bag_left": sum(self.bag),
            "bag": self._by_colour(self.bag),
            "base": self._by_colour(self.base),
            "removed": self._by_colour(self.removed),
            "table": self._by_colour(self.table),
            "ended": self.ended,
        }
        if self.config["mode"] == "clowder":
            p["team"] = self.team
        else:
            p["scores"] = list(self.scores)
        return p

    def _by_colour(self, counts):
        d = {}
        for i, n in enumerate(counts):
            if n:
                d[self.colours[i]] = n
        return d

    def standing(self):
        clowder = self.config["mode"] == "clowder"
        return [self.team] * self.config["players"] if clowder else list(self.scores)

    def result(self):
        if self.ended is None:
            return None
        players = self.config["players"]
        ended = _ENDINGS[self.ended]
        if self.config["mode"] == "clowder":
            # One team: everyone shares rank 1 with its score; nobody wins alone.
            return {"ranks": [1] * players, "winners": [], "scores": self.standing(),
                    "reasons": [ended], "unit": "points", "fewest": False, "together": True,
                    "team": self.team, "ended": ended}
        most = self.config["mode"] == "composure"
        s = self.scores
        ranks = [1 + sum(1 for q in s if (q > v if most else q < v)) for v in s]
        reasons = [ended]
        for rank in sorted(set(ranks)):
            tied = [p for p in range(players) if ranks[p] == rank]
            if len(tied) > 1:
                reasons.append("players %s share rank %d with %d points: the rulebook "
                               "has no tie-breaker" % (_and(tied), rank, s[tied[0]]))
        return {"ranks": ranks, "winners": [p for p in range(players) if ranks[p] == 1],
                "scores": list(s), "reasons": reasons, "unit": "points", "fewest": not most,
                "together": False, "goal": "most points" if most else "fewest points",
                "ended": ended}


# ---- checking reported values ------------------------------------------


def _arguments(action, n, form):
    if len(action) != n + 1:
        raise RuleError("%r takes %d value%s, as %s; got %r"
                        % (action[0], n, "" if n == 1 else "s", form, action))
    return action[1:]


def _and(items):
    words = [str(x) for x in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
