# The Colonnade of Competent Clowders: sorted, bounded, fair to ties, and a
# JSON-ready dict for whoever stores it.
import json

from check import message

from catnip.rules.colonnade import Colonnade


def test_entries_are_kept_best_first_with_their_rank():
    c = Colonnade(5)
    assert c.add(["Ada"], 7) == 1
    assert c.add(["Bo", "Cy"], 12) == 1
    assert c.add("Di", 3) == 3
    assert c.ranked() == [(1, ["Bo", "Cy"], 12), (2, ["Ada"], 7), (3, ["Di"], 3)]


def test_equal_scores_share_a_rank_and_the_earlier_clowder_keeps_the_higher_row():
    c = Colonnade(5)
    c.add(["Ada"], 9)
    c.add(["Bo"], 4)
    assert c.add(["Cy"], 9) == 1
    assert c.add(["Di"], 4) == 3
    assert c.ranked() == [(1, ["Ada"], 9), (1, ["Cy"], 9), (3, ["Bo"], 4), (3, ["Di"], 4)]


def test_a_full_table_keeps_its_top_scores_and_an_equal_score_does_not_push_out():
    c = Colonnade(3)
    for name, score in (("Ada", 5), ("Bo", 8), ("Cy", 2)):
        c.add([name], score)
    assert not c.qualifies(2)
    assert c.add(["Di"], 2) is None
    assert c.qualifies(3)
    assert c.add(["Ed"], 3) == 3
    assert [r[2] for r in c.ranked()] == [8, 5, 3]
    assert [r[1] for r in c.ranked()] == [["Bo"], ["Ada"], ["Ed"]]


def test_round_trip_through_json_text():
    c = Colonnade(4)
    c.add(["Ada", "Bo"], 11)
    c.add(["Cy"], 11)
    c.add(["Di"], 0)
    text = json.dumps(c.to_json())
    back = Colonnade.from_json(json.loads(text))
    assert back == c and back.ranked() == c.ranked() and back.size == 4


def test_from_json_keeps_stored_order_among_equals_and_trims_to_size():
    data = {"size": 2, "entries": [{"names": ["Low"], "score": 1},
                                   {"names": ["First"], "score": 6},
                                   {"names": ["Second"], "score": 6}]}
    c = Colonnade.from_json(data)
    assert c.ranked() == [(1, ["First"], 6), (1, ["Second"], 6)]


def test_bad_entries_are_refused_and_named():
    c = Colonnade()
    assert "name at least one cat" in message(ValueError, c.add, [], 3)
    assert "every name must be some text" in message(ValueError, c.add, ["Ada", " "], 3)
    assert "0 or more; got -1" in message(ValueError, c.add, ["Ada"], -1)
    assert "got True" in message(ValueError, c.add, ["Ada"], True)
    assert c.ranked() == []
    assert "1 to 100 rows" in message(ValueError, Colonnade, 0)
    assert "'size' and 'entries'" in message(ValueError, Colonnade.from_json, [])
    assert "entries must be a list" in message(ValueError, Colonnade.from_json, {"entries": 3})
    bad = {"entries": [{"names": ["Ada"], "score": 4}, {"names": ["Bo"]}]}
    assert "each entry needs 'names' and 'score'" in message(ValueError, Colonnade.from_json, bad)
