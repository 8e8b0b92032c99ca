# Purrfect as catnip describes it to settle(), the setup screen and the
# laptop (the fields: catnip.rules.about). PURE: data only.
ABOUT = {
    "players": ((None, 4, 7, 4, "Purrfect is for 4 to 7 players"),),
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
