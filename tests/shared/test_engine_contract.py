# The engine's shared machinery. Game.state() must be a snapshot: "refused
# actions change nothing" tests compare a state taken before an action with
# one taken after.
from check import message

from catnip.rules.engine import Game, RuleError


class Counter(Game):
    NAME = "counter"

    def setup(self):
        self.counts = {"taps": [0, 0]}
        self.history = [(0, [1])]
        self.seen = set()

    def to_act(self):
        return [0]

    def apply(self, player, action):
        self.counts["taps"][player] += 1
        self.history[0][1].append(2)
        self.seen.add(action[0])
        return []


def test_state_is_a_deep_snapshot():
    game = Counter({"players": 1}, "seed")
    before = game.state()
    game.act(0, ("tap",))
    after = game.state()
    assert before["counts"] == {"taps": [0, 0]}
    assert before["history"] == [(0, [1])]
    assert before["seen"] == set()
    assert before != after
    assert after["counts"] == {"taps": [1, 0]} and after["seen"] == {"tap"}


def test_equal_games_compare_equal():
    a = Counter({"players": 1}, "seed")
    assert a != Counter({"players": 1}, "seed")  # its own salt: another commitment
    b = Counter({"players": 1}, "seed", a.salt)
    assert a == b
    a.act(0, ("tap",))
    assert a != b
    b.act(0, ("tap",))
    assert a == b


def test_an_action_must_be_a_tuple():
    game = Counter({"players": 1}, "seed")
    for action in ("tap", 5, None):
        assert "an action is a tuple" in message(RuleError, game.act, 0, action)
    game.act(0, ["tap"])  # a list, as a log read back from JSON gives it
    assert game.log == [(0, ("tap",))]
