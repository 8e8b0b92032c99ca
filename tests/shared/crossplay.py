# One seeded game, summarised as JSON-ready data, so the same run on CPython
# and on MicroPython can be compared field by field. Any difference (a dict
# iterated in another order, a float rounded differently) breaks replay of a
# Pico's log on the laptop.
from catnip import rules
from catnip.rules.rng import Rng


def transcript(name, config, seed, chooser_seed, steps=400):
    game = rules.new(name, config, seed)
    pick = Rng(chooser_seed)
    events = []
    for _ in range(steps):
        if game.result() is not None:
            break
        player = pick.choice(game.to_act())
        events.append(game.act(player, pick.choice(game.legal(player))))
    return {
        "journal": game.journal(),
        "events": events,
        "public": game.public(),
        "views": [game.view(p) for p in range(game.players())],
        "result": game.result(),
    }
