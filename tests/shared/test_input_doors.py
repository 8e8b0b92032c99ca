# The rules engine's doors on the inputs that once slipped through: each is
# refused with RuleError naming what was wrong, and a refused action leaves
# the game exactly as its log replays it. (The fuzz suites in
# tests/test_fuzz_doors.py cover the whole class; these are the known cases.)
import json

from check import message, raises

from catnip import rules
from catnip.rules import RuleError
from catnip.rules.log import Log


def unchanged(game, player, action, *words):
    journal = game.journal()
    text = message(RuleError, game.act, player, action)
    for w in words:
        assert w in text, (w, text)
    assert game.journal() == journal and rules.replay(journal) == game
    return text


def test_a_refused_player_leaves_game_and_log_together():
    g = rules.new("purrfect", {"players": 4}, "seed")
    card = g.view(1)["hand"][0]
    for bad in (1.0, True, "1", None, [1], 4, -1):
        unchanged(g, bad, ("offer", card), "no player")
    assert g.offers == []
    s = rules.new("stack", {"players": 2}, "seed")
    unchanged(s, 0.0, ("draw",), "no player 0.0")
    unchanged(s, False, ("draw",), "no player False")
    assert "player 0 cannot act now" not in message(RuleError, s.act, "0", ("draw",))


def test_seeds_are_text_and_checked_first():
    for bad in (1, b"seed", 1.5, ["seed"], "", "\u00e9t\u00e9"):
        assert "seed must be" in message(RuleError, rules.new, "heist", {"players": 3}, bad)


def test_settings_must_be_a_dict():
    assert "settings are a dict" in message(RuleError, rules.new, "heist", "players")
    assert "settings are a dict" in message(RuleError, rules.new, "heist", [("players", 3)])
    assert "unknown game" in message(RuleError, rules.new, ["heist"], None)


def test_settings_are_bounded_and_json_ready():
    # colours x per_colour used to reach the generator's 65,536 limit.
    text = message(RuleError, rules.new, "stack",
                   {"colours": ["c%d" % i for i in range(700)], "per_colour": 99}, "s")
    assert "colours" in text and "at most 16" in text
    for grams in (float("inf"), float("nan"), 1e9, -1, 0, True, "6"):
        assert "cat_grams" in message(RuleError, rules.new, "stack", {"cat_grams": grams}, "s")
    g = rules.new("stack", {"cat_grams": 5.5}, "s")
    assert json.loads(json.dumps(g.header())) == g.header()
    for bad in ("caf\u00e9", "x" * 13, " ", "red\n"):
        assert "every colour needs a name" in message(RuleError, rules.new, "stack",
                                                      {"colours": ["blue", bad]}, "s")


def test_header_config_is_a_copy():
    g = rules.new("stack", {"players": 2}, "s")
    g.header()["config"]["colours"].append("gold")
    g.header()["config"]["players"] = 6
    assert g.config["players"] == 2 and "gold" not in g.config["colours"]


def test_view_and_legal_refuse_a_player_that_is_not_a_seat():
    g = rules.new("heist", {"players": 3}, "s")
    for bad in ("0", None, 99, 1.0, True, [0]):
        assert "no player" in message(RuleError, g.view, bad)
        assert "no player" in message(RuleError, g.legal, bad)


def test_purrfect_check_vets_exactly_as_act_does():
    g = rules.new("purrfect", {"players": 4}, "seed")
    card = g.view(0)["hand"][0]
    assert "starts with its name" in message(RuleError, g.check, 0, ())
    assert "action is a tuple" in message(RuleError, g.check, 0, None)
    assert "no player 9" in message(RuleError, g.check, 9, ("offer", card))
    g.act(0, ("offer", card))
    other = g.view(1)["hand"][0]
    text = message(RuleError, g.check, 1, ("accept", "1", other))
    assert "named by its number" in text and "not open" not in text
    assert g.check(1, ("accept", 1, other)) == ("accept", 1, other)


def test_purrfect_check_refuses_once_the_game_is_over():
    g = rules.new("purrfect", {"players": 4, "mode": "scorekeeper"}, "seed")
    while g.result() is None:
        g.act(0, ("score", 0, 1))
    assert "game is over" in message(RuleError, g.check, 0, ("score", 0, 1))


def test_replay_refuses_a_record_without_commitment_or_parts():
    g = rules.new("purrfect", {"players": 4, "mode": "scorekeeper"}, "seed")
    while g.result() is None:
        g.act(0, ("score", 0, 1))
    record = g.record()
    for key in ("seed_commit", "salt", "seed", "log", "game", "config", "finished"):
        r = dict(record)
        del r[key]
        assert key in message(RuleError, rules.replay, r), key
    for bad in (None, [], "x"):
        raises(RuleError, rules.replay, bad)
    r = dict(record, log=None)
    assert "log" in message(RuleError, rules.replay, r)


def test_replay_names_the_entry_it_refuses():
    g = rules.new("heist", {"players": 3}, "seed")
    for _ in range(4):
        p = g.to_act()[0]
        g.act(p, g.legal(p)[0])
    journal = g.journal()
    entries = [[p, list(a)] for p, a in Log.unpack(journal["log"])]
    entries[0][1][1] = 7
    text = message(RuleError, rules.replay, dict(journal, log=entries))
    assert text.startswith("log entry #0 (player %d" % entries[0][0]), text
    for bad in ("1", 1.0, None):
        entries = [[p, list(a)] for p, a in Log.unpack(journal["log"])]
        entries[1][0] = bad
        text = message(RuleError, rules.replay, dict(journal, log=entries))
        assert text.startswith("log entry #1 ") and "no player" in text, text


def test_replay_says_whether_the_record_is_a_finished_game():
    g = rules.new("stack", {"players": 3, "mode": "clowder"}, "seed")
    while g.result() is None:
        p = g.to_act()[0]
        g.act(p, g.legal(p)[-1])
    record = g.record()
    assert record["finished"] is True and rules.replay(record).result() is not None
    entries = [[p, list(a)] for p, a in Log.unpack(record["log"])]
    cut = dict(record, log=entries[:-1])
    assert "cut or changed" in message(RuleError, rules.replay, cut)
    # Honestly labelled, the same cut log is an unfinished journal.
    assert rules.replay(dict(cut, finished=False)).result() is None


def log_of(n):
    log = Log()
    for i in range(n):
        log.append((i % 7, ("accept", i, 9 * (i % 7), 9 * (i % 7) + 1)))
    return log


class NoUnpacking(Log):
    __slots__ = ()

    def __iter__(self):
        raise AssertionError("compared action by action")


def test_logs_compare_by_their_packed_bytes():
    a, b = log_of(1354), log_of(1354)
    c = NoUnpacking()
    c._pages, c._words, c._count = b._pages, b._words, b._count
    assert a == c and not (a != c)
    d = log_of(1353)
    assert a != d and not (a == d)
    d.append((0, ("offer", 1)))
    assert a != d
    assert a == list(a) and a != list(a)[:-1]


def test_comparing_long_logs_allocates_nothing():
    try:
        import micropython
    except ImportError:  # CPython: the heap lock exists on MicroPython only
        return
    a, b = log_of(1354), log_of(1354)
    micropython.heap_lock()
    try:
        same = a == b
    finally:
        micropython.heap_unlock()
    assert same
