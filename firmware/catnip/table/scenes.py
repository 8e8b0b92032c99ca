# What App.change builds: each scene's maker (its code imported once the
# last scene's has gone from the heap), and the extras at the table a game
# has beside its screens: its side, and its seats on phones.
from catnip import forget, wire
from catnip.rules import ABOUTS
from catnip.flash import flashfile

SETUP_FILE = "setup.json"


def setup(app, resume):
    """The setup menu of `app`; `resume`: the journal's unfinished game, or None."""
    from catnip.table.naming import Picking  # forgotten as a game starts (play)
    from catnip.ui.setup import Setup

    return Setup(app.stations, app.hw.answering, flashfile.load(SETUP_FILE), resume,
                 tray=app.weigh is not None, names=lambda: app.names, key=app.seal.shown,
                 picking=Picking(app), phones=app.phones.offered)


def chosen(name):
    """The settings last chosen on the setup screen for game `name` (the
    table's own among them: the Clowder's name)."""
    return flashfile.load(SETUP_FILE, {}).get("options", {}).get(name, {})


def play(name, game, seats, stations, side, names):
    forget("catnip.table.naming")  # setup's name picker: loaded again when setup shows
    forget("catnip.flash.tablenames")
    from catnip.ui.play import Play

    scene = Play(name, game, seats, stations, side, names)
    # The game's description was read by its rules' settings and the scene:
    # it leaves the heap for the game (a taken-back result reads it again).
    forget(ABOUTS[name])
    return scene


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


class Stations:
    """Every seat of the game in play at a station of `app`: what App.phones
    is until a game seats a player on a phone or the laptop sends a phone
    seat's command. App.phoned() loads catnip.table.phones then (its Phones
    does this and more), some 1 KB of heap a table without phone seats
    never holds."""

    def __init__(self, app):
        self.app = app

    def offered(self):
        """Whether setup may seat players on phones: a laptop has spoken."""
        line = self.app.line
        return line is not None and line.wants(wire.VIEW)

    def listed(self):
        """The game's seats on phones, for the line's begin and snap."""
        return []

    def begin(self, seats):
        """The game in play seats its players at `seats` (seat -> place; ()
        between games). Returns how many places the scene has."""
        app = self.app
        for place in seats:
            if place >= app.stations:
                return app.phoned().begin(seats)
        return app.stations

    def tick(self, now):
        """Every pass of the loop: no phone seat's screen to send."""
