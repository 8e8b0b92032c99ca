# Stack O' Cats as catnip describes it to settle(), the setup screen and the
# laptop (the fields: catnip.rules.about). The component counts are not
# published: the defaults (32 colourful cats, 8 black) are the counts for
# which the rulebook's removal table gives every player count the same
# number of turns (docs/stack.md). PURE: data only.
PLAIN = ("composure", "patient")
CLOWDERS = ("Whiskers", "Tabbies", "Mittens", "Night Owls", "Yarnballs", "Purrers",
            "Tuxedos", "Calicos")

ABOUT = {
    "title": "Stack O' Cats", "short": "Stack", "module": "catnip.rules.stack", "class": "Stack",
    "players": (
        # The Clowder names no limit; 8 keeps turns coming round. The setup
        # tables stop at 6.
        {"when": ("mode", ("clowder",)), "least": 1, "most": 8, "default": 1,
         "why": "the Clowder Collaboration is for 1 to 8 players"},
        {"when": None, "least": 2, "most": 6, "default": 2,
         "why": "Catlike Composure and Patient Paws are for 2 to 6 players; alone, play the "
                "Clowder Collaboration"},
    ),
    "options": (
        {"key": "mode", "label": "Mode", "choices": ("composure", "patient", "clowder"),
         "says": ("composure", "patient", "clowder"),
         "names": ("Catlike Composure", "Patient Paws", "Clowder"), "apart": True},
        # The Black Cat variant, on composure or patient
        {"key": "black_cat", "label": "Black cat", "choices": (False, True),
         "says": ("off", "on"), "names": ("", "Black Cat"), "when": ("mode", PLAIN)},
        # 2 points for each black cat touched, or once
        {"key": "black_touch", "label": "Touches", "choices": ("each", "once"),
         "says": ("2 each", "2 once"), "names": ("", ""), "when": ("black_cat", (True,))},
        # digital: the engine draws; physical: the players report their draws
        {"key": "draw", "label": "Draw", "choices": ("digital", "physical"),
         "says": ("catnip", "bag"), "names": ("", "")},
    ),
    "table": (
        # The clowder's name in the high-score table
        {"key": "clowder", "label": "Team", "choices": CLOWDERS, "says": CLOWDERS,
         "when": ("mode", ("clowder",))},
    ),
    "settings": (
        ("start", 0),
        ("colours", ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"]),
        ("per_colour", 4),  # cats of each colour
        ("black_cats", 8),  # black cats (the small bag)
        ("table_colour", None),  # Clowder: the colour set out with the black cats
        ("cat_grams", 6),  # mass of one cat, for showing weights in grams
    ),
    "high_scores": True,
}
