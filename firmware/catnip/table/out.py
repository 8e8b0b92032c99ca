# What leaves the App: its writes to the game's journal, the messages it
# tells the serial line and the notices every station shows. One place, so a
# journal that fails is said once and a message nobody listens for is never
# built.
from catnip import wire
from catnip.rules import TITLES


class Out:
    """The journal, the line and the notices of `app` (catnip.table.app.App)."""

    def __init__(self, app):
        self.app = app

    def record(self, write, *args):
        """A write to the game's journal: none when the journal could not
        begin it (the table was told then), so the fault is said once."""
        if self.app.gid is not None:
            return self.write(write, *args)
        return None

    def write(self, write, *args):
        """`write(*args)` on the journal; a fault is said, not raised."""
        from catnip.flash.journal import JournalError

        try:
            return write(*args)
        except (JournalError, OSError) as e:
            # The game goes on in RAM; a power cut now would lose its tail.
            self.say("Journal: %s" % e)
            return None

    def say(self, text):
        """A message for the whole table: every station's bottom line (the
        frame keeps a few, each once: catnip.ui.frame), the line."""
        app = self.app
        if app.frame.notice(text, app.loop.now):
            self.send(wire.SAY, text=text)

    def lost(self, games):
        """Say on every station and on the line (kept for a laptop's resync)
        that these games were removed before a laptop pulled them; the
        journal keeps the list until a laptop acknowledges each."""
        for gid, status, title in games:
            why = "removed to make room before a laptop pulled it"
            self.say("Game %d (%s, %s) was %s" % (gid, TITLES.get(title, title), status, why))
            self.send(wire.LOST, gid=gid, game=title, status=status, why=why)

    def send(self, kind, **fields):
        """`kind` with `fields` on the line, if a laptop listens for it (with
        none, a snapshot's state is not even built)."""
        app = self.app
        line = app.line
        if line is None or not line.wants(kind):
            return
        if (kind == wire.SNAP or kind == wire.BEGIN) and app.phones.seats:
            fields["phones"] = list(app.phones.seats)  # the laptop makes a link for each
        if kind == wire.SNAP:
            game = app.game
            fields["gid"] = app.gid if game is not None else None
            fields["game"] = app.name
            fields["public"] = game.public() if game is not None else None
        line.send(kind, **fields)
