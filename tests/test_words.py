"""The laptop's words (catnip_host.words): a census of every event kind of
every game, edition and mode, played by the rules from seeded games and said
by `catnip monitor`'s Mirror and `catnip serve`'s LiveMirror: seats as P1.. or
their names, never from 0, and no Python repr anywhere."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from catnip import rules, wire
from catnip_host import players
from catnip_host.monitor import Mirror, named
from catnip_host.results import common
from catnip_host.serve.live import LiveMirror
from catnip_host.store import Store
from catnip_host.words import EVENTS, SEATED, Words, kind
from playout import play_randomly
from purrfect_play import play_sensibly

NAMES = ("Ann", "", "Cy", "")  # P2 and P4 were never named
GAMES = [
    ("heist", {"players": 2}),  # the 2-player rules
    ("heist", {"players": 3}),
    ("heist", {"players": 5, "gems": "physical", "start": 2}),
    ("heist", {"players": 6, "variant": "original"}),
    ("stack", {"players": 3}),
    ("stack", {"players": 2, "mode": "patient", "black_cat": True, "black_touch": "once"}),
    ("stack", {"players": 3, "black_cat": True, "draw": "physical"}),
    ("stack", {"players": 4, "mode": "clowder"}),
    ("stack", {"players": 5, "draw": "physical"}),
    ("purrfect", {"players": 4}),
    ("purrfect", {"players": 5, "mode": "scorekeeper"}),
]
# What must never reach a person: a Python container or value, a seat from 0.
REPR = re.compile(r"[\[\]{}]|'\w[^'\n]*'|\bNone\b|\bTrue\b|\bFalse\b")
ZERO_BASED = re.compile(r"\b(?:players?|seat|from|start|winner|declarer|by) \d")


def _played(name: str, config: dict, seed: str) -> list[tuple[str, dict]]:
    """The frames the table sends for one whole game: begin, then an act
    and a snap per move, then the end."""
    game = rules.new(name, config, seed)
    frames = [("begin", {"gid": 1, "header": game.header(), "moves": 0,
                         "seats": list(range(game.players()))}),
              ("snap", {"gid": 1, "game": name, "public": game.public()})]
    second = [0]  # second thoughts so far

    def each(game, player, action, events):
        frames.append(("act", {"gid": 1, "n": len(game.log), "events": events}))
        frames.append(("snap", {"gid": 1, "game": name, "public": game.public()}))
        # Second thoughts now and then: a card taken back, a result corrected.
        again = None
        pub = game.public()
        if action[0] == "play" and pub["phase"] == "play" and pub["seats"][player]["committed"]:
            again = ("unlock",)
        elif game.corrector() == player and game.result() is None:
            again = ("correct",)
        if again is not None:
            second[0] += 1
            if second[0] % 5 == 1:
                each(game, player, again, game.act(player, again))

    if name == "purrfect" and game.config["mode"] == "stations":
        play_sensibly(game, seed, noise=3, each=each)
    else:
        play_randomly(game, seed, each=each)
    frames.append(("end", {"gid": 1, "result": game.result()}))
    return json.loads(json.dumps(frames))  # as the wire carries them


def _shown(mirror: Mirror) -> str:
    console = Console(record=True, width=160)
    console.print(mirror.render())
    return console.export_text()


def _clean(text: str, where: str) -> None:
    assert not REPR.search(text), f"a Python repr in {where}: {text!r}"
    assert not ZERO_BASED.search(text), f"a seat counted from 0 in {where}: {text!r}"


@pytest.mark.parametrize(("name", "config"), GAMES, ids=[f"{n}-{c}" for n, c in GAMES])
def test_every_event_of_a_game_reads_in_players_words(name, config):
    seen: set[str] = set()
    for seed in ("census 1", "census 2"):
        mirror, live = Mirror(), LiveMirror()
        for m in (mirror, live):
            m.names = NAMES
        words = Words(NAMES)
        for kind_, f in _played(name, config, seed):
            for m in (mirror, live):
                m.apply(kind_, f)
            if kind_ == "act":
                for ev in f["events"]:
                    said = EVENTS[kind(ev)](words, ev)  # a kind without words fails here
                    assert said == words.event(ev)
                    for field in SEATED:
                        if field in ev:
                            assert words.seat(ev[field]) in said, (ev, said)
                    _clean(said, f"the {kind(ev)} event")
                    seen.add(kind(ev))
            if kind_ in ("snap", "end"):
                _clean(_shown(mirror), f"the monitor after a {kind_} frame")
        state = live.state()
        assert [i["text"] for i in state["feed"]] == list(mirror.feed)  # the page's, the same
        end, head, rows = mirror.standings()
        assert state["standings"] == {"end": end, "head": head, "rows": rows}
        _clean(end + " ".join(head) + " ".join(" ".join(r) for r in rows), "the standings")
    assert seen, "no events"


def test_the_census_covers_every_event_kind_of_every_game():
    seen = set()
    for name, config in GAMES:
        for kind_, f in _played(name, config, "census 1") + _played(name, config, "census 2"):
            if kind_ == "act":
                seen |= {kind(ev) for ev in f["events"]}
    assert seen == set(EVENTS), f"never played {set(EVENTS) - seen}, unsaid {seen - set(EVENTS)}"


def test_the_issue_lines_read_as_people_say_them():
    w = Words()
    assert w.event({"type": "play", "player": 0, "cards": 1}) == "P1 plays a card face down"
    assert w.event({"type": "play", "player": 1, "cards": 3}) == "P2 plays 3 cards face down"
    assert w.event({"type": "steal", "player": 2, "from": 0, "card": 4, "loot": [1, 0, 2, 1]}) \
        == "P3 reveals the 4 too and steals 1 red, 2 blue, 1 black rock from P1"
    assert w.event({"type": "safe", "round": 2, "start": 1, "card": 9}) == \
        "Round 2: safe card 9, P2 starts"
    assert w.event({"type": "game over", "winner": 0, "reason": {
        "why": "tie", "by": "declarer", "seats": [0, 2], "pawprints": 6, "declarer": 0}}) == \
        "P1 wins: P1 and P3 tied at 6 pawprints; P1 won this round's two pawprints"
    assert w.event({"type": "end", "result": {"ranks": [1]}}) == \
        "No safe card is left: the shields are opened"


def test_a_meow_heist_end_and_round_show_scores_and_the_safe():
    frames = _played("heist", {"players": 3}, "census 1")
    mirror = Mirror()
    for kind_, f in frames[:3]:  # begin, the first snap, the safe card's act
        mirror.apply(kind_, f)
    mirror.apply(*frames[3])
    safe = frames[3][1]["public"]["safe"]
    said = ", ".join(f"{n} {colour}" for n, colour in zip(safe, ("red", "yellow", "blue")) if n)
    assert f"in the safe: {said}" in _shown(mirror)
    for kind_, f in frames[4:]:
        mirror.apply(kind_, f)
    result = frames[-1][1]["result"]
    end, head, rows = mirror.standings()
    assert head == ["rank", "player", "points", "gems"]
    assert sorted(int(r[2]) for r in rows) == sorted(result["scores"])
    best = result["ranks"].index(1)
    assert end.startswith(f"P{best + 1} ") and str(result["scores"][best]) in end
    assert f"Game over: {end}" in " ".join(_shown(mirror).split())


def test_a_name_given_to_a_seat_is_said_from_the_next_frame(tmp_path):
    """`catnip players name` while the table plays: the mirror following the
    Keeper reads the session's names from the store at every frame."""
    frames = _played("stack", {"players": 2}, "names")
    store = Store(tmp_path / "s.sqlite3")
    sid = store.session("e6614103e7", "b00t", "direct", "0.1.0")
    begin = frames[0]
    store.frame(sid, 1, begin[0], 1, wire.encode(begin[0], 1, begin[1])[:-1])
    keeper = type("Keeper", (), {"store": store, "session": sid})()
    mirror = Mirror()
    apply = named(mirror, keeper)
    for kind_, f in frames[:6]:
        apply(kind_, f)
    assert not any("Bea" in line for line in mirror.feed)
    players.name_seats(store, sid, ["P2=Bea"])
    for kind_, f in frames[6:]:
        apply(kind_, f)
    assert mirror.names == ("", "Bea")
    assert any(line.startswith("Bea ") for line in mirror.feed), list(mirror.feed)
    assert not any(line.startswith("P2 ") for line in list(mirror.feed)[-3:])
    store.close()


def test_names_are_read_again_only_when_the_store_may_have_changed_them(tmp_path, monkeypatch):
    """The names are the whole store's to read: a frame that changed no name
    costs no reading, and a name given by another catnip (its own connection,
    as `catnip players name` in a terminal) still shows from the next frame."""
    from catnip_host import words

    frames = _played("stack", {"players": 2}, "names")
    store = Store(tmp_path / "s.sqlite3")
    sid = store.session("e6614103e7", "b00t", "direct", "0.1.0")
    keeper = type("Keeper", (), {"store": store, "session": sid})()
    reads = []
    monkeypatch.setattr("catnip_host.monitor.given",
                        lambda *a: reads.append(a) or words.given(*a))
    mirror = Mirror()
    apply = named(mirror, keeper)
    for seq, (kind_, f) in enumerate(frames[:6], 1):
        apply(kind_, f)
        store.frame(sid, seq, kind_, 1, wire.encode(kind_, seq, f)[:-1])
    assert len(reads) == 2  # the first frame, then the one after the begin was stored
    other = Store(tmp_path / "s.sqlite3")
    players.name_seats(other, sid, ["P2=Bea"])
    other.close()
    for kind_, f in frames[6:]:
        apply(kind_, f)
    assert len(reads) == 3 and mirror.names == ("", "Bea")
    assert any(line.startswith("Bea ") for line in mirror.feed), list(mirror.feed)
    store.close()


def test_a_field_the_words_do_not_know_is_said_plainly():
    w = Words(("Ann",))
    said = w.event({"type": "newer", "player": 0, "cards": [1, 2], "shape": {"a": None}})
    assert said == "newer: cards 1/2, player Ann, shape a none"
    assert w.event({"event": "placed", "player": 0}) == "placed: player Ann"  # fields missing
    assert w.seat(-1) == "seat -1" and w.seat("x") == "seat x"


def test_every_reason_is_said_with_the_seats_as_the_players_know_them():
    """The reasons of games of every kind (tests/golden/results-prose-reasons.jsonl,
    read as today's codes): each names its seats by name or P1.., never as
    the rules number them."""
    from test_results_shape import SENTENCES

    w = Words(("Ann", "", "Cy"))
    kinds = set()
    for line in SENTENCES:
        for r in common(line["result"])["reasons"]:
            said = w.reason(r)
            kinds.add((r["why"], r.get("by")))
            assert not re.search(r"players? \d", said) and "why" not in said and "{" not in said, \
                said
            named = r["seats"] + [r[k] for k in ("declarer",) if k in r]
            for p in named if r["why"] == "tie" else ():
                assert w.seat(p) in said, (said, r)  # the winner: in the sentence around
    assert len(kinds) == 7
    assert w.reason({"why": "tie", "by": "rocks", "seats": [0, 3], "points": 7,
                     "rocks": [2, 1]}) == \
        "Ann and P4 tied on 7 points; fewer black rocks ranks higher (Ann 2, P4 1)"
    assert w.reason({"why": "tie", "by": "none", "seats": [1, 2], "points": 1, "rank": 2}) == \
        "P2 and Cy share rank 2: tied on 1 point, and the rulebook has no tie-breaker"
    assert w.reason({"why": "newer", "seats": [1]}) == "seats 1, why newer"


def test_a_purrfect_tie_announced_by_an_older_table_names_its_seats():
    """An older table announced the tie in a sentence numbering seats from 0
    (and its seats in `tied`): the monitor says who tied and who declared."""
    mirror = Mirror()
    mirror.apply(wire.ACT, {"gid": 1, "n": 9, "events": [
        {"type": "round over", "round": 4, "declarer": 1, "best": [0],
         "pawprints": [5, 4, 5, 0]},
        {"type": "game over", "winner": 1, "tied": [0, 2],
         "reason": "players 0, 2 tied at 5 pawprints; player 1 won this round's two pawprints"}]})
    assert mirror.feed[-1].endswith(
        "P2 wins: P1 and P3 tied at 5 pawprints; P2 won this round's two pawprints"), mirror.feed
    alone = {"type": "game over", "winner": 1, "reason": "players 0, 2 tied; player 1 won"}
    assert Words().event(alone) == "P2 wins"  # no pawprints to tell the tie by: no sentence
