"""Results stored and announced by older tables read as the rules give them
now, through catnip_host.results.common and in_events: from before every
game's result had one shape (tests/golden/results-before-one-shape.jsonl:
games played by the rules of that time, their events and results, and Meow
Heist tie-breaks), and from when reasons were English sentences and Stack O'
Cats keyed its events "event" (tests/golden/results-prose-reasons.jsonl:
ties of every kind, Purrfect's won by a declarer outside the tie too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catnip import rules
from catnip.rules.heist import standings
from catnip_host.results import SHAPE, common, in_events

BEFORE = Path(__file__).parent / "golden" / "results-before-one-shape.jsonl"
PROSE = Path(__file__).parent / "golden" / "results-prose-reasons.jsonl"
LINES = [json.loads(line) for line in BEFORE.read_text().splitlines()]
SENTENCES = [json.loads(line) for line in PROSE.read_text().splitlines()]
GAMES = [line for line in LINES if "record" in line] + SENTENCES


def _plain(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("line", GAMES, ids=lambda g: g["record"]["salt"][:6] + g["record"]["game"])
def test_an_old_result_reads_as_the_rules_give_it_now(line):
    old = line["result"]
    assert "unit" not in old or all(isinstance(r, str) for r in old["reasons"])  # as recorded
    game = rules.replay(line["record"])
    now = _plain(game.result())
    assert common(old) == now
    assert common(now) == now  # already in the shape: left as it is
    for key in SHAPE:
        assert key in now
    assert len(now["scores"]) == len(now["ranks"]) == game.players()
    assert all(isinstance(r, dict) and isinstance(r["seats"], list) for r in now["reasons"])


@pytest.mark.parametrize("line", GAMES, ids=lambda g: g["record"]["salt"][:6] + g["record"]["game"])
def test_old_events_read_as_the_rules_announce_them_now(line):
    game = rules.replay(dict(line["record"], log=[], finished=False))
    for (player, action), old in zip(line["record"]["log"], line["events"]):
        assert in_events(old) == _plain(game.act(player, action))


def test_old_meow_heist_tie_breaks_become_reasons():
    ties = [line for line in LINES if "shields" in line]
    assert ties and any(line["result"]["tiebreaks"] for line in ties)
    for line in ties:
        assert common(line["result"]) == _plain(standings(line["shields"]))
        assert [(r["by"], r["seats"]) for r in common(line["result"])["reasons"]] == [
            ({"shared": "none"}.get(t["by"], t["by"]), t["players"])
            for t in line["result"]["tiebreaks"]]


def test_the_prose_games_hold_every_kind_of_reason():
    said = {(r["why"], r.get("by")) for line in SENTENCES for r in common(line["result"])["reasons"]}
    assert said == {("bag empty", None), ("collapse", None), ("first", None), ("most", None),
                    ("tie", "declarer"), ("tie", "rocks"), ("tie", "none")}
    outside = [r for line in SENTENCES for r in common(line["result"])["reasons"]
               if r.get("by") == "declarer" and r["declarer"] not in r["seats"]]
    assert outside  # the declarer wins a tie they are not in


def test_an_old_sentence_is_never_read_for_its_seats():
    """The reasons come from the result's numbers: a sentence naming other
    seats changes nothing (the signature, not the words, guards a record)."""
    line = next(g for g in SENTENCES if g["record"]["game"] == "purrfect"
                and "tied" in g["result"]["reason"])
    old = json.loads(json.dumps(line["result"]))
    old["reason"] = "players 5, 6 tied; player 9 won"
    old["reasons"] = [old["reason"]]
    assert common(old) == common(line["result"])


def test_an_old_stack_result_says_how_it_ended_first():
    old = {"ranks": [1, 1], "scores": [4, 4], "winners": [0, 1], "goal": "fewest points",
           "ended": "the bag is empty",
           "reasons": ["players 0 and 1 share rank 1 with 4 points: the rulebook has no "
                       "tie-breaker"]}
    r = common(old)
    assert r["reasons"] == [{"why": "bag empty", "seats": []},
                            {"why": "tie", "by": "none", "seats": [0, 1], "points": 4, "rank": 1}]
    assert r["fewest"] and not r["together"] and r["unit"] == "points"


def test_what_is_no_old_result_is_left_for_the_caller_to_refuse():
    for odd in (None, 3, [], {}, {"ranks": "x"}, {"ranks": [1], "pawprints": [1]},
                {"ranks": [1], "something": 1},
                {"ranks": [1], "unit": "points", "reasons": True, "shields": [[1]]}):
        assert common(odd) == odd


def _old_frames(line):
    """The frames a table of that time sent for the game: live, then pulled,
    its events and its end in the old shape."""
    game = rules.replay(dict(line["record"], log=[], finished=False))
    seats = list(range(game.players()))
    out = [("begin", {"gid": 1, "header": game.header(), "seats": seats, "moves": 0})]
    entries = []
    for n, ((player, action), events) in enumerate(zip(line["record"]["log"], line["events"])):
        out.append(("act", {"gid": 1, "n": n + 1, "events": events}))
        entries.append(["action", player, action])
    entries.append(["end", line["result"]])
    out.append(("end", {"gid": 1, "result": line["result"]}))
    header = {k: line["record"][k] for k in ("game", "config", "seed_commit", "seed", "salt")}
    header["seats"] = seats
    out.append(("game", {"gid": 1, "status": "finished", "header": header}))
    out += [("entry", {"gid": 1, "i": i, "e": e}) for i, e in enumerate(entries)]
    return out


@pytest.mark.parametrize("line", GAMES, ids=lambda g: g["record"]["salt"][:6] + g["record"]["game"])
def test_an_old_table_s_game_still_verifies(line):
    from test_verify import _check

    from catnip_host import verify

    c = _check(_old_frames(line))
    assert c.status == verify.VERIFIED, c.problems
    assert c.compared == c.moves == len(line["record"]["log"])


def test_an_old_result_that_was_altered_still_fails():
    from test_verify import _check

    from catnip_host import verify

    line = json.loads(json.dumps(GAMES[0]))
    line["result"]["scores"][0] += 1
    c = _check(_old_frames(line))
    assert c.status == verify.DISAGREES
    assert any("is not the rules'" in p for p in c.problems), c.problems
