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

    def options(self, player):
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
    assert sorted(h) == ["config", "game", "seed_commit"]
    assert h["seed_commit"] == commit("secret-seed", g.salt)
    assert "secret-seed" not in repr(h) and "secret-seed" not in repr(g.public())
    assert g.salt not in repr(h) and g.salt not in repr(g.public())


def test_a_short_seed_cannot_be_found_from_the_header():
    # The same seed commits differently in every game: the secret salt, not
    # the seed, carries the commitment's 128 bits.
    games = [Race({}, "4711") for _ in range(3)]
    commits = [g.header()["seed_commit"] for g in games]
    assert len(set(commits)) == 3
    for g in games:
        assert len(g.salt) == 32 and g.salt not in repr(g.header())
    # Trying every short seed with any salt an attacker can name finds nothing.
    for guess in range(10000):
        assert commit(str(guess), "0" * 32) != commits[0]


def test_header_config_is_a_copy():
    g = Race({}, "s1")
    g.header()["config"]["target"] = 99
    assert g.config["target"] == 10


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
    assert rec["seed"] == "s1" and rec["seed_commit"] == commit("s1", rec["salt"])
    assert rec["finished"] is True
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
    text = message(RuleError, rules.game_class, "chess")
    assert "unknown game" in message(RuleError, rules.game_class, ["heist"])
    assert "heist" in text and "purrfect" in text and "stack" in text


def test_players_are_exact_seat_numbers_everywhere():
    g = Race({}, "s1")
    p = g.to_act()[0]
    for bad in (float(p), True if p == 1 else False, str(p), None, [p], -1, 2, 1 << 40):
        before = g.state()
        assert "no player" in message(RuleError, g.act, bad, ("add", 1)), bad
        assert "no player" in message(RuleError, g.view, bad)
        assert "no player" in message(RuleError, g.legal, bad)
        assert g.state() == before and len(g.log) == 0
    assert g.legal(1 - p) == []


def test_actions_hold_only_words_and_whole_numbers():
    g = Race({}, "s1")
    p = g.to_act()[0]
    for bad in (None, "add", b"add", (), ("add", 1.0), ("add", True), ("add", None),
                ("add", 1 << 40), ("add", "x" * 33), ("add",) + (1,) * 20, (("add",), 1)):
        before = g.state()
        raises(RuleError, g.act, p, bad)
        assert g.state() == before
    g.act(p, ["add", 1])  # a list from the serial line is an action too
    assert list(g.log) == [(p, ("add", 1))]


def test_an_action_of_subclassed_types_is_taken_as_a_plain_one():
    class Name(str):
        pass

    class Move(tuple):
        pass

    g = Race({}, "s1")
    p = g.to_act()[0]
    g.act(p, Move((Name("add"), 1)))
    assert list(g.log) == [(p, ("add", 1))] and type(g.log[0][1]) is tuple
    # A plain list whose third item is no word and no whole number: named.
    assert "item 2 is 2.5" in message(RuleError, g.act, g.to_act()[0], ["add", 1, 2.5])
    assert len(g.log) == 1


def test_seeds_are_checked_before_anything_is_computed():
    for bad in (1, b"seed", 1.5, ["s"], "", "x" * 65, "caf\u00e9", "tab\there"):
        assert "seed must be" in message(RuleError, Race, {}, bad)
    assert Race({}, "x" * 64).seed == "x" * 64


def test_settings_are_a_dict_of_json_ready_values():
    text = message(RuleError, Race, "players", "s1")
    assert "dict" in text
    for bad in ({1: 2}, {"target": float("inf")}, {"target": float("nan")},
                {"target": b"x"}, {"target": {"a": 1}}, {"target": [[1]]},
                {"target": list(range(17))}, {"target": 1 << 40}):
        raises(RuleError, Race, bad, "s1")


def finished_record():
    return finished("rec").record()


def test_replay_refuses_a_record_without_its_parts():
    for key in ("game", "config", "seed", "salt", "seed_commit", "log", "finished"):
        rec = finished_record()
        del rec[key]
        assert "no %r" % key in message(RuleError, replay, Race, rec), key
        if key == "game":
            assert "no 'game'" in message(RuleError, rules.replay, rec)
    for bad in (None, [], "record"):
        assert "a record is" in message(RuleError, rules.replay, bad)
    rec = finished_record()
    rec["extra"] = 1
    assert "unknown field 'extra'" in message(RuleError, replay, Race, rec)


def test_replay_checks_the_salted_commitment():
    rec = finished_record()
    rec["salt"] = "0" * 32
    assert "tampered" in message(RuleError, replay, Race, rec)
    rec = finished_record()
    rec["seed_commit"] = commit(rec["seed"], "0" * 32)
    assert "tampered" in message(RuleError, replay, Race, rec)
    rec = finished_record()
    rec["salt"] = None
    assert "salt must be" in message(RuleError, replay, Race, rec)


def test_replay_says_whether_the_record_is_a_finished_game():
    g = Race({}, "s1")
    g.act(g.to_act()[0], ("add", 1))
    journal = g.journal()
    assert journal["finished"] is False and replay(Race, journal) == g
    rec = finished_record()
    assert replay(Race, rec).result() is not None
    # Cut the log short: the record still says the game is finished.
    from catnip.rules.log import Log
    rec["log"] = Log(list(Log.unpack(rec["log"]))[:-1]).pack()
    assert "cut or changed" in message(RuleError, replay, Race, rec)
    rec["finished"] = "yes"
    assert "true or false" in message(RuleError, replay, Race, rec)


def test_replay_names_the_entry_that_fails():
    rec = finished_record()
    entries = [[p, list(a)] for p, a in Log_of(rec)]
    entries[2] = [entries[2][0], ["add", 5]]
    rec["log"] = entries
    text = message(RuleError, replay, Race, rec)
    assert text.startswith("log entry #2 (player %d, action ('add', 5)):" % entries[2][0]), text
    for bad in (None, "x", [0], [0, 1, 2], ["0", ["add", 1]], [0.0, ["add", 1]]):
        rec["log"] = [bad]
        assert "log entry #0" in message(RuleError, replay, Race, rec), bad
    rec["log"] = None
    assert "the record's log" in message(RuleError, replay, Race, rec)


def Log_of(rec):
    from catnip.rules.log import Log
    return Log.unpack(rec["log"])
