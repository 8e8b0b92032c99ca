# Rounds of a 3-6 player Meow Heist, each expectation worked out by hand from
# the rulebook: reveal order, most valuable gems first, black rocks for a
# shortage, the Thief's Code and its chains, leftover gems, used cards.
from heist_check import loot_of, play_round, refused, rigged

from catnip.rules.heist import Heist


def four_players():
    """Four players, physical gems so the scenario chooses them; safe cards
    come up 10, 9, 8, ..."""
    return rigged([10, 9, 8, 7, 6, 5, 11, 12], players=4, gems="physical")


def shields(game):
    return [game.view(p)["shield"] for p in range(game.players())]


def test_round_one_most_valuable_first_rocks_for_the_shortage_and_a_theft():
    game = four_players()
    # Safe 10: 2 red, 3 yellow, 5 blue. Seats reveal 0, 1, 2, 3.
    events = play_round(game, [4, 3, 4, 5], gems=(2, 3, 5))
    assert loot_of(events, "take") == [
        (0, 4, [2, 2, 0, 0]),  # the two reds, then two yellows
        (1, 3, [0, 1, 2, 0]),
        (3, 5, [0, 0, 3, 2]),  # three blues left: two black rocks make up five
    ]
    # Seat 2's 4 repeats seat 0's: it takes seat 0's loot, not the safe's.
    assert loot_of(events, "steal") == [(2, 4, [2, 2, 0, 0])]
    assert [e["from"] for e in events if e["type"] == "steal"] == [0]
    assert shields(game) == [[0, 0, 0, 0], [0, 1, 2, 0], [2, 2, 0, 0], [0, 0, 3, 2]]


def test_reveals_and_events_come_in_table_order():
    game = four_players()
    events = play_round(game, [4, 3, 4, 5], gems=(2, 3, 5))
    assert [e["type"] for e in events] == [
        "play", "play", "play", "play", "take", "take", "steal", "take", "collect", "safe"]
    assert events[-1] == {"type": "safe", "round": 2, "start": 1, "card": 9}


def test_a_chain_of_thefts_and_leftover_gems_leave_the_game():
    game = four_players()
    play_round(game, [4, 3, 4, 5], gems=(2, 3, 5))
    # Round 2 starts at seat 1; safe 9: 1 red, 2 yellow, 6 blue.
    events = play_round(game, [1, 2, 2, 2], gems=(1, 2, 6))
    assert [(e["type"], e["player"]) for e in events if e["type"] in ("take", "steal")] == [
        ("take", 1), ("steal", 2), ("steal", 3), ("take", 0)]
    # The loot follows the most recent 2: seat 1 -> seat 2 -> seat 3.
    assert [e["from"] for e in events if e["type"] == "steal"] == [1, 2]
    assert loot_of(events, "steal") == [(2, 2, [1, 1, 0, 0]), (3, 2, [1, 1, 0, 0])]
    assert loot_of(events, "take") == [(1, 2, [1, 1, 0, 0]), (0, 1, [0, 1, 0, 0])]
    collect = [e for e in events if e["type"] == "collect"][0]
    assert collect["removed"] == [0, 0, 6]
    pub = game.public()
    assert pub["removed"] == [0, 0, 6] and pub["safe"] == [0, 0, 0]
    assert shields(game) == [[0, 1, 0, 0], [0, 1, 2, 0], [2, 2, 0, 0], [1, 1, 3, 2]]


def test_black_rocks_are_stolen_with_the_gems():
    game = four_players()
    play_round(game, [4, 3, 4, 5], gems=(2, 3, 5))
    play_round(game, [1, 2, 2, 2], gems=(1, 2, 6))
    # Round 3 starts at seat 2; safe 8: all blue. Seats reveal 2, 3, 0, 1.
    events = play_round(game, [3, 3, 6, 3], gems=(0, 0, 8))
    assert loot_of(events, "take") == [(2, 6, [0, 0, 6, 0]), (3, 3, [0, 0, 2, 1])]
    assert loot_of(events, "steal") == [(0, 3, [0, 0, 2, 1]), (1, 3, [0, 0, 2, 1])]
    assert shields(game) == [[0, 1, 0, 0], [0, 1, 4, 1], [2, 2, 6, 0], [1, 1, 3, 2]]
    assert game.public()["bag"] == [7, 25, 41]


def test_revealed_cards_stay_face_up_until_the_round_ends():
    game = rigged([6, 5, 7, 8, 9, 10], players=3, gems="physical", start=1)
    game.act(1, ("gems", 0, 1, 5))
    game.act(0, ("play", 2))
    game.act(1, ("play", 6))
    pub = game.public()
    assert pub["table"] == [] and [s["committed"] for s in pub["seats"]] == [True, True, False]
    events = game.act(2, ("play", 6))
    # Seat 1 started: its 6 took everything, then seat 2's 6 stole it.
    assert loot_of(events, "take")[0] == (1, 6, [0, 1, 5, 0])
    assert loot_of(events, "steal") == [(2, 6, [0, 1, 5, 0])]
    assert loot_of(events, "take")[1] == (0, 2, [0, 0, 0, 2])
    # The round is over: the table is cleared and the cards set aside.
    assert game.public()["table"] == []
    assert game.view(1)["used"] == [6] and 6 not in game.view(1)["hand"]


def test_the_table_shows_the_revealed_cards_and_their_loot_mid_round():
    # With two players the round pauses between reveals, so the table can be
    # seen with some cards up and some still face down.
    game = rigged([5, 8, 6, 7], players=2, gems="physical")
    game.act(0, ("gems", 0, 0, 5))
    game.act(0, ("play", 4))
    game.act(1, ("play", 4))
    game.act(1, ("gems", 0, 0, 8))
    game.act(0, ("play", 1, 6))
    game.act(1, ("play", 2, 3))
    game.act(1, ("reveal", 3))
    pub = game.public()
    assert pub["table"] == [[1, 3, [0, 0, 3, 0]]]
    assert [s["face_down"] for s in pub["seats"]] == [2, 1]
    assert pub["seats"][1]["loot"] == [0, 0, 3, 0] and pub["turn"] == 0


def test_start_player_rotates_clockwise_and_reveals_follow_it():
    game = Heist({"players": 6, "start": 4}, "rotation")
    starts = []
    while game.result() is None:
        pub = game.public()
        starts.append(pub["start"])
        events = []
        for seat in range(6):
            events += game.act(seat, game.legal(seat)[0])
        reveals = [e["player"] for e in events if e["type"] in ("take", "steal")]
        assert reveals == [(pub["start"] + i) % 6 for i in range(6)]
    assert starts == [4, 5, 0, 1, 2, 3]


def test_used_cards_are_set_aside_for_the_rest_of_the_game():
    game = rigged([5, 6, 7, 8, 9], players=5)
    play_round(game, [6, 5, 4, 2, 1])
    assert game.view(0)["used"] == [6] and game.view(0)["hand"] == [1, 2, 3, 3, 4, 5]
    assert ("play", 6) not in game.legal(0)
    refused(game, 0, ("play", 6), "your 6 was used in an earlier round")
    refused(game, 1, ("play", 5), "your 5 was used")  # five players keep a single 5
    play_round(game, [3, 3, 3, 3, 3])
    assert game.view(0)["used"] == [3, 6] and game.view(0)["hand"] == [1, 2, 3, 4, 5]
    game.act(0, ("play", 3))  # the second 3 is still available
    refused(game, 0, ("play", 4), "cannot act now")


def test_nobody_runs_out_of_cards_before_the_safe_cards_do():
    for n in range(3, 7):
        game = Heist({"players": n}, "last cards")
        while game.result() is None:
            for seat in range(n):
                game.act(seat, game.legal(seat)[-1])  # always the highest card left
        for seat in range(n):
            view = game.view(seat)
            assert len(view["used"]) == game.public()["rounds"]
            assert len(view["hand"]) == {3: 2, 4: 2, 5: 2, 6: 2}[n]


def test_original_edition_cards_return_every_round():
    game = rigged([5, 6, 7, 8, 9, 10], players=3, variant="original")
    for _ in range(6):
        assert all(game.legal(p) == [("play", v) for v in range(1, 7)] for p in range(3))
        play_round(game, [6, 6, 1])
        for p in range(3):
            assert game.view(p)["used"] == []
    assert game.result() is not None


def test_original_edition_keeps_the_thiefs_code():
    game = rigged([12, 5, 6, 7, 8, 9], players=3, variant="original", gems="physical")
    events = play_round(game, [5, 5, 5], gems=(1, 4, 7))
    assert loot_of(events, "take") == [(0, 5, [1, 4, 0, 0])]
    assert loot_of(events, "steal") == [(1, 5, [1, 4, 0, 0]), (2, 5, [1, 4, 0, 0])]
    assert game.public()["removed"] == [0, 0, 7]


def test_playing_is_refused_with_a_reason_and_changes_nothing():
    game = rigged([5, 6, 7, 8, 9, 10], players=3)
    cases = [
        ((), "starts with its name"),
        ((3,), "starts with its name"),
        (("dance",), "unknown action 'dance'"),
        (("play",), "play 1 card face down"),
        (("play", 3, 4), "play 1 card face down"),
        (("play", "3"), "a card is its number"),
        (("play", True), "item 1 is True, but an action holds words and whole numbers"),
        (("play", 3.0), "item 1 is 3.0"),
        (("play", 0), "there is no cat card 0"),
        (("play", 7), "there is no cat card 7"),
        (("reveal", 3), "played face down now"),
        (("gems", 1, 2, 2), "draws the gems itself"),
    ]
    for action, words in cases:
        refused(game, 0, action, words)
    game.act(0, ("play", 3))
    refused(game, 0, ("play", 4), "cannot act now; waiting for 1, 2")


def test_the_game_ends_after_the_last_safe_card():
    game = rigged([5, 6, 7, 8, 9], players=5)
    for r in range(5):
        assert game.result() is None and game.public()["round"] == r + 1
        events = play_round(game, [game.legal(p)[0][1] for p in range(5)])
    assert events[-1]["type"] == "end" and game.public()["phase"] == "over"
    assert game.to_act() == [] and all(game.legal(p) == [] for p in range(5))
    refused(game, 0, ("play", 3), "the game is over")
