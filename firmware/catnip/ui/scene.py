# What the table shows between two changes of scene: Setup, Play, End or the
# tray's calibration. One lifecycle, the App's alone (App.change): the scene
# up leaves (its code goes from the heap), the next is built and enters, and
# every screen is drawn afresh. In between, the App hands it the stations'
# buttons and the time, and carries out the command it answers (the App's
# COMMANDS); the frame (catnip.ui.frame) asks it what to draw. Every default
# here is what a scene with nothing of the kind does.
from catnip import forget


class Scene:
    kind = None  # the scene's module under catnip.ui: dropped when it leaves
    lists_stations = False  # it shows which stations answer: one lost or back needs no notice
    shared = True  # every station shows its state: a press redraws them all
    holds_game = False  # a game's screens are up: its heap is in use, the signing waits

    def enter(self):
        """The scene is up: every screen is drawn from it next."""

    def leave(self):
        """The next scene follows: this one's code goes from the heap."""
        for name in self.modules():
            forget(name)

    def modules(self):
        return ("catnip.ui." + self.kind,)

    def key(self, station, button, kind):
        """A button event on `station`: a command for the App, or None."""
        return None

    def tick(self, now, settled):
        """The time is `now` (ticks_ms()); `settled`: every screen shows the
        scene as it is. A command for the App, or None."""
        return None

    def refused(self, station, why):
        """A command of this scene's, from `station`, was refused: say why there."""

    def announce(self, events, now):
        """Public events of a move: the tunes they play (say() them as well)."""
        return ()

    def draw(self, station, fb):
        """Station `station`'s whole screen on `fb`."""

    def quiet(self, events):
        """The rows (bits) that a move with public `events` alone changed on
        the stations but its player's, or 0: it may have changed anything."""
        return 0

    def draw_rows(self, station, fb, rows):
        """Only `rows` (bits, as quiet() said) of `station`'s screen on `fb`;
        False if its screen is not the one quiet() spoke for (draw() it)."""
        return False

    def draw_table(self, fb):
        """The table display; False leaves it to the frame (its own page)."""
        return False

    def alike(self, station):
        """What `station` shows that others may show pixel for pixel (a key
        for the frame to compare), or None: drawn for it alone."""
        return None

    def headline(self):
        """The announcement up on every station now, or None."""
        return None

    def headed(self, station):
        """Whether `station` shows the headline now."""
        return False

    def showing(self):
        """The stations (bits) that show the headline now."""
        return 0

    def epoch(self):
        """Counts what every station shows alike (announcements put up):
        when it changes, every screen is drawn again."""
        return 0
