"""A throwaway fourth game, Mouse Race, for tests only (never shipped): its
description and its rules in one file, to show that a game joins catnip with
its own files and one registry line (catnip.rules.register). Each player in
turn rolls a die; after `rounds` rounds the highest total wins, ties shared."""

from catnip.rules.about import settle
from catnip.rules.engine import Game, RuleError

ABOUT = {
    "title": "Mouse Race", "short": "Mice", "module": "fourth_game", "class": "MouseRace",
    "players": (
        {"when": ("track", ("long",)), "least": 2, "most": 3, "default": 2,
         "why": "the long track is for 2 or 3 mice"},
        {"when": None, "least": 2, "most": 5, "default": 3, "why": "Mouse Race is for 2 to 5"},
    ),
    "options": (
        {"key": "track", "label": "Track", "choices": ("short", "long"),
         "says": ("short", "long"), "names": ("", "Long track")},
    ),
    "table": (),
    "settings": (("start", 0),),
    "high_scores": False,
}


class MouseRace(Game):
    NAME = "mice"
    EXAMPLE = "('roll',)"

    def settle(self, config):
        return settle(ABOUT, config, ABOUT["title"])

    def setup(self):
        self.totals = [0] * self.config["players"]
        self.turn = self.config["start"]
        self.rolls = 0
        self.length = 2 if self.config["track"] == "short" else 4

    def to_act(self):
        return [] if self.over() else [self.turn]

    def over(self):
        return self.rolls >= self.length * self.config["players"]

    def options(self, player):
        return [("roll",)]

    def apply(self, player, action):
        if action != ("roll",):
            raise RuleError("a mouse only rolls: ('roll',)")
        n = 1 + self.rng.below(6)
        self.totals[player] += n
        self.rolls += 1
        self.turn = (self.turn + 1) % self.config["players"]
        return [{"type": "rolled", "player": player, "pips": n}]

    def public(self):
        return {"game": self.NAME, "totals": list(self.totals), "turn": self.turn}

    def standing(self):
        return list(self.totals)

    def result(self):
        if not self.over():
            return None
        s = self.totals
        ranks = [1 + sum(1 for q in s if q > v) for v in s]
        first = [p for p in range(len(s)) if ranks[p] == 1]
        reasons = [{"why": "finish", "seats": []}]
        if len(first) > 1:
            reasons.append({"why": "tie", "by": "none", "seats": first, "points": s[first[0]],
                            "rank": 1})
        return {"ranks": ranks, "winners": first, "scores": list(s), "reasons": reasons,
                "unit": "points", "fewest": False, "together": False}
