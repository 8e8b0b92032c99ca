# The end in the stations' words: every reason a result() carries (codes with
# seats, numbered from 0) on the standings screen and in the banners, with
# the seats as the players know them (P1.. or their names), never the
# rules' numbers.
from catnip.rules import new as new_game
from catnip.rules.heist import standings as heist_standings
from catnip.rules.purrfect_score import decide
from catnip.rules.stack_score import result as stack_result
from catnip.ui import draw
from catnip.ui import purrfect as purrfect_ui
from catnip.ui import stack as stack_ui
from catnip.ui.end import standings
from catnip.ui.outcome import reason


def _reasons(lines, players):
    return lines[players:]


def test_a_purrfect_tie_names_the_tied_and_the_declarer():
    draw.named(None)
    winner, why = decide([5, 4, 5, 0], 1)
    assert winner == 1 and why["seats"] == [0, 2] and why["declarer"] == 1
    assert reason(why) == "P1 and P3 tied at 5 pawprints; P2 declared"
    event = {"type": "game over", "winner": winner, "reason": why}
    assert purrfect_ui.say(event, None) == "P2 wins: P1 P3 tied, P2 declared"
    draw.named(["Ann", "Bo", "Cy", "Di"])
    assert purrfect_ui.say(event, None) == "Bo wins: Ann Cy tied, Bo declared"
    draw.named(None)


def test_purrfect_wins_without_a_tie():
    draw.named(None)
    _, first = decide([5, 3, 2, 0], 0)
    _, most = decide([5, 6, 2, 0], 1)
    assert purrfect_ui.say({"type": "game over", "winner": 0, "reason": first}, None) == \
        "P1 wins: first to 5 pawprints"
    assert reason(most) == "most pawprints (6) of those with 5"


def test_meow_heist_ties_on_the_standings_screen():
    draw.named(None)
    result = heist_standings([[1, 1, 1, 1], [0, 3, 0, 1], [0, 0, 5, 0], [3, 0, 0, 0],
                              [3, 0, 1, 0]])
    lines = standings(result)
    assert lines[:5] == ["1. P5 10", "2. P4 9", "3. P3 5", "4. P1 5", "4. P2 5"]
    assert _reasons(lines, 5) == [
        "P1, P2 and P3 tied on 5 points; fewer black rocks first (P1 1, P2 1, P3 0)",
        "P1 and P2 share rank 4 on 5 points and 1 rocks"]


def test_stack_endings_and_ties_with_names():
    draw.named(["Ann", "", "Cy"])
    lines = standings(stack_result("composure", [4, 4, 2], 0, "bag empty"))
    assert _reasons(lines, 3) == ["the bag is empty", "Ann and P2 share rank 1 on 4 points"]
    clowder = standings(stack_result("clowder", [0, 0], 7, "collapse"))
    assert clowder == ["1. Ann", "1. P2", "Team: 7 points", "the tower collapsed"]
    event = {"type": "over", "reason": {"why": "bag empty", "seats": []}}
    assert stack_ui.say(event, None) == "Game over: the bag is empty"
    draw.named(None)


def test_no_line_numbers_a_seat_as_the_rules_do():
    draw.named(None)
    game = new_game("purrfect", {"players": 4, "mode": "scorekeeper"}, "end words")
    for declarer, best in ((0, [2]), (2, [0]), (1, [0, 2]), (1, [0, 2])):
        game.act(0, ("score", declarer) + tuple(best))
    lines = standings(game.result())
    assert lines[-1] == "P1 and P3 tied at 5 pawprints; P2 declared"
    for line in lines:
        assert "player" not in line and "{" not in line, line


def test_a_reason_from_a_newer_table_is_said_as_its_code():
    assert reason({"why": "newer", "seats": [0]}) == "newer"
