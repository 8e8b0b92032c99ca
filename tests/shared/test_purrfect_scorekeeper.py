# Purrfect for groups who keep the paper cards: the device draws the meows
# and keeps the score. Scoring and the end of the game are the same
# mechanism as with hands on the stations, so the end rule is tested here
# in full and cross-checked against played games.
from check import message
from playout import play_randomly
from purrfect_checks import check_replay
from purrfect_play import play_sensibly

from catnip import rules
from catnip.rules.engine import RuleError


def keeper(players=4, seed="paper"):
    return rules.new("purrfect", {"players": players, "mode": "scorekeeper"}, seed)


def score(game, *rounds):
    events = []
    for declarer, best in rounds:
        events = game.act(declarer, ("score", declarer) + tuple(best))
    return events


def test_the_device_draws_meows_and_holds_no_cards():
    game = keeper()
    pub = game.public()
    assert len(pub["meows"]) == 4 and len(set(w for w, lang in pub["meows"])) == 4
    assert "cats" not in pub and "offers" not in pub
    assert pub["pawprints"] == [0, 0, 0, 0] and pub["round"] == 1
    assert game.view(2) == dict(pub, you=2)
    assert game.to_act() == [0, 1, 2, 3]


def test_a_round_is_entered_as_declarer_then_best_hands():
    game = keeper()
    events = game.act(3, ("score", 0, 2, 1))
    assert events == [{"type": "round over", "round": 1, "declarer": 0, "best": [1, 2],
                       "pawprints": [2, 1, 1, 0]}]
    pub = game.public()
    assert pub["round"] == 2 and pub["rounds"] == [[0, [1, 2]]]
    assert game.log == [(3, ("score", 0, 2, 1))]


def test_bad_round_entries_are_refused_by_name():
    game = keeper()
    assert "at least one best hand" in message(RuleError, game.act, 0, ("score", 0))
    assert "counted among the others" in message(RuleError, game.act, 0, ("score", 1, 1))
    assert "listed twice" in message(RuleError, game.act, 0, ("score", 0, 2, 2))
    assert "players are 0-3" in message(RuleError, game.act, 0, ("score", 4, 1))
    assert "players are 0-3" in message(RuleError, game.act, 0, ("score", 0, "1"))
    assert "only action is ('score'" in message(RuleError, game.act, 0, ("declare",))
    assert game.public()["pawprints"] == [0, 0, 0, 0] and game.log == []


def test_legal_lists_every_declarer_and_set_of_best_hands():
    for players, size in ((4, 4 * 7), (5, 5 * 15), (6, 6 * 31), (7, 7 * 63)):
        game = keeper(players)
        legal = game.legal(0)
        assert len(legal) == len(set(legal)) == size
        for action in legal:
            assert game.check(0, action) == action


def test_the_first_to_five_wins():
    game = keeper()
    events = score(game, (0, [1]), (1, [0]), (2, [0]))
    assert game.public()["pawprints"] == [4, 3, 2, 0] and game.result() is None
    events = score(game, (0, [3]))
    first = {"why": "first", "seats": [0], "pawprints": 6, "goal": 5}
    assert events[-1] == {"type": "game over", "winner": 0, "reason": first}
    assert game.result() == {"ranks": [1, 2, 3, 4], "winner": 0, "pawprints": [6, 3, 2, 1],
                             # the shape every game's result has
                             "scores": [6, 3, 2, 1], "winners": [0], "unit": "pawprints",
                             "reasons": [first], "fewest": False, "together": False}


def test_several_past_five_the_most_pawprints_win():
    game = keeper()
    score(game, (0, [1]), (1, [0]), (2, [0, 1]))
    assert game.public()["pawprints"] == [4, 4, 2, 0]
    events = score(game, (1, [0]))
    assert game.public()["pawprints"] == [5, 6, 2, 0]
    assert events[-1] == {"type": "game over", "winner": 1,
                          "reason": {"why": "most", "seats": [1], "pawprints": 6, "goal": 5}}
    assert game.result()["ranks"] == [2, 1, 3, 4]


def test_a_lone_non_declarer_reaching_five_wins():
    game = keeper()
    score(game, (0, [1]), (1, [2]), (3, [1, 2]))
    assert game.public()["pawprints"] == [2, 4, 2, 2]
    events = score(game, (0, [1, 2]))
    assert game.public()["pawprints"] == [4, 5, 3, 2]
    assert events[-1] == {"type": "game over", "winner": 1,
                          "reason": {"why": "first", "seats": [1], "pawprints": 5, "goal": 5}}


def test_a_tie_for_the_lead_goes_to_the_declarer_even_short_of_five():
    # The rulebook's own example of an unfair choice: players 0 and 2 tie at
    # five, yet player 1, who declared and has four, wins.
    game = keeper()
    score(game, (0, [2]), (2, [0]), (1, [0, 2]))
    assert game.public()["pawprints"] == [4, 2, 4, 0]
    events = score(game, (1, [0, 2]))
    assert game.public()["pawprints"] == [5, 4, 5, 0]
    assert events[-1] == {"type": "game over", "winner": 1,
                          "reason": {"why": "tie", "by": "declarer", "seats": [0, 2],
                                     "pawprints": 5, "declarer": 1}}
    assert game.result()["ranks"] == [2, 1, 2, 4]


def test_a_tie_including_the_declarer_goes_to_the_declarer():
    game = keeper()
    score(game, (0, [1]), (1, [2]), (2, [0, 1]))
    assert game.public()["pawprints"] == [3, 4, 3, 0]
    events = score(game, (0, [1]))
    assert game.public()["pawprints"] == [5, 5, 3, 0]
    assert events[-1] == {"type": "game over", "winner": 0,
                          "reason": {"why": "tie", "by": "declarer", "seats": [0, 1],
                                     "pawprints": 5, "declarer": 0}}
    assert game.result()["ranks"] == [1, 2, 3, 4]


def test_a_tie_below_five_plays_on():
    game = keeper()
    score(game, (0, [1]), (1, [0]))
    assert game.public()["pawprints"] == [3, 3, 0, 0] and game.result() is None
    assert game.to_act() == [0, 1, 2, 3]


def test_both_modes_score_the_same_rounds_the_same_way():
    for players in range(4, 8):
        played = play_sensibly(rules.new("purrfect", {"players": players}, "both%d" % players),
                               "both", noise=1)
        paper = keeper(players, "both")
        for declarer, best in played.public()["rounds"]:
            paper.act(0, ("score", declarer) + tuple(best))
        assert paper.result() == played.result()
        assert paper.public()["rounds"] == played.public()["rounds"]


def test_random_entries_end_and_replay_for_every_player_count():
    for players in range(4, 8):
        for i in range(5):
            game = play_randomly(keeper(players, "k%d%d" % (players, i)), "r%d" % i)
            result = game.result()
            assert sorted(result["ranks"])[0] == 1
            top = max(result["pawprints"])
            assert top >= 5
            (why,) = result["reasons"]
            assert result["pawprints"][result["winner"]] == top or why["why"] == "tie"
            check_replay(game)
