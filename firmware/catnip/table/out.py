# What leaves the App: its writes to the game's journal, the messages it
# tells the serial line and the notices every station shows. One place, so a
# journal that fails is said once and a message nobody listens for is never
# built.
from catnip import wire
from catnip.rules import TITLES


class Out:
    """What leaves the table: `frame` (catnip.ui.frame.Frame) shows the
    notices, dated by `loop` (catnip.table.loop.Loop); `line`
    (catnip.link.line.Line, or None) takes the messages; in_play() says
    which game is in play (catnip.table.app.App's); phones() the App's
    keeper of its seats (catnip.table.scenes.Stations, or once a seat is on
    a phone catnip.table.phones.Phones), which says which are on phones."""

    def __init__(self, frame, loop, line, in_play, phones):
        self.frame = frame
        self.loop = loop
        self.line = line
        self.in_play = in_play
        self.phones = phones
        self.snap_due = False  # a move's snapshot waits for every screen (settled)

    def record(self, write, *args):
        """A write to the game's journal: none when the journal could not
        begin it (the table was told then), so the fault is said once."""
        if self.in_play()[0] is not None:
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
        if self.frame.notice(text, self.loop.now):
            self.send(wire.SAY, text=text)

    def lost(self, games):
        """Say on every station and on the line (kept for a laptop's resync)
        that these games were removed before a laptop pulled them; the
        journal keeps the list until a laptop acknowledges each."""
        for gid, status, title in games:
            why = "removed to make room before a laptop pulled it"
            self.say("Game %d (%s, %s) was %s" % (gid, TITLES.get(title, title), status, why))
            self.send(wire.LOST, gid=gid, game=title, status=status, why=why)

    def snapshot(self):
        """A move's snapshot for the laptop, sent once every screen shows
        the move (settled()): building and sending it takes the Pico some
        tens of ms, which no player at the table should wait for."""
        if self.line is not None and self.line.wants(wire.SNAP):
            self.snap_due = True

    def tick(self):
        """The snapshot due goes once every screen shows the table as it is
        (the frame says so)."""
        if self.snap_due and self.frame.settled():
            self.snap_due = False
            self.send(wire.SNAP)

    def send(self, kind, **fields):
        """`kind` with `fields` on the line, if a laptop listens for it (with
        none, a snapshot's state is not even built)."""
        line = self.line
        if line is None or not line.wants(kind):
            return
        if kind == wire.SNAP or kind == wire.BEGIN:
            phones = self.phones().listed()
            if phones:
                fields["phones"] = phones  # the laptop makes a link for each
        if kind == wire.SNAP:
            gid, name, game = self.in_play()
            fields["gid"] = gid if game is not None else None
            fields["game"] = name
            fields["public"] = game.public() if game is not None else None
        line.send(kind, **fields)
