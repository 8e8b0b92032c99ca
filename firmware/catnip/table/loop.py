# The table's loop: when things happen, never what. run() starts the button
# poll (every POLL_MS), the screen refresh (stations one at a time, with the
# buttons polled between, so a redraw never starves input), the serial line
# and, during Stack O' Cats, the tray; each event goes to the app, which
# decides, and each screen to the frame, which draws. step() is one pass of
# all of it, for the tests and the virtual table.
#
# Also here: the Pico's clock, and the helpers that drop code from the heap
# (on the Pico imported code takes heap): each scene's code is loaded when
# the table enters it and dropped when it leaves, so setup's menus are not in
# RAM during a game, nor the game's screens during setup; and a title's code
# makes room for the next title's (make_room).
import asyncio
import gc

from catnip import forget
from catnip.keys import OFFLINE, ONLINE, PRESS, RELEASE, STUCK
from catnip.rules import ABOUTS

POLL_MS = 10
FRAME_MS = 20


class Loop:
    """The loop of `app` (catnip.table.app.App), on the app's clock."""

    def __init__(self, app):
        self.app = app
        self.now = app.clock.ticks_ms()  # when the events in hand happened (poll)
        self.collect = False  # a press or a move: collect the heap once its screens are out
        self.flash = False  # a press or a move: the journal's erases once its screens are out
        self.ready = None  # called once the buttons are first read (serve)
        self.held = bytearray(len(app.hw.screens))  # per station, its buttons down (bits)
        self.down = False  # some button is down: the idle turn waits for its release

    def poll(self, now):
        """Read the buttons and carry out every event waiting; True if there
        was one."""
        app = self.app
        self.now = now
        app.hw.poll(now)
        handled = False
        while True:
            event = app.hw.next()
            if event is None:
                break
            self._hold(event)
            app.on_event(event)
            handled = True
        app.sound.update(now)
        return handled

    def tick(self, now):
        """Timed changes: the announcement shown, the standings once the last
        move's have been read, the notice line."""
        app = self.app
        scene = app.scene
        if scene.kind == "play":
            if scene.banner_due(now):
                scene.next_banner(now)
                app.frame.all_dirty()
            app.standings_due()
        app.frame.expire(now)

    def refresh(self, k, now):
        """Bring station k's panel up to date (redraw if needed, send what changed)."""
        app = self.app
        if app.frame.dirty[k]:
            app.frame.redraw(k, app.scene)
        app.frame.flush(k, now)

    def headline(self):
        """A new announcement out to every station now, the station pressed
        last first, ahead of any screen under it: its rows alike on every
        panel, drawn once. The buttons are sampled between panels (up to
        7 ms each on the Pico). False if there was none."""
        app = self.app
        if not app.frame.headline(app.scene):
            return False
        n = app.stations
        for i in range(n):
            app.frame.flush((app.pressed + i) % n, app.clock.ticks_ms())
            self.sample()
        return True

    def step(self, now):
        """One pass of everything, for tests and the virtual table: poll, then
        every screen."""
        app = self.app
        self.poll(now)
        self.tick(now)
        n = app.stations
        self.headline()  # a new announcement first, as a press's handling sends it
        for i in range(n):  # the station pressed last first: its player waits
            self.refresh((app.pressed + i) % n, now)
        if app.hw.table is not None:
            if app.frame.table_dirty:
                app.frame.redraw_table(app.scene)
            app.frame.flush_table(now)
        if app.line is not None:
            app.line.poll()
        if app.weigh is not None:
            app.weigh.poll()
        self._idle()

    def serve(self, ready=None):
        """Run the table until Ctrl-C on the line (Thonny's Stop, any mpremote
        command) or the laptop's stop command; the REPL follows. Ctrl-C is a
        byte meanwhile, read by the line between two commands
        (catnip.link.line): the app stops where nothing is half done, and
        tells the stations (catnip.table.handover). ready() is called once,
        when the buttons have been read the first time: from then on a
        press counts."""
        from catnip import ctrl_c

        self.ready = ready
        ctrl_c(False)
        try:
            asyncio.run(self.run())
        except KeyboardInterrupt:
            self._hand_over(None)
        except SystemExit as e:
            self._hand_over(str(e))
        finally:
            ctrl_c(True)

    def _hand_over(self, why):
        # why: the laptop's words, None for Ctrl-C.
        from catnip.table.handover import stop

        print("catnip: app stopped (%s); the REPL is yours" % stop(self.app, why))

    async def run(self):
        app = self.app
        clock = app.clock
        frame = app.frame
        asyncio.create_task(self._buttons())
        changed = getattr(getattr(app.hw, "buttons", None), "changed", None)
        if changed is not None:
            asyncio.create_task(self._changed(changed))
        if app.line is not None:
            asyncio.create_task(self._line())
        if app.weigh is not None:
            asyncio.create_task(app.weigh.run())
        while True:
            n = app.stations
            for i in range(n):
                # The station pressed last first: its player is waiting. The
                # buttons get their turn between drawing a panel (some 20 ms
                # on the Pico) and sending it (up to 25 ms), and between panels.
                k = (app.pressed + i) % n
                if frame.dirty[k]:
                    if frame.headline(app.scene):
                        # A move's announcement reaches every station first (a
                        # few ms each, even when the move came mid-pass); each
                        # screen under it follows.
                        for j in range(n):
                            frame.flush((app.pressed + j) % n, clock.ticks_ms())
                            await clock.sleep_ms(0)
                    frame.redraw(k, app.scene)
                    await clock.sleep_ms(0)
                frame.flush(k, clock.ticks_ms())
                await clock.sleep_ms(0)
            if app.hw.table is not None:
                if frame.table_dirty:
                    frame.redraw_table(app.scene)
                frame.flush_table(clock.ticks_ms())
            self.tick(clock.ticks_ms())
            self._idle()
            # A press handled meanwhile (the buttons' task) makes the other
            # stations dirty: their pass begins within POLL_MS, not FRAME_MS.
            for _ in range(FRAME_MS // POLL_MS):
                await clock.sleep_ms(POLL_MS)
                if True in frame.dirty:
                    break

    def _hold(self, event):
        # Which buttons are down, from the events: PRESS sets a button's bit,
        # its RELEASE clears it; a stuck button, or a station lost or back,
        # holds nothing up.
        station, kind, button = event
        held = self.held
        if station >= len(held):
            return  # the tray's or the table display's reports
        if kind == PRESS:
            held[station] |= 1 << button
        elif kind == RELEASE or kind == STUCK:
            held[station] &= ~(1 << button)
        elif kind == OFFLINE or kind == ONLINE:
            held[station] = 0
        else:
            return
        self.down = False
        for bits in held:
            if bits:
                self.down = True

    def _idle(self):
        # What no press should wait for, done once a press's screens are all
        # out, while the players read them: a collection (10-30 ms on the
        # Pico; left to an allocation, it lands in the middle of the next
        # press, and asking gc.mem_free() whether one is due costs 8 ms) and
        # a finished game's end, not while a button is down: the loop reads
        # no button meanwhile (a game's end takes some 150 ms on the Pico),
        # and a release that no poll sees joins that press to the next into
        # one. Once it is up, the next press is a finger's travel away. And
        # the journal's erases (a full tail sealed, its folder compacted),
        # which need no button up: the buttons are read between its commits,
        # and it stops for a press, to carry on at the next turn. Else, between
        # games only (a game's heap is not shared with it), a few ms of the
        # table's signature on the games it finished (catnip.table.seal).
        app = self.app
        if True in app.frame.dirty:
            return
        if self.collect and not self.down:
            self.collect = False
            tidy()
            self.sample()
            if app.scene.kind == "play" and app.game.result() is not None:
                app.ending()
        if self.flash:
            self.flash = False
            app.out.record(app.journal.ready, self._pressed)
            if self.flash is None:  # stopped for a press: the next turn carries on
                self.flash = True
        elif not self.down:  # a finished game's signature, a few ms a turn, between games
            app.seal.step(app.game is None or app.game.result() is not None)

    def _pressed(self):
        # Between the journal's commits: the buttons read; True if one was
        # pressed, so it stops and the press is handled (a release waits).
        self.sample()
        queue = getattr(getattr(self.app.hw, "buttons", None), "queue", None)
        if queue is not None and queue.waiting(PRESS):
            self.flash = None
            return True
        return False

    def sample(self):
        """The buttons read now, what they say left queued for the next poll:
        between the steps of work that holds the loop longer than a press
        lasts (a game's end, some 180 ms on the Pico: the press after the
        last move came and went unread), so a press made meanwhile is seen,
        and its release."""
        app = self.app
        app.hw.poll(app.clock.ticks_ms())

    async def _buttons(self):
        ready, self.ready = self.ready, None
        while True:
            self._read_buttons()
            if ready is not None:
                ready()
                ready = None
            await self.app.clock.sleep_ms(POLL_MS)

    async def _changed(self, changed):
        # The expanders' shared INT line fell: poll now, not up to POLL_MS later.
        while True:
            await changed.wait()
            self._read_buttons()

    def _read_buttons(self):
        clock = self.app.clock
        if self.poll(clock.ticks_ms()):
            # A move's announcement goes to every station at once: the other
            # players learn of it from those rows, so they do not wait for
            # the pressed station's whole screen to be drawn and sent, nor
            # for the screen loop's next turn. Then the player who pressed,
            # who is watching their screen: it is redrawn and sent now.
            self.headline()
            self.refresh(self.app.pressed, clock.ticks_ms())

    async def _line(self):
        app = self.app
        while True:
            app.line.poll()
            await app.clock.sleep_ms(POLL_MS)


def leave(scene, kind):
    """The table leaves `scene` for one of `kind`: the old one's code goes.
    None, for the app's scene while the new one loads."""
    if scene is not None and scene.kind != kind:
        forget("catnip.ui." + scene.kind)
        if scene.kind == "play":
            forget("catnip.ui." + scene.name)  # the game's own screens
    return None


def unload(prefix):
    """Forget every module whose name starts with `prefix`."""
    import sys

    for name in [m for m in sys.modules if m.startswith(prefix)]:
        forget(name)


ROOM_BYTES = 1536  # kept whole while a game starts (see hold_room)


def hold_room():
    # A piece of the heap kept whole while a game's rules load, free again
    # for the journal's file (1.1 KB in one piece on littlefs), which opens
    # next: what loading leaves behind is in small holes.
    try:
        return bytearray(ROOM_BYTES)
    except MemoryError:
        return None


def make_room(last, name):
    """A game of `name` is about to start after one of `last` (or None):
    the last title's rules go, and every other game's description the
    setup screen read; then the heap is collected in one piece for the
    game's code."""
    if last is not None and last != name:
        unload("catnip.rules." + last)  # stack_setup with stack
    for other in ABOUTS:  # the setup screen read every game's description
        if other != name:
            forget(ABOUTS[other])
    tidy()


def tidy():
    gc.collect()


class PicoClock:
    # Bound once: `time` is a built-in that a file may extend, so importing
    # from it inside a function searches the filesystem on every call, some
    # 6 ms on the Pico's littlefs. The loop asks the time several times a pass.
    def __init__(self):
        from time import ticks_ms

        self.ticks_ms = ticks_ms
        self.sleep_ms = asyncio.sleep_ms
