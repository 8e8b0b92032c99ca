# The table app: one loop that turns button presses into game actions,
# journals every accepted one before any screen shows it, redraws what
# changed and tells the serial line what is public.
#
# Scenes. The table is in one scene at a time: Setup (choose a game), Play
# (a game on the stations), End (standings) or, between games, the tray's
# calibration (catnip.table.calibrate, loaded only for it). A scene answers key() with
# what the table should do and draws each station; the App carries it out:
# act, journal, announce, switch scenes. Screens are drawn only from what a
# station may see (catnip.ui).
#
# Each scene's code is loaded when the table enters it and dropped when it
# leaves (on the Pico imported code takes heap): setup's menus are not in
# RAM during a game, nor the game's screens during setup.
#
# Tasks. run() starts the button poll (every POLL_MS), the screen refresh
# (stations one at a time, with the buttons polled between, so a redraw never
# starves input), the serial line and, during Stack O' Cats, the tray.
import asyncio
import gc

from catnip import forget, rules
from catnip.flash import flashfile
from catnip.keys import LONG, OFFLINE, ONLINE, PRESS, RELEASE, REPEAT, TABLE, TRAY, ticks_diff
from catnip.rules import TITLES
from catnip.rules.engine import RuleError
from catnip.parts.sound import Sound
from catnip.ui import draw

POLL_MS = 10
FRAME_MS = 20
NOTICE_MS = 5000  # each table-wide message stays up this long
MAX_NOTICES = 4
SETUP_FILE = "setup.json"
# What a scene's key() may answer (or None): the first item of its tuple.
# ("act", seat, action), ("start", game, config, seats), ("resume",),
# ("calibrate",), ("end",) the game in play, ("rematch",), ("setup",).
COMMANDS = ("act", "answer", "start", "resume", "calibrate", "end", "rematch", "setup")


class App:
    """The table on `hw` (catnip.parts.hardware.Hardware for every station of the
    board) with `journal` (catnip.flash.journal.Journal). `line` (catnip.link.line.Line)
    is optional; `weigh` (catnip.table.weigh.Weigh) too, for a board with a tray.
    `clock` gives ticks_ms() and sleep_ms(ms) (a coroutine): the Pico's by
    default, the simulated table's in tests. `seeds()` gives each new game's
    seed (default: 128 random bits), so a test can play the same game twice."""

    def __init__(self, hw, journal, line=None, weigh=None, clock=None, notices=(), seeds=None):
        self.hw = hw
        self.journal = journal
        self.line = line
        self.weigh = weigh
        self.side = None  # the extras at the table of the game in play (its screens name them)
        self.clock = clock or _PicoClock()
        self.seeds = seeds
        self.stations = len(hw.screens)
        self.sound = Sound(hw.buzzer)
        self.dirty = [True] * self.stations
        self.table_dirty = True
        self.notices = []  # table-wide messages (a station lost, a journal problem), oldest first
        self.game = None
        self.name = None
        self.seats = None
        self.gid = None  # the journal's number for the game in play
        self.now = self.clock.ticks_ms()
        self.notice_at = self.now  # when the first notice went up
        self.pressed = 0  # the station pressed last
        self.remote = None
        self.scene = None
        self._canvas = None  # what the canvas holds when every station shows it alike
        self.calibration = None  # a catnip.table.calibrate.Session while the tray is calibrated
        self.collect = False  # a press or a move: collect the heap once its screens are out
        self.ended = False  # the game in play is over and its end journaled (_ending)
        self.wall = None  # (Unix seconds, ticks) the table's clock counts from; None: unknown
        self.names = flashfile.names(self.stations)  # the players' by station, from the laptop
        self._read_rtc()
        if line is not None:
            line.on_command = self.command
        self._setup()
        for text in list(notices) + list(journal.problems):
            self.say(text)
        self._lost(journal.lost)

    # ---- scenes -------------------------------------------------------------

    def online(self):
        """The stations that answer (or have not yet said they do not)."""
        return [k for k in range(self.stations) if self.hw.online(k) is not False]

    def _setup(self):
        resume = self.journal.resumable()
        self.game = None
        self._enter("setup")
        draw.named(None)
        from catnip.ui.setup import Setup

        self.scene = Setup(self.stations, self.online, flashfile.load(SETUP_FILE), resume,
                           tray=self.weigh is not None, names=lambda: self.names)
        if self.weigh is not None:
            self.weigh.stop()
        self.all_dirty()

    def _enter(self, kind):
        """Leave the scene in hand for one of `kind`: the old one's code goes."""
        old, self.scene = self.scene, None
        if old is not None and old.kind != kind:
            forget("catnip.ui." + old.kind)
            if old.kind == "play":
                forget("catnip.ui." + old.name)  # the game's own screens

    def _load(self, name):
        """A game of `name` is about to start: another title's code goes."""
        if self.name is not None and self.name != name:
            self.game = None
            unload("catnip.rules." + self.name)  # stack_setup with stack
            if self.side is not None:
                self.side.stop()  # the tray's code with Stack O' Cats
                self.side = None
        for other in rules.NAMES:  # the setup screen read every game's description
            if other != name:
                forget("catnip.rules.%s_about" % other)
        _tidy()  # the game's code is about to load: give it the heap in one piece

    def _loading(self, what):
        """The press that starts or resumes a game waits while the game's code
        loads from flash (a few hundred ms on the Pico): its station says so
        at once. The game's own screens follow on every station."""
        fb = self.hw.canvas
        draw.page(fb, what, 3)
        self._canvas = None
        screen = self.hw.screens[self.pressed]
        screen.take(fb)
        screen.flush(self.clock.ticks_ms())

    def start(self, name, config, seats):
        self._loading("Starting %s..." % TITLES.get(name, name))
        self._load(name)
        try:
            game = rules.new(name, config, self.seeds() if self.seeds is not None else None)
        except RuleError as e:  # settings the rules refuse: setup says why
            self._setup()
            self.scene.problem = str(e)
            return
        header = game.journal()  # seed and salt included: the journal keeps the secrets
        del header["log"], header["finished"]
        header["seats"] = seats
        names = [self.names[k] if k < len(self.names) else "" for k in seats]
        if any(names):
            header["names"] = names  # public: the records take them
        known = list(self.journal.lost)
        self.gid = self._journal(self.journal.begin, header)
        self._clock_note("began")
        self._lost([g for g in self.journal.lost if g not in known])  # rotated out to make room
        self._play(name, game, seats, header.get("names"))
        self.send("begin", gid=self.gid, header=game.header(), seats=seats, moves=0,
                  names=header.get("names"))
        self.send("snap")

    def resume(self):
        gid, header, _ = self.journal.resumable()
        self._loading("Resuming %s..." % TITLES.get(header.get("game"), "the game"))
        self._load(header.get("game"))
        try:
            game = rebuild(header)
            for entry in self.journal.entries(gid):
                if entry[0] == "action":
                    game.act(entry[1], entry[2])
            seats = header["seats"]
            self.journal.resume(gid)
            self.gid = gid
            self._clock_note("resumed")
        except (RuleError, ValueError, KeyError, TypeError) as e:
            # Written by other firmware, or damaged in a way no CRC saw: the
            # game stays on flash for a laptop, and the table starts afresh.
            self.journal.abandon(gid)
            self.say("Game %d cannot be resumed (%s); it stays in the journal" % (gid, e))
            self._setup()
            return
        self.gid = gid
        self._play(header["game"], game, seats, header.get("names"))
        self.send("begin", gid=gid, header=game.header(), seats=seats, moves=len(game.log),
                  names=header.get("names"))
        self.send("snap")
        self.say("Resumed %s, %d moves in" % (TITLES[header["game"]], len(game.log)))
        if game.result() is not None:
            self._over()

    def _play(self, name, game, seats, names=None):
        self.name, self.game, self.seats = name, game, seats
        self.ended = False
        draw.named(names)
        forget("catnip.flash.journal_scan")  # recording the game needs none of it
        self._enter("play")
        from catnip.ui.play import Play

        self.scene = Play(name, game, seats, self.stations)
        hook = getattr(self.scene.ui, "side", None)  # the game's extras at the table
        self.side = None if hook is None else hook(self)
        if self.side is not None:
            self.side.begin(self.scene)
        elif self.weigh is not None:
            self.weigh.stop()
        self.all_dirty()

    def _ending(self):
        """The game is over: its end journaled and told, once. Done while the
        players read the last move (App._idle), with the standings' code
        loaded from flash, so the press that brings them does not wait."""
        if self.ended:
            return
        self.ended = True
        result = self.game.result()
        self._clock_note("ended")
        self._record(self.journal.finish, result)
        self.send("end", gid=self.gid, result=result)
        if self.side is not None:
            self.side.ended(result)
        import catnip.ui.end  # noqa: F401

    def _over(self):
        self._ending()
        self._enter("end")
        from catnip.ui.end import End, standings

        self.scene = End(TITLES[self.name], standings(self.game.result()), self.seats)
        self.sound.play("end", self.now)
        self.all_dirty()

    def chosen(self):
        """The settings last chosen on the setup screen for the game in play
        (the table's own among them: the Clowder's name)."""
        return flashfile.load(SETUP_FILE, {}).get("options", {}).get(self.name, {})

    # ---- events -------------------------------------------------------------

    def on_event(self, event):
        station, kind, button = event
        if station == TRAY or station == TABLE:
            if station == TRAY and self.weigh is not None:
                self.weigh.health(kind == ONLINE)
            return
        if kind == OFFLINE or kind == ONLINE:
            self._station_health(station, kind == ONLINE)
            return
        self.pressed = station  # its screen is refreshed first
        if kind != RELEASE:
            self.collect = True  # once its screens are out (_idle)
        self.key(station, button, kind)

    def _station_health(self, station, online):
        self.dirty[station] = True
        if self.scene.kind == "setup":
            if online and station not in self.scene.seats and self.game is None:
                pass  # a station plugged in after boot can be ticked in Seats
            return
        if online:
            self.say("Station %d is back" % (station + 1))
        else:
            self.say("Station %d: not answering: check its cable" % (station + 1))

    def key(self, station, button, kind):
        """A button event on `station`: the scene answers with a command
        (COMMANDS) or None, and the App carries it out."""
        scene = self.scene
        if scene.kind == "play":
            if scene.banner:
                self.all_dirty()  # OK on any station moves every screen on
                scene.key(station, button, kind)
                self._standings_due()
                return
            if self.game.result() is not None:
                return  # over, its last announcement gone by time: the standings are due
            out = scene.key(station, button, kind)
            self.dirty[station] = True
        else:
            out = scene.key(station, button, kind)
            if kind == PRESS or kind == REPEAT or kind == LONG:
                self.all_dirty()  # setup, the standings, the calibration: on every station
        if out is not None:
            self._do(station, out)

    def _do(self, station, out):
        word = out[0]
        if word == "act":
            self.act(out[1], out[2])
        elif word == "answer":
            self.answer(out[1], out[2])
        elif word == "end":
            self.end_game("%s ended from station %d" % (TITLES[self.name], station + 1))
        elif word == "calibrate":
            try:
                self.calibrate(station)
            except ValueError as e:
                self.scene.problem = str(e)
        elif word == "start" or word == "resume":
            remembered = self.scene.remembered()
            if word == "resume":
                self.resume()
            else:
                self.start(out[1], out[2], out[3])
            flashfile.save(SETUP_FILE, remembered)  # after: the press's station answers first
        elif word == "rematch":
            self.start(self.name, self.game.config, self.seats)
        elif word == "setup":
            self._setup()
        else:
            raise ValueError("a scene answered %r: not one of %s" % (out, COMMANDS))

    def end_game(self, why):
        """The game in play is abandoned (from a station's menu, or the
        laptop): the journal says so, the table says `why`, setup follows."""
        self._record(self.journal.abandon)
        self.say(why)
        self._setup()

    def calibrate(self, station):
        """Begin calibrating the tray from station k (None: the laptop). Its
        code is loaded now and unloaded when it ends; ValueError says why it
        cannot begin."""
        import sys

        loaded = list(sys.modules)
        _tidy()
        from catnip.table.calibrate import begin

        session = begin(self, station, loaded)
        self.calibration = session
        self.game = None  # a finished game's standings make way
        self.scene = session.screen
        return session

    def rename(self, names):
        """The players' names by station (checked and kept on flash by the
        caller): the setup shows them, and the next game journals them."""
        self.names = names
        self.all_dirty()

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
            self.scene.refused(seat, str(e))
            self.sound.play("error", self.now)
            self.dirty[self.seats[seat]] = True
            return
        self._record(self.journal.action, seat, action)
        if self.side is not None:
            record = self.side.acted(seat, action)
            if record is not None:
                self._record(self.journal.note, record)
        self.collect = True
        self.send("act", gid=self.gid, n=len(self.game.log), events=events)
        self.send("snap")
        for ev in events:
            tune = self.scene.ui.sound(ev)
            if tune is not None:
                self.sound.play(tune, self.now)
        self.scene.announce(events, self.now)
        self.all_dirty()  # a last move's standings follow its announcements (tick)

    def answer(self, seat, value):
        """A person answered a question of the table's own (the tray's, in
        Stack O' Cats): no game action; the game's side journals it as a
        note, as the tray's records are."""
        record = self.side.answer(seat, value) if self.side is not None else None
        if record is not None:
            self._record(self.journal.note, record)
        self.all_dirty()

    # ---- the date ---------------------------------------------------------------

    def _read_rtc(self):
        rtc = getattr(self.hw, "rtc", None)
        if rtc is None:
            return
        try:
            t = rtc.time()
        except OSError:  # the clock module does not answer: games go undated
            return
        if t is not None:
            self.wall = (t, self.clock.ticks_ms())

    def set_time(self, t):
        """A laptop's clock (Unix seconds, UTC), sent whenever one connects:
        the table keeps it, and sets the DS3231 if one is fitted."""
        self.wall = (t, self.clock.ticks_ms())
        rtc = getattr(self.hw, "rtc", None)
        if rtc is not None:
            try:
                rtc.set(t)
            except (OSError, ValueError):
                pass  # the date holds until the next power cut, as without a module

    def wall_time(self):
        """Unix seconds now, or None while the table does not know the time."""
        if self.wall is None:
            return None
        t, at = self.wall
        return t + ticks_diff(self.clock.ticks_ms(), at) // 1000

    def _clock_note(self, what):
        """When the game began, resumed or ended, by the table's clock (None
        when it has none), and its ticks: the laptop's date and length for a
        game it did not watch."""
        self._record(self.journal.note, {"clock": what, "at": self.wall_time(),
                                         "ms": self.clock.ticks_ms()})

    def _record(self, write, *args):
        """A write to the game's journal: none when the journal could not
        begin it (the table was told then), so the fault is said once."""
        if self.gid is not None:
            self._journal(write, *args)

    def _journal(self, write, *args):
        from catnip.flash.journal import JournalError

        try:
            return write(*args)
        except (JournalError, OSError) as e:
            # The game goes on in RAM; a power cut now would lose its tail.
            self.say("Journal: %s" % e)
            return None

    # ---- out ------------------------------------------------------------------

    def say(self, text):
        """A message for the whole table: every station's bottom line, the line.
        One already waiting is not queued again, and at most MAX_NOTICES wait
        (the oldest not yet shown goes): a fault that repeats with every move
        must not fill the screens, nor the heap."""
        if text in self.notices:
            return
        if not self.notices:
            self.notice_at = self.now
        elif len(self.notices) >= MAX_NOTICES:
            self.notices.pop(1)
        self.notices.append(text)
        self.send("say", text=text)
        self.all_dirty()

    def _lost(self, games):
        """Say on every station and on the line (kept for a laptop's resync)
        that these games were removed before a laptop pulled them; the
        journal keeps the list until a laptop acknowledges each."""
        for gid, status, title in games:
            why = "removed to make room before a laptop pulled it"
            self.say("Game %d (%s, %s) was %s" % (gid, TITLES.get(title, title), status, why))
            self.send("lost", gid=gid, game=title, status=status, why=why)

    def send(self, kind, **fields):
        if self.line is None:
            return
        if kind == "snap":
            fields["gid"] = self.gid if self.game is not None else None
            fields["game"] = self.name
            fields["public"] = self.game.public() if self.game is not None else None
        self.line.send(kind, **fields)

    def command(self, word, fields):
        """A command from the laptop (catnip.link.line; catnip.link.remote carries it out)."""
        if self.remote is None:
            from catnip.link.remote import Remote

            self.remote = Remote(self)
        self.remote.command(word, fields)

    # ---- screens ----------------------------------------------------------------

    def all_dirty(self):
        """Every station's screen and the table display are redrawn at the next pass."""
        for k in range(self.stations):
            self.dirty[k] = True
        self.table_dirty = True

    def redraw(self, k):
        """Draw station k's screen (on the canvas, then into its panel's
        frame; flush sends it). A screen every station shows alike (an
        announcement) is drawn once and taken by each."""
        fb = self.hw.canvas
        scene = self.scene
        alike = scene.alike() if scene.kind == "play" else None
        if alike is not None:
            alike = (alike, self.notices[0] if self.notices else None)
        if alike is None or alike != self._canvas:
            self._draw(k, fb, scene)
            self._canvas = alike
        self.hw.screens[k].take(fb)
        self.dirty[k] = False

    def _draw(self, k, fb, scene):
        scene.draw(k, fb)
        if self.notices:
            draw.notice(fb, self.notices[0])

    def redraw_table(self):
        fb = self.hw.canvas
        self._canvas = None  # the canvas is the table display's now
        if self.scene.kind == "play":
            self.scene.draw_table(fb)
        else:
            draw.page(fb, self.notices[0] if self.notices else "Choose a game on any station", 2)
        self.hw.table.take(fb)
        self.table_dirty = False

    # ---- the loop ---------------------------------------------------------------

    def poll(self, now):
        """Read the buttons and carry out every event waiting; True if there
        was one."""
        self.now = now
        self.hw.poll(now)
        handled = False
        while True:
            event = self.hw.next()
            if event is None:
                break
            self.on_event(event)
            handled = True
        self.sound.update(now)
        return handled

    def tick(self, now):
        """Timed changes: the announcement shown, the standings once the last
        move's have been read, the notice line."""
        scene = self.scene
        if scene.kind == "play":
            if scene.banner_due(now):
                scene.next_banner(now)
                self.all_dirty()
            self._standings_due()
        if self.notices and ticks_diff(now, self.notice_at) > NOTICE_MS:
            self.notices.pop(0)
            self.notice_at = now
            self.all_dirty()

    def _standings_due(self):
        # A game's last move is shown like any other; once its announcements
        # have been read (OK, or their time), the standings replace it.
        if not self.scene.banner and self.game.result() is not None:
            self._over()

    def refresh(self, k, now):
        """Bring station k's panel up to date (redraw if needed, send what changed)."""
        if self.dirty[k]:
            self.redraw(k)
        self.hw.screens[k].flush(now)

    def step(self, now):
        """One pass of everything, for tests and the virtual table: poll, then
        every screen."""
        self.poll(now)
        self.tick(now)
        n = self.stations
        for i in range(n):  # the station pressed last first: its player waits
            self.refresh((self.pressed + i) % n, now)
        if self.hw.table is not None:
            if self.table_dirty:
                self.redraw_table()
            self.hw.table.flush(now)
        if self.line is not None:
            self.line.poll()
        if self.weigh is not None:
            self.weigh.poll()
        self._idle()

    def serve(self):
        """Run the table until the laptop stops it (catnip.link.remote); the REPL
        follows. Ctrl-C on the line is data meanwhile, not an interrupt."""
        import micropython

        micropython.kbd_intr(-1)
        try:
            asyncio.run(self.run())
        except SystemExit as e:
            print("catnip: app stopped (%s); the REPL is yours" % e)
        finally:
            micropython.kbd_intr(3)

    async def run(self):
        clock = self.clock
        asyncio.create_task(self._buttons())
        changed = getattr(getattr(self.hw, "buttons", None), "changed", None)
        if changed is not None:
            asyncio.create_task(self._changed(changed))
        if self.line is not None:
            asyncio.create_task(self._line())
        if self.weigh is not None:
            asyncio.create_task(self.weigh.run())
        while True:
            n = self.stations
            for i in range(n):
                # The station pressed last first: its player is waiting. The
                # buttons get their turn between drawing a panel (some 20 ms
                # on the Pico) and sending it (up to 25 ms), and between panels.
                k = (self.pressed + i) % n
                if self.dirty[k]:
                    self.redraw(k)
                    await clock.sleep_ms(0)
                self.hw.screens[k].flush(clock.ticks_ms())
                await clock.sleep_ms(0)
            if self.hw.table is not None:
                if self.table_dirty:
                    self.redraw_table()
                self.hw.table.flush(clock.ticks_ms())
            self.tick(clock.ticks_ms())
            self._idle()
            await clock.sleep_ms(FRAME_MS)

    def _idle(self):
        # What no press should wait for, done once a press's screens are all
        # out, while the players read them: a collection (10-30 ms on the
        # Pico; left to an allocation, it lands in the middle of the next
        # press, and asking gc.mem_free() whether one is due costs 8 ms), a
        # finished game's end, and the journal's seal of a full tail (an erase).
        if self.collect and True not in self.dirty:
            self.collect = False
            _tidy()
            if self.scene.kind == "play" and self.game.result() is not None:
                self._ending()
            self._record(self.journal.ready)

    async def _buttons(self):
        while True:
            self._read_buttons()
            await self.clock.sleep_ms(POLL_MS)

    async def _changed(self, changed):
        # The expanders' shared INT line fell: poll now, not up to POLL_MS later.
        while True:
            await changed.wait()
            self._read_buttons()

    def _read_buttons(self):
        if self.poll(self.clock.ticks_ms()):
            # The player who pressed is watching their screen: it is redrawn
            # and sent now, not at the screen loop's next turn.
            self.refresh(self.pressed, self.clock.ticks_ms())

    async def _line(self):
        while True:
            self.line.poll()
            await self.clock.sleep_ms(POLL_MS)


def unload(prefix):
    """Forget every module whose name starts with `prefix`."""
    import sys

    for name in [m for m in sys.modules if m.startswith(prefix)]:
        forget(name)


def _tidy():
    gc.collect()


def rebuild(header):
    """The game a journal header starts, before its first action: the same
    seed and salt, so its commitment is the one the table announced."""
    return rules.game_class(header["game"])(header["config"], header["seed"], header["salt"])


class _PicoClock:
    # Bound once: `time` is a built-in that a file may extend, so importing
    # from it inside a function searches the filesystem on every call, some
    # 6 ms on the Pico's littlefs. The loop asks the time several times a pass.
    def __init__(self):
        from time import ticks_ms

        self.ticks_ms = ticks_ms
        self.sleep_ms = asyncio.sleep_ms
