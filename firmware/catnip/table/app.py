# The table app: what each button press does. It turns presses into game
# actions, journals every accepted one before any screen shows it, marks
# what changed for redrawing and tells the serial line what is public.
#
# Scenes (catnip.ui.scene): Setup, Play, End or, between games, the tray's
# calibration. A scene answers key() and tick() with what the table should do
# and draws each station; the App does it: act, journal, announce, and change
# scenes, in one place (change()). Screens show only what a station may see.
#
# The App decides; catnip.table.loop says when (the buttons, the screens,
# the line and the tray on their own schedules) and catnip.ui.frame draws
# what surrounds the scene (notices, the loading page, the table display).
from catnip import rules, wire
from catnip.flash import flashfile
from catnip.keys import (BACK, LONG, OFFLINE, ONLINE, PRESS, RELEASE, REPEAT, TABLE, TRAY,
                         BackOnRelease)
from catnip.rules import TITLES, RuleError  # not the engine: a game's start loads it
from catnip.parts.sound import Sound
from catnip.table.loop import Loop, PicoClock, hold_room, make_room, tidy, unload
from catnip.table import scenes
from catnip.table.out import Out
from catnip.table.seal import Seal
from catnip.table.wall import Wall
from catnip.ui import draw
from catnip.ui.frame import Frame

# What a scene's key() or tick() may answer, the first item of its tuple:
# ("act", seat, action), ("answer", seat, value), ("start", game, config, seats),
# ("resume",), ("calibrate", step: "begin" or the calibration's), ("end",) the
# game in play, ("over",) its standings are due, ("rematch",), ("setup",).
COMMANDS = ("act", "answer", "start", "resume", "calibrate", "end", "over", "rematch", "setup")
# Said when a game's code finds no room in the heap: a power-up leaves it whole.
NO_ROOM = "Out of memory for the game: turn the table off and on, then try again"


class App:
    """The table on `hw` (catnip.parts.hardware.Hardware for every station of the
    board) with `journal` (catnip.flash.journal.Journal). `line` (catnip.link.line.Line)
    is optional; `weigh` (catnip.table.weigh.Weigh) too, for a board with a tray.
    `clock` gives ticks_ms() and sleep_ms(ms) (a coroutine): the Pico's by
    default, the simulated table's in tests. `seeds()` gives each new game's
    seed (default: 128 random bits), so a test can play the same game twice."""

    def __init__(self, hw, journal, line=None, weigh=None, clock=None, notices=(), seeds=None,
                 room=None):
        self.hw = hw
        self.journal = journal
        self.line = line
        self.weigh = weigh
        self.side = None  # the extras at the table of the game in play (scenes.side)
        self.clock = clock or PicoClock()
        self.seeds = seeds
        self.stations = len(hw.screens)
        self.sound = Sound(hw.buzzer)
        self.frame = Frame(hw, self.clock)
        self.loop = Loop(hw, self.clock, self.frame, self.sound, self, line, weigh)
        self.phones = scenes.Stations(self)  # the seats, none on phones yet (phoned())
        self.out = Out(self.frame, self.loop, line, self.in_play, lambda: self.phones)
        self.game = self.name = self.seats = None  # the game in play, its title, its places
        self.gid = None  # the journal's number for the game in play
        self.back = BackOnRelease()
        self.scene = self.remote = None  # the scene up; the laptop's commands' (command())
        self.calibration = None  # a catnip.table.calibrate.Session while the tray is calibrated
        self.ended = False  # the game in play is over and its end journaled (ending)
        self.room = room  # a catnip.room.Room for the first game's code (catnip.start), or None
        self.wall = Wall(hw, self.clock, line.boot if line else None)
        self.seal = Seal(journal, self.clock, self.out.send)  # signs each game it ends
        from catnip.table.naming import kept  # forgotten as a game starts (scenes.play)
        self.names, self.known = kept(hw, self.stations)  # by station; all it has seen
        if line is not None:
            line.listen(self.command)
        self._setup()
        for text in list(notices) + list(journal.problems):
            self.out.say(text)
        self.out.lost(journal.lost)

    # ---- scenes -------------------------------------------------------------

    def change(self, make=None, *args):
        """The one way the table changes scene: the scene up leaves (its code
        goes from the heap), make(*args) builds the next, which enters, and
        every screen shows it. With no `make`, none is up (a game's code loads)."""
        if self.scene is not None:
            self.scene.leave()
            self.scene = None
        if make is not None:
            self.scene = make(*args) if self.room is None else self.room.spare(make, *args)
            self.scene.enter()
            self.frame.show(self.scene)

    def _setup(self, problem=None):
        """The setup menu, saying `problem` if given (why a game did not start)."""
        self.game = None
        self.phones.begin(())
        self.change(scenes.setup, self, self.journal.resumable())
        if problem is not None:
            self.scene.refused(self.loop.pressed, problem)
        if self.weigh is not None:
            self.weigh.stop()

    def _load(self, name):
        """Before a game of `name` loads: the last title's game, its extras and the room go."""
        if self.name is not None and self.name != name:
            self.game = None
            if self.side is not None:
                self.side.stop()  # the tray's code with Stack O' Cats
                self.side = None
        self.room = None
        make_room(self.name, name)

    def start(self, name, config, seats):
        # The press waits while the game's code loads from flash (a few
        # hundred ms on the Pico): its station says so at once. The game's
        # own screens follow on every station.
        # Each step below leaves garbage among what the game keeps: collected
        # after each (tidy), the next fills its holes, and a long game's moves
        # find the rest of the heap in one piece (docs/pico.md).
        self.frame.loading("Starting %s..." % TITLES.get(name, name), self.loop.pressed)
        self.change()  # setup's menus go before the game's code loads
        self._load(name)
        room = hold_room()
        try:
            game = rules.new(name, config, self.seeds() if self.seeds is not None else None)
        except RuleError as e:  # settings the rules refuse: setup says why
            self._setup(str(e))
            return
        tidy()
        header = game.journal()  # seed and salt included: the journal keeps the secrets
        del header["log"], header["finished"]
        header["seats"] = seats
        names = [self.names[k] if k < len(self.names) else "" for k in seats]
        if any(names):
            header["names"] = names  # public: the records take them
        known = list(self.journal.lost)
        room = None  # noqa: F841 (the journal's file takes its place)
        tidy()
        self.gid = self.out.write(self.journal.begin, header)
        tidy()
        self.out.record(self.journal.note, self.wall.note("began"))
        self.out.lost([g for g in self.journal.lost if g not in known])  # rotated out to make room
        self._play(name, game, seats, header.get("names"))
        tidy()
        self.out.send(wire.BEGIN, gid=self.gid, header=game.header(), seats=seats, moves=0,
                      names=header.get("names"))
        self.out.send(wire.SNAP)

    def resume(self):
        gid, header, _ = self.journal.resumable()
        self.frame.loading("Resuming %s..." % TITLES.get(header.get("game"), "the game"),
                           self.loop.pressed)
        self._load(header.get("game"))
        try:
            game = rules.rebuild(header, ((e[1], e[2]) for e in self.journal.entries(gid)
                                          if e[0] == "action"))
            seats = header["seats"]
            self.journal.resume(gid)
            self.gid = gid
            self.out.record(self.journal.note, self.wall.note("resumed"))
        except (RuleError, ValueError, KeyError, TypeError) as e:
            # Written by other firmware, or damaged in a way no CRC saw: the
            # game stays on flash for a laptop, and the table starts afresh.
            self.journal.abandon(gid)
            self.out.say("Game %d cannot be resumed (%s); it stays in the journal" % (gid, e))
            self._setup()
            return
        self._play(header["game"], game, seats, header.get("names"))
        self.out.send(wire.BEGIN, gid=gid, header=game.header(), seats=seats, moves=len(game.log),
                      names=header.get("names"))
        self.out.send(wire.SNAP)
        self.out.say("Resumed %s, %s in" % (TITLES[header["game"]],
                                            draw.counted(len(game.log), "move")))
        if game.result() is not None:
            self._over()

    def _play(self, name, game, seats, names=None):
        if self.gid is not None:  # the journal keeps its actions, not the heap as well
            from catnip.flash.journal_log import JournalLog

            game.keep_log(JournalLog(self.journal, self.gid, len(game.log)))
        self.name, self.game, self.seats = name, game, seats
        self.commit = game.seed_commit[:wire.COMMIT_ID]  # in its live frames: whose they are
        self.ended = False
        unload("catnip.flash.journal_scan")  # its records too: recording the game needs none of it
        self.change()
        self.side = scenes.side(name, self)
        self.change(scenes.play, name, game, seats, self.phones.begin(seats), self.side, names)
        if self.side is not None:
            self.side.begin(game)
        elif self.weigh is not None:
            self.weigh.stop()

    def ending(self):
        """The game is over: its end journaled and told, once. Done while the
        players read the last move (the loop's idle turn), with the standings'
        code loaded from flash, so the press that brings them does not wait.
        The buttons are read between its steps: it holds the loop longer
        than a press lasts. Nothing unless a game is over and not yet ended."""
        if self.ended or self.game is None or self.game.result() is None:
            return
        self.ended = True
        result = self.game.result()
        self.out.record(self.journal.note, self.wall.note("ended"))
        self.loop.sample()
        self.out.record(self.journal.finish, result)
        signs = self.seal.finished(self.gid)  # no code loaded yet: no buttons read after it
        self.out.send(wire.END, gid=self.gid, commit=self.commit, result=result, signs=signs)
        if self.side is not None:
            self.side.ended(result)
        import catnip.ui.end  # noqa: F401
        self.loop.sample()

    def _over(self):
        self.ending()
        self.change(scenes.end, TITLES[self.name], self.game.result(), self.seats)
        self.seal.prepare()  # into the heap the game's screens left
        self.sound.play("end", self.loop.now)

    def in_play(self):
        """(journal number or None, title, game or None) of the game in play."""
        return self.gid, self.name, self.game

    # ---- events -------------------------------------------------------------

    def on_event(self, event):
        """A button event, a station lost or back, the tray's health."""
        station, kind, button = event
        if button == BACK and station < TRAY:
            kind = self.back.kind(station, kind)  # None: nothing yet
            if kind is None:
                return
        if station == TRAY or station == TABLE:
            if station == TRAY and self.weigh is not None:
                self.weigh.health(kind == ONLINE)
            return
        if kind == OFFLINE or kind == ONLINE:
            self.frame.mark(station)
            if not self.scene.lists_stations:  # setup lists the stations that answer
                self.out.say("Station %d is back" % (station + 1) if kind == ONLINE else
                         "Station %d: not answering: check its cable" % (station + 1))
            return
        if kind != RELEASE:
            self.loop.busy()  # the loop tidies up once its screens are out
        self.key(station, button, kind)

    def key(self, station, button, kind):
        """A button event on `station`: the App does what the scene answers."""
        scene = self.scene
        epoch = scene.epoch()
        out = scene.key(station, button, kind)  # an announcement never takes a press
        if scene.epoch() != epoch or scene.shared and kind in (PRESS, REPEAT, LONG):
            self.frame.all_dirty()  # a menu every station shares, the next announcement
        else:
            self.frame.mark(station)
        if out is not None:
            self._do(station, out)
        elif epoch != scene.epoch():
            self.tick(self.loop.now)  # OK moved a finished game's last announcement on

    def tick(self, now):
        """Timed changes: the scene's (announcements, the standings), the notices."""
        scene = self.scene
        epoch, showed = scene.epoch(), scene.showing()  # its change redraws only those
        out = scene.tick(now, self.frame.settled())
        if scene.epoch() != epoch:
            self.frame.changed(showed | scene.showing())
        if out is not None:
            self._do(None, out)
        self.frame.expire(now)
        self.phones.tick(now)  # the phone seats' screens that changed, to the laptop
        self.out.tick()  # a move's snapshot, once its screens are out

    def chores(self, erase, stop):
        """The loop's idle turn: the journal's erases (`erase`; stop(): a press
        came), else, between games only, a few ms of signing finished games."""
        if erase:
            self.out.record(self.journal.ready, stop)
        else:
            self.seal.step(not self.scene.holds_game)

    def _do(self, station, out):
        word = out[0]
        if word == "act":
            self.act(out[1], out[2])
        elif word == "answer":
            self.answer(out[1], out[2])
        elif word == "end":
            self.end_game("%s ended from station %d" % (TITLES[self.name], station + 1))
        elif word == "over":
            self._over()
        elif word == "calibrate":
            try:
                self.calibrate(station, out[1])
            except ValueError as e:  # a step refused: the scene says why
                self.scene.refused(station, str(e))
        elif word == "start" or word == "resume" or word == "rematch":
            try:
                self._begin(word, out)
            except MemoryError:  # stock MicroPython: no piece of its heap takes the game's code
                self._setup(NO_ROOM)
        elif word == "setup":
            self._setup()
        else:
            raise ValueError("a scene answered %r: not one of %s" % (out, COMMANDS))

    def _begin(self, word, out):
        if word == "rematch":
            self.start(self.name, self.game.config, self.seats)
            return
        remembered = self.scene.remembered()
        if word == "resume":
            self.resume()
        else:
            self.start(out[1], out[2], out[3])
        flashfile.keep(scenes.SETUP_FILE, remembered)  # after: the press's station answers first

    def end_game(self, why):
        """The game in play is abandoned (from a station's menu, or the
        laptop): the journal says so, the table says `why`, setup follows."""
        self.out.record(self.journal.abandon)
        self.out.say(why)
        self._setup()

    def calibrate(self, station, step="begin"):
        """Begin calibrating the tray from station k (None: the laptop), or take
        `step` of the one going on. Its code is loaded only while it runs;
        ValueError says why it cannot begin, or why the step cannot be taken."""
        if self.calibration is not None:
            self.calibration.at_station(station, step)
            return self.calibration
        import sys

        loaded = list(sys.modules)
        tidy()
        from catnip.table.calibrate import begin

        session = begin(self, station, loaded)
        self.calibration = session
        self.game = None  # a finished game's standings make way
        self.change(session.scene)
        return session

    def rename(self, names, known):
        """The players' names by station and every name the table knows (kept on
        flash by the caller): the setup shows them, the next game journals them."""
        self.names, self.known = names, known
        self.frame.all_dirty()

    def calibrated(self):
        """The calibration ended (saved or stopped): back to setup."""
        self.calibration = None
        self._setup()

    def act(self, seat, action):
        """Carry out a player's action: refused, it changes nothing and the
        station says why; accepted, it is journaled before anything shows it."""
        try:
            events = self.game.act(seat, action)
        except RuleError as e:
            self.scene.refused(self.seats[seat], str(e))
            self.sound.play("error", self.loop.now)
            self.frame.mark(self.seats[seat])
            return
        self.out.record(self.journal.action, seat, action)
        if self.side is not None:
            record = self.side.acted(seat, action)
            if record is not None:
                self.out.record(self.journal.note, record)
        self.loop.busy()
        self.out.send(wire.ACT, gid=self.gid, commit=self.commit, n=len(self.game.log),
                      events=events)
        self.out.snapshot()  # once the stations show the move
        for tune in self.scene.announce(events, self.loop.now):
            self.sound.play(tune, self.loop.now)
        self.frame.moved(self.scene.quiet(events), self.seats[seat])  # a quiet move: its rows

    def answer(self, seat, value):
        """A person answered the tray's question (Stack O' Cats): no game
        action; the game's side journals it as a note, as the tray's records."""
        record = self.side.answer(seat, value) if self.side is not None else None
        if record is not None:
            self.out.record(self.journal.note, record)
        self.frame.all_dirty()

    # ---- the laptop ----------------------------------------------------------

    def command(self, word, fields):
        """A command from the laptop (catnip.link.line; catnip.link.remote carries it out)."""
        if self.remote is None:
            from catnip.link.remote import Remote

            self.remote = Remote(self, self.line)
        self.remote.command(word, fields)

    def phoned(self):
        """The phone seats' keeper (catnip.table.phones), loaded when first needed; then kept."""
        if type(self.phones) is scenes.Stations:
            from catnip.table.phones import Phones
            self.phones = Phones(self)
        return self.phones

