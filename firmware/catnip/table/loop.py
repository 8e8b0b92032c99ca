# The table's loop: when things happen, never what. run() starts the button
# poll (every POLL_MS), the screen refresh (stations one at a time, with the
# buttons polled between, so a redraw never starves input), the serial line
# and, during Stack O' Cats, the tray; each event goes to the table (the
# App), which decides, and each screen to the frame, which draws. step() is
# one pass of all of it, for the tests and the virtual table.
#
# Also here: the Pico's clock, and the helpers that drop code from the heap
# (on the Pico imported code takes heap): a title's code makes room for the
# next title's (make_room); each scene drops its own (catnip.ui.scene).
import asyncio
import gc

from catnip import forget
from catnip.keys import LONG, OFFLINE, ONLINE, PRESS, RELEASE, REPEAT, STUCK
from catnip.rules import ABOUTS

POLL_MS = 10
FRAME_MS = 20


class Loop:
    """The loop of the stations, buttons and buzzer of `hw` on `clock`, drawn
    by `frame` (catnip.ui.frame), with the serial `line` and the tray's
    `weigh` (either may be None). `table` (catnip.table.app.App) decides:
    on_event(event), tick(now), ending() and chores(erase, stop)."""

    def __init__(self, hw, clock, frame, sound, table, line=None, weigh=None):
        self.hw = hw
        self.clock = clock
        self.frame = frame
        self.sound = sound
        self.table = table
        self.line = line
        self.weigh = weigh
        self.stations = len(hw.screens)
        self.now = clock.ticks_ms()  # when the events in hand happened (poll)
        self.pressed = 0  # the station pressed last
        self.collect = False  # a press or a move: collect the heap once its screens are out
        self.flash = False  # a press or a move: the journal's erases once its screens are out
        self.ready = None  # called once the buttons are first read (serve)
        self.held = bytearray(self.stations)  # per station, its buttons down (bits)
        self.down = False  # some button is down: the idle turn waits for its release

    def poll(self, now):
        """Read the buttons and carry out every event waiting; True if there
        was one."""
        hw = self.hw
        self.now = now
        hw.poll(now)
        handled = False
        while True:
            event = hw.next()
            if event is None:
                break
            self._hold(event)
            if event[1] == PRESS or event[1] == LONG or event[1] == REPEAT:
                # Its screen is refreshed first: a finger is on it. A release
                # (or a stuck button) is not someone looking: read late, after
                # another station's press, it would put its station ahead.
                if event[0] < self.stations:
                    self.pressed = event[0]
            self.table.on_event(event)
            handled = True
        self.sound.update(now)
        return handled

    def busy(self):
        """A press or a move: once its screens are out, the heap is collected
        and the journal's erases are done (the idle turn)."""
        self.collect = self.flash = True

    def refresh(self, k, now):
        """Bring station k's panel up to date (redraw if needed, send what changed)."""
        if self.frame.dirty[k]:
            self.frame.redraw(k)
        self.frame.flush(k, now)

    def headline(self):
        """A new announcement out to every station now, the station pressed
        last first, ahead of any screen under it: its rows alike on every
        panel, drawn once. The buttons are sampled between panels (up to
        7 ms each on the Pico). False if there was none."""
        if not self.frame.headline():
            return False
        n = self.stations
        for i in range(n):
            self.frame.flush((self.pressed + i) % n, self.clock.ticks_ms())
            self.sample()
        return True

    def step(self, now):
        """One pass of everything, for tests and the virtual table: poll, then
        every screen."""
        self.poll(now)
        self.table.tick(now)
        n = self.stations
        self.headline()  # a new announcement first, as a press's handling sends it
        for i in range(n):  # the station pressed last first: its player waits
            self.refresh((self.pressed + i) % n, now)
            if self.weigh is not None:
                # As run() lets the tray's task in between panels: a 10 SPS
                # word must be read within its conversion period, and seven
                # panels take longer on the Pico.
                self.weigh.poll()
        if self.hw.table is not None:
            if self.frame.table_dirty:
                self.frame.redraw_table()
            self.frame.flush_table(now)
        if self.line is not None:
            self.line.poll()
        if self.weigh is not None:
            self.weigh.poll()
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

        print("catnip: app stopped (%s); the REPL is yours" % stop(self.table, why))

    async def run(self):
        clock = self.clock
        frame = self.frame
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
            for _ in range(n):
                # The station pressed last first, then the next ones after it,
                # chosen afresh for each: a press that comes mid-pass puts its
                # move's screens ahead of what the pass had left to draw. The
                # buttons get their turn between drawing a panel (some 20 ms
                # on the Pico) and sending it (up to 25 ms), and between panels.
                k = frame.due(self.pressed)
                if k is None:
                    break
                if frame.headline():
                    # A move's announcement reaches every station first (a
                    # few ms each, even when the move came mid-pass); each
                    # screen under it follows.
                    for j in range(n):
                        frame.flush((self.pressed + j) % n, clock.ticks_ms())
                        await clock.sleep_ms(0)
                frame.redraw(k)
                await clock.sleep_ms(0)
                frame.flush(k, clock.ticks_ms())
                await clock.sleep_ms(0)
            for k in range(n):  # a panel that failed or went away: probed, started again
                frame.flush(k, clock.ticks_ms())
                await clock.sleep_ms(0)
            if self.hw.table is not None:
                if frame.table_dirty and frame.due(self.pressed) is None:
                    frame.redraw_table()  # after the stations: a move pressed meanwhile waits not
                frame.flush_table(clock.ticks_ms())
            self.table.tick(clock.ticks_ms())
            self._idle()
            # A press handled meanwhile (the buttons' task) makes the other
            # stations due: their pass begins at once, not FRAME_MS later.
            for _ in range(FRAME_MS // POLL_MS):
                if frame.due(self.pressed) is not None:
                    break
                await clock.sleep_ms(POLL_MS)

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
        if True in self.frame.dirty:
            return
        if self.collect and not self.down:
            self.collect = False
            tidy()
            self.sample()
            self.table.ending()  # if a game is over and its end not yet journaled
        if self.flash:
            self.flash = False
            self.table.chores(True, self._pressed)
            if self.flash is None:  # stopped for a press: the next turn carries on
                self.flash = True
        elif not self.down:  # a finished game's signature, a few ms a turn, between games
            self.table.chores(False, None)

    def _pressed(self):
        # Between the journal's commits: the buttons read; True if one was
        # pressed, so it stops and the press is handled (a release waits),
        # or if the laptop is sending (a phone seat's press comes that way).
        self.sample()
        queue = getattr(getattr(self.hw, "buttons", None), "queue", None)
        if queue is not None and queue.waiting(PRESS) or \
                self.line is not None and self.line.waiting():
            self.flash = None
            return True
        return False

    def sample(self):
        """The buttons read now, what they say left queued for the next poll:
        between the steps of work that holds the loop longer than a press
        lasts (a game's end, some 180 ms on the Pico: the press after the
        last move came and went unread), so a press made meanwhile is seen,
        and its release."""
        self.hw.poll(self.clock.ticks_ms())

    async def _buttons(self):
        ready, self.ready = self.ready, None
        while True:
            self._read_buttons()
            if ready is not None:
                ready()
                ready = None
            await self.clock.sleep_ms(POLL_MS)

    async def _changed(self, changed):
        # The expanders' shared INT line fell: poll now, not up to POLL_MS later.
        while True:
            await changed.wait()
            self._read_buttons()

    def _read_buttons(self):
        clock = self.clock
        if self.poll(clock.ticks_ms()):
            # A move's announcement goes to every station at once: the other
            # players learn of it from those rows, so they do not wait for
            # the pressed station's whole screen to be drawn and sent, nor
            # for the screen loop's next turn. Then the player who pressed,
            # who is watching their screen: it is redrawn and sent now.
            self.headline()
            self.refresh(self.pressed, clock.ticks_ms())

    async def _line(self):
        while True:
            self.line.poll()
            await self.clock.sleep_ms(POLL_MS)


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
