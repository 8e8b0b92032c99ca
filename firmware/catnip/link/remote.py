# What the table does for a laptop's commands (catnip.wire.COMMANDS; the
# line has checked their fields). A command that cannot be carried out is
# answered with an "err" frame saying why, and changes nothing.
from catnip import wire
from catnip.flash.journal import JournalError
from catnip.rules.engine import RuleError

PULL_PAGE = 24  # journal entries per "pull" answer: a burst the line can take
PHONE_WORDS = ("claim", "release", "press", "away")  # the App's phone seats carry them out


class Remote:
    """What `app` (catnip.table.app.App) does for the commands on its `line`."""

    def __init__(self, app, line):
        self.app = app
        self.line = line
        self._reading = None  # (gid, next entry, its generator) of the pull in progress

    def command(self, word, fields):
        if word in PHONE_WORDS:
            self._phone(word, fields)
        else:
            getattr(self, "_" + word)(self.line, fields)

    def _phone(self, word, fields):
        """A phone seat's command: the App carries it out and answers, or it
        is refused with why (nothing changed)."""
        try:
            self.app.phoned().command(word, fields)
        except ValueError as e:
            self.line.error("%s: %s" % (word, e))

    def _hello(self, line, fields):
        from catnip.version import FIRMWARE, build

        app = self.app
        key = app.seal.public if app.seal is not None else None
        line.send(wire.HELLO, app="catnip", fw=FIRMWARE, board=app.hw.board.name,
                  stations=app.stations, game=app.name if app.game is not None else None,
                  gid=app.gid, key=key.hex() if key is not None else None, **build())

    def _snapshot(self, line, fields):
        self.app.out.send(wire.SNAP)
        if self.app.weigh is not None:
            self.app.weigh.retell()
        line.send(wire.SYNCED, last=line.seq)

    def _games(self, line, fields):
        journal, seal = self.app.journal, self.app.seal
        line.send(wire.GAMES, games=[[gid, "signing" if status == "finished" and seal is not None
                                      and seal.waits(gid) else status]  # pulled once signed
                                     for gid, status in journal.games()] +
                  [[gid, "lost"] for gid, _, _ in journal.lost])

    def _pull(self, line, fields):
        """One page of a game that ended: its header (seed included) with the
        first page, then PULL_PAGE entries from `from`, then "page". A
        damaged game gives what is readable, its last page saying where the
        damage begins."""
        gid, start = fields["gid"], fields["from"]
        journal = self.app.journal
        status = dict(journal.games()).get(gid)
        if status not in ("finished", "pulled", "abandoned", "broken"):
            line.error("game %s is %s: only a game that has ended can be pulled"
                       % (gid, status or "not in the journal"))
            return
        if start == 0:
            line.send(wire.GAME, gid=gid, status=status, header=journal.header(gid))
        reading = self._reading
        if reading is None or reading[0] != gid or reading[1] != start:
            reading = [gid, 0, journal.entries(gid)]  # read on from flash, one entry at a time
        entries = reading[2]
        done = damage = None
        try:
            while reading[1] < start:  # a laptop asking for a page again
                if next(entries, None) is None:
                    break
                reading[1] += 1
            for _ in range(PULL_PAGE):
                entry = next(entries, None)
                if entry is None:
                    done = True
                    break
                line.send(wire.ENTRY, gid=gid, i=reading[1], e=list(entry))
                reading[1] += 1
        except JournalError as e:  # the rest cannot be read: what was is the game
            done, damage = True, str(e)
        self._reading = None if done else reading
        if damage is None and done:
            from catnip.flash.seals import load

            sig, key = load(journal, gid), self.app.seal.public if self.app.seal else None
            line.send(wire.PAGE, gid=gid, next=reading[1], done=True, ms=self.app.clock.ticks_ms(),
                      boot=line.boot, sig=sig.hex() if sig is not None else None,
                      key=key.hex() if sig is not None else None)
        elif damage is None:
            line.send(wire.PAGE, gid=gid, next=reading[1], done=False)
        else:
            line.send(wire.PAGE, gid=gid, next=reading[1], done=True, damage=damage)

    def _ack(self, line, fields):
        gid = fields["gid"]
        self.app.journal.release(gid)
        line.send(wire.ACKED, gid=gid)

    def _start(self, line, fields):
        app = self.app
        if app.game is not None and app.game.result() is None:
            line.error("a game is in play: abort it first")
            return
        if app.calibration is not None:
            line.error("the tray is being calibrated: save or stop that first")
            return
        name, config, seats = fields["game"], dict(fields["config"]), fields["seats"]
        online = [k for k in range(app.stations) if app.hw.online(k) is not False]
        phones = range(app.stations, app.stations + wire.PHONES)  # a laptop is here: it speaks
        if not seats or len(set(seats)) != len(seats) or \
                any(type(k) is not int or k not in online and k not in phones for k in seats):
            line.error("seats are the stations that sit in, each once, from those online: %s; "
                       "or phone places %d-%d" % (online, phones[0], phones[-1]))
            return
        config["players"] = len(seats)
        try:
            app.start(name, config, seats)
        except (RuleError, ValueError, TypeError) as e:
            line.error("start: %s" % e)
            return
        line.send(wire.STARTED, gid=app.gid)

    def _abort(self, line, fields):
        app = self.app
        if app.game is None or app.game.result() is not None:
            line.error("no game is in play, so there is none to abort")
            return
        app.end_game("Game stopped from the laptop")
        line.send(wire.ABORTED, gid=app.gid)

    def _calibrate(self, line, fields):
        """A tray calibration step (catnip.table.calibrate, loaded while one runs).
        A weighing is answered when it ends, a second or two later."""
        app, re = self.app, line.re

        def reply(why, answer):
            if why is not None:
                line.answer(re, wire.ERR, why=why)
            else:
                line.answer(re, wire.CALIB, **answer)

        try:
            if app.calibration is None:
                if fields["step"] != "begin":
                    line.error("no tray calibration is going on: begin one first")
                    return
                app.calibrate(None)
            app.calibration.command(fields["step"], reply)
        except ValueError as e:  # catnip.table.calibrate.Refused: in words for the maker
            line.error(str(e))

    def _clock(self, line, fields):
        import time

        self.app.wall.set(fields["time"])  # the RP2040's clock set, and games dated from now on
        line.send(wire.CLOCK, time=int(time.time()))

    def _names(self, line, fields):
        """The players' names by station: checked, kept on flash for this
        board, then the table's. Refused, nothing changes (the old names stay)."""
        from catnip import wire
        from catnip.flash import tablenames

        app, names = self.app, fields["names"]
        try:
            known = tablenames.save(app.hw.board.name, app.stations, names)
        except wire.WireError as e:
            line.error("names: %s; the names stay as they were" % e)
            return
        except OSError as e:
            line.error("names: the flash did not keep them (%s); the names stay as they were" % e)
            return
        app.rename(names, known)
        line.send(wire.NAMED, names=names)

    def _stop(self, line, fields):
        line.send(wire.BYE, why="the app stops; the REPL is yours")
        raise SystemExit("stopped from the laptop")
