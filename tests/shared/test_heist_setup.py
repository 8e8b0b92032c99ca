# Meow Heist setup for every player count, from the rulebook's Setup section
# and the original edition's, plus the settings catnip accepts.
from check import message
from heist_check import refused, rigged

from catnip import rules
from catnip.rules.engine import RuleError
from catnip.rules.heist import Heist, safe_cards

# Cat cards after the rulebook's removals, and safe cards dealt, per count.
HANDS = {
    2: [1, 2, 3, 4, 5, 6],
    3: [1, 2, 3, 3, 4, 4, 5, 6],
    4: [1, 2, 2, 3, 3, 4, 4, 5, 5, 6],
    5: [1, 2, 3, 3, 4, 5, 6],
    6: [1, 2, 3, 3, 4, 4, 5, 6],
}
SAFE_CARDS = {2: 4, 3: 6, 4: 8, 5: 5, 6: 6}


def test_registry_loads_heist():
    game = rules.new("heist", {"players": 3}, "registry")
    assert isinstance(game, Heist) and game.players() == 3


def test_cat_cards_per_player_count():
    for n, hand in HANDS.items():
        game = Heist({"players": n}, "cards")
        for p in range(n):
            view = game.view(p)
            assert view["hand"] == hand, (n, view["hand"])
            assert view["used"] == [] and view["face_down"] == []
        assert [s["hand"] for s in game.public()["seats"]] == [len(hand)] * n


def test_original_edition_gives_six_cards_to_everyone():
    for n in range(3, 7):
        game = Heist({"players": n, "variant": "original"}, "original")
        assert all(game.view(p)["hand"] == [1, 2, 3, 4, 5, 6] for p in range(n))
        assert game.public()["rounds"] == SAFE_CARDS[n]


def test_safe_cards_per_player_count():
    for n, count in SAFE_CARDS.items():
        seen = set()
        for i in range(40):
            game = Heist({"players": n}, "safe-%d-%d" % (n, i))
            pub = game.public()
            assert pub["rounds"] == count and pub["round"] == 1
            assert pub["safe_cards_left"] == count - 1
            cards = game.safe_shown + game.safe_deck
            assert len(set(cards)) == count
            seen.update(cards)
        # 15 and 16 leave the box for four or fewer players.
        top = 16 if n > 4 else 14
        assert seen == set(range(5, top + 1)), (n, sorted(seen))


def test_first_round_is_prepared_by_the_start_player():
    game = Heist({"players": 4, "start": 2}, "prepared")
    pub = game.public()
    assert pub["start"] == 2 and pub["phase"] == "play"
    assert pub["to_act"] == [0, 1, 2, 3]
    drawn = sum(pub["safe"])
    assert drawn == pub["safe_card"] == pub["safe_cards_shown"][0]
    assert [pub["bag"][c] + pub["safe"][c] for c in range(3)] == [10, 30, 60]
    assert pub["removed"] == [0, 0, 0] and pub["table"] == []


def test_digital_draws_follow_the_seed():
    a = Heist({"players": 5}, "same seed")
    b = Heist({"players": 5}, "same seed")
    assert a.public() == b.public()
    draws = set()
    for i in range(20):
        draws.add(tuple(Heist({"players": 5}, "draw-%d" % i).public()["safe"]))
    assert len(draws) > 10


def test_digital_draws_are_fair_to_each_colour():
    # 100 games' first draws: the colours come out near 1:3:6.
    got = [0, 0, 0]
    for i in range(100):
        safe = Heist({"players": 6}, "fair-%d" % i).public()["safe"]
        for c in range(3):
            got[c] += safe[c]
    total = sum(got)
    assert abs(got[0] / total - 0.1) < 0.03, got
    assert abs(got[1] / total - 0.3) < 0.05, got
    assert abs(got[2] / total - 0.6) < 0.05, got


def test_defaults():
    game = Heist(None, "defaults")
    assert game.config == {"players": 4, "variant": "standard", "gems": "digital", "start": 0}


def test_bad_settings_are_named():
    cases = [
        ({"players": 7}, "2 to 6 players"),
        ({"players": 1}, "2 to 6 players"),
        ({"players": "4"}, "2 to 6 players"),
        ({"players": True}, "2 to 6 players"),
        ({"players": 3, "variant": "deluxe"}, "variant must be one of standard, original"),
        ({"players": 2, "variant": "original"}, "3-6 players"),
        ({"players": 3, "gems": "glass"}, "gems must be one of digital, physical"),
        ({"players": 3, "start": 3}, "from 0 to 2"),
        ({"players": 3, "start": -1}, "from 0 to 2"),
        ({"players": 3, "colour": "red"}, "unknown setting 'colour'"),
    ]
    for config, words in cases:
        msg = message(RuleError, Heist, config, "bad")
        assert words in msg, (config, msg)


def test_settings_survive_replay_unchanged():
    game = Heist({"players": 5, "gems": "physical", "start": 4}, "settled")
    again = Heist(game.config, "settled", game.salt)
    assert again.config == game.config and again == game


def test_no_action_before_the_game_knows_the_player():
    game = Heist({"players": 3}, "seats")
    refused(game, 3, ("play", 1), "no player 3")
    assert "no player 3" in message(RuleError, game.view, 3)
    for seat in (3, -1, "0", 0.0, True):
        assert "no player" in message(RuleError, game.legal, seat)


def test_the_bag_never_runs_dry():
    # The highest safe cards a game can deal never add up to the 100 gems.
    for n, count in SAFE_CARDS.items():
        assert sum(sorted(safe_cards(n))[-count:]) <= 84
    game = rigged([14, 13, 12, 11, 10, 9, 8, 7], players=4)
    while game.result() is None:
        for seat in range(4):
            game.act(seat, game.legal(seat)[0])
    assert sum(game.public()["bag"]) == 16
