# What App.change builds: each scene's maker (its code imported once the
# last scene's has gone from the heap), and the extras at the table a game
# has beside its screens.
from catnip.flash import flashfile

SETUP_FILE = "setup.json"


def setup(app, resume):
    """The setup menu of `app`; `resume`: the journal's unfinished game, or None."""
    from catnip.ui.setup import Setup

    return Setup(app.stations, app.hw.answering, flashfile.load(SETUP_FILE), resume,
                 tray=app.weigh is not None, names=lambda: app.names, key=app.seal.shown,
                 phones=app.phones.offered)


def chosen(name):
    """The settings last chosen on the setup screen for game `name` (the
    table's own among them: the Clowder's name)."""
    return flashfile.load(SETUP_FILE, {}).get("options", {}).get(name, {})


def play(name, game, seats, stations, side, names):
    from catnip.ui.play import Play

    return Play(name, game, seats, stations, side, names)


def end(title, result, seats):
    # A game's last move is shown like any other; once its announcements
    # have been read (OK, or their time), the standings replace it.
    from catnip.ui.end import End, standings

    return End(title, standings(result), seats)


def side(name, app):
    """The extras at the table of game `name` (asked by its Play scene, told
    of its moves by the App), or None: Stack O' Cats's tray and Clowder
    high scores (catnip.table.stack_side)."""
    if name != "stack":
        return None
    from catnip.table.stack_side import Side

    return Side(app, lambda: chosen(name))
