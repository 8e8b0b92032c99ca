# End of the game: red 3, yellow 2, blue 1, black rock -1; the highest score
# wins; a tie goes to fewer black rocks; still tied, the victory is shared.
from heist_check import check_ranks, play_round, rigged

from catnip.rules.heist import score, standings


def test_gem_values():
    assert score([1, 0, 0, 0]) == 3
    assert score([0, 1, 0, 0]) == 2
    assert score([0, 0, 1, 0]) == 1
    assert score([0, 0, 0, 1]) == -1
    assert score([2, 3, 4, 5]) == 6 + 6 + 4 - 5


def test_highest_score_wins_and_scores_may_be_negative():
    result = standings([[0, 0, 0, 4], [1, 0, 0, 0], [0, 0, 2, 0]])
    assert result["scores"] == [-4, 3, 2]
    assert result["ranks"] == [3, 1, 2] and result["winners"] == [1]
    assert result["reasons"] == []
    check_ranks(result)


def test_a_tie_goes_to_fewer_black_rocks():
    result = standings([[2, 0, 1, 1], [1, 1, 1, 0]])  # both score 6
    assert result["ranks"] == [2, 1] and result["winners"] == [1]
    (note,) = result["reasons"]
    assert note == {"why": "tie", "by": "rocks", "seats": [0, 1], "points": 6, "rocks": [1, 0]}


def test_equal_score_and_rocks_share_the_victory():
    result = standings([[1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 1, 0]])
    assert result["ranks"] == [1, 1, 3] and result["winners"] == [0, 1]
    (note,) = result["reasons"]
    assert note == {"why": "tie", "by": "none", "seats": [0, 1], "points": 3, "rank": 1,
                    "rocks": 0}


def test_both_tie_breaks_in_one_group():
    # Four score 5: two with one rock share third place behind the rockless one.
    result = standings([[1, 1, 1, 1], [0, 3, 0, 1], [0, 0, 5, 0], [3, 0, 0, 0], [3, 0, 1, 0]])
    assert result["scores"] == [5, 5, 5, 9, 10]
    assert result["ranks"] == [4, 4, 3, 2, 1]
    assert [(n["by"], n["seats"]) for n in result["reasons"]] == [
        ("rocks", [0, 1, 2]), ("none", [0, 1])]
    assert result["reasons"][1]["rank"] == 4
    check_ranks(result)


def test_everyone_tied_shares_the_victory():
    result = standings([[0, 0, 0, 0]] * 6)
    assert result["ranks"] == [1] * 6 and result["winners"] == list(range(6))
    assert [n["by"] for n in result["reasons"]] == ["none"]


def test_shields_open_only_when_the_game_ends():
    game = rigged([5, 6, 7, 8, 9, 10], players=3, gems="physical")
    rounds = [((1, 2, 2), [4, 1, 6]), ((0, 3, 3), [3, 2, 5]), ((2, 2, 3), [6, 3, 3]),
              ((0, 0, 8), [1, 4, 1]), ((1, 1, 7), [2, 3, 4]), ((0, 5, 5), [3, 4, 4])]
    for gems, cards in rounds:
        assert "result" not in game.public()
        assert all("shield" not in seat for seat in game.public()["seats"])
        events = play_round(game, cards, gems)
    result = game.result()
    assert events[-1] == {"type": "end", "result": result}
    assert game.public()["result"] == result
    assert result["shields"] == [game.view(p)["shield"] for p in range(3)]
    assert sum(sum(s[:3]) for s in result["shields"]) + sum(game.public()["removed"]) == 45
    check_ranks(result)
