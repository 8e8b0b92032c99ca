# Each game's description (catnip.rules.about) is what settle() holds a
# config to: every choice it offers is taken, anything else is refused, and
# its player ranges are exactly the counts a game starts with.
from check import message

from catnip import rules
from catnip.rules.about import about, applies, has_start, players
from catnip.rules.engine import RuleError


def _configs(name):
    """A config for every combination of the offered choices, with the
    options that do not apply left out, as the setup screen sends them."""
    d = about(name)
    found = [{}]
    for o in d["options"]:
        grown = []
        for c in found:
            if not applies(d, o["key"], c):
                grown.append(c)
                continue
            for value in o["choices"]:
                more = dict(c)
                more[o["key"]] = value
                grown.append(more)
        found = grown
    return found


def test_every_offered_choice_starts_a_game_at_every_count_its_range_allows():
    for name in rules.NAMES:
        for config in _configs(name):
            least, most, default, why = players(about(name), config)
            assert least <= default <= most and why
            for n in range(least, most + 1):
                c = dict(config)
                c["players"] = n
                g = rules.new(name, c, "about")
                for key in config:
                    assert g.config[key] == config[key], (name, key)
            for n in (least - 1, most + 1):
                c = dict(config)
                c["players"] = n
                assert why in message(RuleError, rules.new, name, c, "about"), (name, c)
            assert rules.new(name, config, "about").players() == default


def test_a_choice_not_offered_is_refused_by_name():
    for name in rules.NAMES:
        for o in about(name)["options"]:
            text = message(RuleError, rules.new, name, {o["key"]: "nothing like it"}, "about")
            assert text.startswith(o["key"] + " must be"), text
            if o["choices"] != (False, True):
                assert ", ".join(o["choices"]) in text, text


def test_the_settled_config_holds_every_setting_the_description_names():
    for name in rules.NAMES:
        d = about(name)
        config = rules.new(name, None, "about").config
        keys = ["players"] + [o["key"] for o in d["options"]] + [k for k, _ in d["settings"]]
        assert sorted(config) == sorted(keys), (name, config)
        for o in d["options"]:
            assert config[o["key"]] == o["choices"][0]  # the first choice is the default
            assert len(o["says"]) == len(o["choices"])
            assert "names" not in o or len(o["names"]) == len(o["choices"])
        assert has_start(d) == ("start" in config)


def test_the_tables_own_options_are_no_settings_of_the_rules():
    d = about("stack")
    assert [o["key"] for o in d["table"]] == ["clowder"]
    assert "unknown setting 'clowder'" in message(RuleError, rules.new, "stack",
                                                  {"clowder": "Tabbies"}, "about")
