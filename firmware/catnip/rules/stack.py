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
from catnip.rules.stack_bag import Bag
from catnip.rules.stack_score import (by_colour, collapse_points, ending, placement_points,
                                      result)
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


class Stack(Game, Bag):
    NAME = "stack"
    EXAMPLE = "('place', 2, 0)"
    # What a person reported; a digital draw is the engine's own and stands.
    CORRECTABLE = ("place", "collapse", "drew", "take", "base", "out")
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
        self.advance_setup()

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
            return [(step, self.colours[i]) for i in self.choosable(step)]
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
        if step == "base" or step == "out":
            return self._setup_report(step, action)
        return getattr(self, "_" + name)(player, action)

    def _setup_report(self, step, action):
        i = self._colour(action, self.choosable(step), "in the bag")
        self.set_up_cat(self.steps.pop(0), i)
        return [{"type": step, "colour": self.colours[i]}] + self.advance_setup()

    def _take(self, player, action):
        i = self._colour(action, self.choosable("take"), "on the table")
        self.table[i] -= 1
        return self._hold(player, i, True, "took")

    def _drew(self, player, action):
        i = self._colour(action, self.choosable("drew"), "in the bag")
        self.bag[i] -= 1
        return self._hold(player, i, False, "drew")

    def _draw(self, player, action):
        _arguments(action, 0, "('draw',)")
        i = self.random_cat(False)
        self.bag[i] -= 1
        return self._hold(player, i, False, "drew")

    def _hold(self, player, i, from_table, verb):
        self.hand = i
        self.from_table = from_table
        return [{"type": verb, "player": player, "colour": self.colours[i]}]

    def _place(self, player, action):
        height, touched = _arguments(action, 2, "('place', height, black_touched)")
        lim = self.limits()
        check_number(height, "height", lim["height"],
                     "the least number of cats between this cat and the base; "
                     "the tower holds %d" % self.tower)
        check_number(touched, "black cats touched", lim["black_touched"],
                     self._black_why("stand"))
        points = placement_points(self.config, self.from_table, self.counts_black, height, touched)
        self.placed[self.hand] += 1
        self.tower += 1
        if self.hand == self.black and self.counts_black:
            self.tower_black += 1
        event = {"type": "placed", "player": player, "colour": self.colours[self.hand],
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
        points = collapse_points(self.config["mode"], fallen)
        self.tower -= fallen
        self.tower_black -= black
        # Which cats fell is not reported: the top ones, the last placed.
        self.fallen += fallen
        self.fallen_black += black
        self.collapses += 1
        event = {"type": "collapse", "player": player, "fallen": fallen, "black": black,
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

    def _score(self, player, points, event):
        if self.config["mode"] == "clowder":
            self.team += points
            event["team"] = self.team
        else:
            self.scores[player] += points
            event["score"] = self.scores[player]

    def _end(self, reason):
        self.ended = reason
        return {"type": "over", "reason": ending(reason)}

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
            "fallen": self.fallen,
            "bag_left": sum(self.bag),
            "bag": by_colour(self.colours, self.bag),
            "base": by_colour(self.colours, self.base),
            "removed": by_colour(self.colours, self.removed),
            "table": by_colour(self.colours, self.table),
            "ended": self.ended,
        }
        if self.config["mode"] == "clowder":
            p["team"] = self.team
        else:
            p["scores"] = list(self.scores)
        return p

    def standing(self):
        clowder = self.config["mode"] == "clowder"
        return [self.team] * self.config["players"] if clowder else list(self.scores)

    def result(self):
        if self.ended is None:
            return None
        return result(self.config["mode"], self.scores, self.team, self.ended)


# ---- checking reported values ------------------------------------------


def _arguments(action, n, form):
    if len(action) != n + 1:
        raise RuleError("%r takes %d value%s, as %s; got %r"
                        % (action[0], n, "" if n == 1 else "s", form, action))
    return action[1:]

