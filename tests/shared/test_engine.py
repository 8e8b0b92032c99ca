# The machinery every game shares, proven on a tiny game: two players take
# turns adding 1-3 to a secret-free counter; a hidden draw decides who starts.
from check import message, raises

from catnip import rules
from catnip.rules.engine import Game, RuleError, replay
from catnip.rules.rng import commit


class Race(Game):
    NAME = "race"

    def settle(self, config):
        config.setdefault("players", 2)
        config.setdefault("target", 10)
        if config["players"] != 2:
            raise RuleError("race is for 2 players")
        return config

    def setup(self):
        self.total = 0
        self.turn = self.rng.below(2)
        self.winner = None

    def to_act(self):
        return [] if self.winner is not None else [self.turn]

    def legal(self, player):
        return [("add", n) for n in (1, 2, 3)] if player in self.to_act() else []

    def apply(self, player, action):
        if action not in self.legal(player):
            raise RuleError("add 1, 2 or 3")
        self.total += action[1]
        if self.total >= self.config["target"]:
            self.winner = player
        self.turn = 1 - player
        return [{"ev": "add", "player": player, "n": action[1], "total": self.total}]

    def public(self):
        return {"total": self.total, "turn": self.turn}

    def result(self):
        if self.winner is None:
            return None
        return {"ranks": [1 if p == self.winner else 2 for p in range(2)]}


def finished(seed="s1"):
    g = Race({}, seed)
    while g.result() is None:
        g.act(g.to_act()[0], ("add", 3))
    return g


def test_header_commits_to_the_seed_without_revealing_it():
    g = Race({}, "secret-seed")
    h = g.header()
    assert h["seed_commit"] == commit("secret-seed")
    assert "secret-seed" not in repr(h) and "secret-seed" not in repr(g.public())


def test_wrong_player_is_refused_and_nothing_changes():
    g = Race({}, "s1")
    other = 1 - g.to_act()[0]
    before = g.state()
    assert "cannot act now" in message(RuleError, g.act, other, ("add", 1))
    assert g.state() == before and g.log == []


def test_illegal_action_is_refused_and_nothing_changes():
    g = Race({}, "s1")
    before = g.state()
    assert "add 1, 2 or 3" in message(RuleError, g.act, g.to_act()[0], ("add", 4))
    assert "action starts with its name" in message(RuleError, g.act, g.to_act()[0], (4,))
    assert g.state() == before


def test_record_stays_secret_until_the_end():
    g = Race({}, "s1")
    assert "secret until the game ends" in message(RuleError, g.record)
    g = finished()
    rec = g.record()
    assert rec["seed"] == "s1" and rec["seed_commit"] == commit("s1")
    assert "game is over" in message(RuleError, g.act, 0, ("add", 1))


def test_replay_rebuilds_the_identical_state():
    g = finished("replay-me")
    again = replay(Race, g.record())
    assert again == g
    assert again.log == g.log


def test_replay_rejects_a_seed_that_breaks_its_commitment():
    rec = finished().record()
    rec["seed"] = "forged"
    assert "tampered" in message(RuleError, replay, Race, rec)


def test_view_adds_only_the_players_own_part():
    g = Race({}, "s1")
    v = g.view(1)
    assert v["you"] == 1 and v["total"] == 0
    assert "no player 2" in message(RuleError, g.view, 2)


def test_unknown_game_names_the_choices():
    text = message(ValueError, rules.game_class, "chess")
    assert "heist" in text and "purrfect" in text and "stack" in text
