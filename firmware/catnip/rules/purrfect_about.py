# Purrfect as catnip describes it to settle(), the setup screen and the
# laptop (the fields: catnip.rules.about). PURE: data only.
ABOUT = {
    "title": "Purrfect", "short": "Purrfect", "module": "catnip.rules.purrfect",
    "class": "Purrfect",
    "players": ({"when": None, "least": 4, "most": 7, "default": 4,
                 "why": "Purrfect is for 4 to 7 players"},),
    "options": (
        # stations: the device holds the hands and makes the swaps;
        # scorekeeper: paper cards, the device keeps the meows and the score
        {"key": "mode", "label": "Cards", "choices": ("stations", "scorekeeper"),
         "says": ("stations", "paper"), "names": ("", "")},
    ),
    "table": (),
    "settings": (),
    "high_scores": False,
}
