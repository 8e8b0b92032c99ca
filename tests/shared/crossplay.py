# One seeded game, summarised as JSON-ready data, so the same run on CPython
# and on MicroPython can be compared field by field. Any difference (a dict
# iterated in another order, a float rounded differently) breaks replay of a
# Pico's log on the laptop.
from catnip import rules
from catnip.rules.rng import Rng, commit


def transcript(name, config, seed, chooser_seed, steps=400):
    game = rules.new(name, config, seed)
    pick = Rng(chooser_seed)
    events = []
    for _ in range(steps):
        if game.result() is not None:
            break
        player = pick.choice(game.to_act())
        events.append(game.act(player, pick.choice(game.legal(player))))
    journal = game.journal()
    # The salt is fresh in every game; the commitment is compared under a
    # fixed one instead, with the interpreter's own check that it verifies.
    salt = journal.pop("salt")
    verified = journal.pop("seed_commit") == commit(seed, salt)
    return {
        "journal": journal,
        "commitment": [verified, commit(seed, "0123456789abcdef" * 2)],
        "events": events,
        "public": game.public(),
        "views": [game.view(p) for p in range(game.players())],
        "result": game.result(),
    }


def sensible(players, seed, chooser_seed, noise=0):
    """A Purrfect game played to its end by the seeded sensible players that
    the tests and benches use: its log and result."""
    from purrfect_play import play_sensibly

    game = play_sensibly(rules.new("purrfect", {"players": players}, seed), chooser_seed,
                         noise=noise)
    return {"log": game.log.pack(), "result": game.result()}


def tray_events(script, seed="same", stay=30):
    """What the tray says over a scripted session, calibrated on the trace
    as a maker would: (time, event) pairs, JSON-ready."""
    from tray_checks import calibrate, play, session

    cal = calibrate(80)[0].result()
    return [[t, e] for t, e in play(session(seed, script, stay=stay), cal).events]
