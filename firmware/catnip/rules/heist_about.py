# Meow Heist as catnip describes it to settle(), the setup screen and the
# laptop (the fields: catnip.rules.about). PURE: data only.
ABOUT = {
    "title": "Meow Heist", "short": "Heist", "module": "catnip.rules.heist", "class": "Heist",
    "players": (
        {"when": ("variant", ("original",)), "least": 3, "most": 6, "default": 4,
         "why": "the original edition is for 3-6 players; two players always use the "
                "2-player rules (variant 'standard')"},
        {"when": None, "least": 2, "most": 6, "default": 4,
         "why": "Meow Heist is for 2 to 6 players"},
    ),
    "options": (
        {"key": "variant", "label": "Rules", "choices": ("standard", "original"),
         "says": ("new", "original"), "names": ("", "Original edition")},
        {"key": "gems", "label": "Gems", "choices": ("digital", "physical"),
         "says": ("catnip", "bag"), "names": ("", "")},
    ),
    "table": (),
    "settings": (("start", 0),),
    "high_scores": False,
}
