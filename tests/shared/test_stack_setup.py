# Setup for every player count and variant, read from the rulebook's setup
# tables (docs/stack.md explains each reading).
from check import message, raises
from stack_checks import check_cats, physical

from catnip.rules import new
from catnip.rules.engine import RuleError

SEEDS = ["setup-%d" % k for k in range(12)]


def _game(players, seed="setup", **config):
    config["players"] = players
    return new("stack", config, seed)


def test_every_player_count_builds_a_base_of_four_and_removes_per_table():
    # players: (cats removed at random, black cats in the bag)
    table = {2: (0, 0), 3: (1, 0), 4: (0, 0), 5: (1, 8), 6: (0, 8)}
    for players, (removed, black) in table.items():
        for seed in SEEDS:
            g = _game(players, seed)
            pub = g.public()
            assert pub["tower"] == 4 and sum(pub["base"].values()) == 4
            assert sum(pub["removed"].values()) == removed, (players, pub)
            black_in_play = pub["bag"].get("black", 0) + pub["removed"].get("black", 0)
            assert black_in_play == black, (players, pub)
            # The base is built from the colourful cats, before black cats join.
            assert "black" not in pub["base"], (players, seed, pub["base"])
            assert pub["phase"] == "play" and pub["step"] == "draw" and pub["turn"] == 0
            check_cats(g)


def test_five_player_random_removal_may_take_a_black_cat():
    # The black cats join the bag before the fifth player's cat is removed.
    removed = set()
    for k in range(60):
        removed.update(_game(5, "five-%d" % k).public()["removed"])
    assert "black" in removed and len(removed) > 2


def test_default_components_give_every_player_the_same_number_of_turns():
    # 32 colourful cats and 8 black ones are the counts the rulebook's removal
    # table balances for every player count, with and without the variant.
    for black_cat in (False, True):
        for players in range(2, 7):
            bag = _game(players, black_cat=black_cat).public()["bag_left"]
            assert bag % players == 0, (players, black_cat, bag)


def test_black_cat_variant_adds_the_black_cats_at_every_player_count():
    for players in range(2, 7):
        seen_black_in_base = False
        for seed in SEEDS:
            pub = _game(players, seed, black_cat=True).public()
            in_play = pub["bag"].get("black", 0) + pub["base"].get("black", 0)
            assert in_play == 8, (players, pub)
            seen_black_in_base = seen_black_in_base or "black" in pub["base"]
            assert pub["tower_black"] == pub["base"].get("black", 0)
            removed = sum(pub["removed"].values())
            assert removed == (1 if players == 5 else 0), (players, pub)
            assert "black" not in pub["removed"]
        # The variant's base is drawn from every colour, black included.
        assert seen_black_in_base, players


def test_black_cat_variant_three_players_uses_every_cat():
    pub = _game(3, black_cat=True).public()
    assert pub["removed"] == {} and pub["bag_left"] == 36


def test_clowder_for_one_player_sets_out_black_and_one_colour():
    g = new("stack", {"mode": "clowder"}, "solo")
    pub = g.public()
    assert g.players() == 1
    assert pub["table"] == {"red": 4, "black": 8}
    assert "red" not in pub["bag"] and "black" not in pub["bag"]
    assert "red" not in pub["base"] and sum(pub["base"].values()) == 4
    assert pub["removed"] == {} and pub["bag_left"] == 24
    assert pub["step"] == "take" and pub["team"] == 0
    check_cats(g)


def test_clowder_table_colour_is_a_setting():
    pub = new("stack", {"mode": "clowder", "players": 6, "table_colour": "blue"}, "s").public()
    assert pub["table"] == {"blue": 4, "black": 8}


def test_physical_setup_asks_for_base_then_black_cats_join_then_removal():
    g = new("stack", {"players": 5, "draw": "physical", "mode": "patient"}, "p")
    assert g.public()["phase"] == "setup" and g.public()["step"] == "base"
    # Before they join, black cats cannot be wedged into the base.
    assert ("base", "black") not in g.legal(0)
    assert "no 'black' cat in the bag" in message(RuleError, g.act, 0, ("base", "black"))
    events = []
    for colour in ("red", "red", "blue", "pink"):
        events = g.act(0, ("base", colour))
    assert events[-1] == {"type": "join", "black_cats": 8}
    assert g.public()["step"] == "out" and ("out", "black") in g.legal(0)
    g.act(0, ("out", "black"))
    pub = g.public()
    assert pub["phase"] == "play" and pub["step"] == "drew"
    assert pub["base"] == {"red": 2, "blue": 1, "pink": 1}
    assert pub["removed"] == {"black": 1} and pub["bag"]["black"] == 7
    check_cats(g)


def test_physical_black_cat_five_players_leaves_a_non_black_cat_out_first():
    g = new("stack", {"players": 5, "draw": "physical", "black_cat": True}, "p")
    assert g.public()["step"] == "out"
    assert [a[1] for a in g.legal(0)] == ["red", "orange", "yellow", "green", "teal",
                                          "blue", "purple", "pink"]
    assert "choose one of" in message(RuleError, g.act, 0, ("out", "black"))
    g.act(0, ("out", "teal"))
    assert g.public()["step"] == "base" and ("base", "black") in g.legal(0)
    for colour in ("black", "black", "green", "teal"):
        g.act(0, ("base", colour))
    pub = g.public()
    assert pub["tower_black"] == 2 and pub["removed"] == {"teal": 1} and pub["bag_left"] == 35


def test_physical_setup_for_every_player_count():
    for players in range(2, 7):
        out = ["yellow"] * (1 if players in (3, 5) else 0)
        g = physical({"players": players}, ["red", "green", "blue", "pink"], out)
        assert g.public()["step"] == "drew" and g.public()["tower"] == 4
        check_cats(g)


def test_start_player_is_a_setting():
    g = _game(4, start=2)
    assert g.to_act() == [2] and g.public()["turn"] == 2
    assert "start must be from 0 to 3" in message(RuleError, _game, 4, start=4)


def test_settings_are_checked_and_named():
    cases = [
        ({"players": 1}, "alone, play the Clowder Collaboration"),
        ({"players": 7}, "players must be from 2 to 6"),
        ({"players": True}, "players must be a whole number"),
        ({"mode": "speed"}, "mode must be one of composure, patient, clowder"),
        ({"draw": "magic"}, "draw must be one of digital, physical"),
        ({"black_touch": "twice"}, "black_touch must be one of each, once"),
        ({"black_cat": 1}, "black_cat must be true or false"),
        ({"mode": "clowder", "black_cat": True}, "not clowder"),
        ({"black_cat": True, "black_cats": 0}, "set black_cats above 0"),
        ({"colours": []}, "colours must be a list"),
        ({"colours": ["red", "red"]}, "colour names must differ"),
        ({"colours": ["red", "black"]}, "leave black out of colours"),
        ({"colours": ["red", ""]}, "every colour needs a name"),
        ({"per_colour": 0}, "per_colour must be from 1 to 99"),
        ({"mode": "clowder", "table_colour": "gold"}, "table_colour must be one of"),
        ({"table_colour": "red"}, "table_colour is a clowder setting"),
        ({"cat_grams": 0}, "cat_grams must be a number of grams above 0"),
        ({"colours": ["red"], "per_colour": 3}, "the bag runs out during setup"),
        ({"colours": ["red"], "per_colour": 4}, "leaving no turn to play"),
        ({"colour": ["red"]}, "unknown setting 'colour'"),
    ]
    for config, expected in cases:
        text = message(RuleError, new, "stack", config, "s")
        assert expected in text, (config, text)


def test_settled_config_holds_every_default():
    g = new("stack", {}, "s")
    assert g.config == {
        "players": 2, "mode": "composure", "black_cat": False, "black_touch": "each",
        "draw": "digital", "start": 0,
        "colours": ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"],
        "per_colour": 4, "black_cats": 8, "table_colour": None, "cat_grams": 6,
    }
    assert new("stack", {"mode": "clowder"}, "s").config["players"] == 1
    assert new("stack", {"mode": "clowder", "players": 8}, "s").players() == 8
    text = message(RuleError, new, "stack", {"mode": "clowder", "players": 9}, "s")
    assert "the Clowder Collaboration is for 1 to 8 players" in text
    raises(RuleError, new, "stack", {"mode": "clowder", "players": 0}, "s")
