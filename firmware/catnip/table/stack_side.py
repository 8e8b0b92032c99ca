# Stack O' Cats at the table, beside its screens: the tray (catnip.table.weigh)
# weighs each attempt and hears the answers to its questions, and a
# Clowder's score joins the device's high scores. The App knows this only as
# the side of the game in play (App._side): begin, view, acted, answer,
# ended, stop; the game's Play scene asks it what each view adds.
from catnip import forget


class Side:
    """`chosen()`: the settings last chosen at setup (the Clowder's name)."""

    def __init__(self, app, chosen):
        self.app = app
        self.chosen = chosen
        self.weigh = app.weigh  # None on a table without a tray

    def begin(self, game):
        """The game starts (or resumes)."""
        if self.weigh is not None:
            self.weigh.begin(game, self.app.frame.all_dirty, self.app.out.send)

    def view(self, seat):
        """What `seat`'s view (None: the public one) adds: the tray's state."""
        return None if self.weigh is None else self.weigh.view(seat)

    def acted(self, seat, action):
        """A player's report was accepted: what the tray made of it, as a
        record to journal beside it, or None."""
        return None if self.weigh is None else self.weigh.acted(seat, action)

    def answer(self, seat, value):
        """A person answered the tray's question (how many cats are on it):
        the record to journal, or None when nothing was asked."""
        return None if self.weigh is None else self.weigh.answer(value)

    def ended(self, result):
        """The game is over: a Clowder's score goes to the high scores; the
        tray keeps what it learned of the cats."""
        if result["together"]:
            from catnip.flash import highscores

            name = self.chosen().get("clowder", "Clowder")
            rank = highscores.add([name], result["scores"][0])
            if rank is not None:
                self.app.out.say("Clowder high score: rank %d" % rank)
        if self.weigh is not None:
            self.weigh.finished()

    def stop(self):
        """Another game follows: the tray's code goes too (heap)."""
        if self.weigh is not None:
            self.weigh.stop()
        import sys

        for name in [m for m in sys.modules if m.startswith("catnip.tray")]:
            forget(name)
