# What the stations and the table display show around the scene: the
# table-wide notices on every station's bottom line, the page a station
# shows while a game's code loads, the table display's page when no game is
# in play, and which screens are due to be drawn again. The app decides what
# to say and which scene is up (show()), the loop when to draw; the frame
# draws it, asking the scene (catnip.ui.scene) what it shows.
#
# A phone seat (catnip.table.phones) has a place after the stations: its
# screen is marked for redrawing as theirs are (`dirty` counts it), and
# drawn by paint() onto a canvas of its own, never onto a panel.
from catnip.keys import ticks_diff
from catnip.ui import draw

NOTICE_MS = 5000  # each table-wide message stays up this long
MAX_NOTICES = 4


class Frame:
    """The frame of `hw`'s stations (and its table display, if fitted), on
    `clock` (ticks_ms())."""

    def __init__(self, hw, clock):
        self.hw = hw
        self.clock = clock
        self.dirty = [True] * len(hw.screens)  # the stations', then the phone seats' places
        self.rows = bytearray(len(hw.screens))  # per station due, the rows alone due (0: all)
        self.standing = None  # a short line every station shows until it is taken down
        self.table_dirty = True
        self.notices = []  # table-wide messages (a station lost, a journal problem), oldest first
        self.notice_at = clock.ticks_ms()  # when the first notice went up
        self._canvas = None  # what the canvas holds when every station shows it alike
        self.epoch = 0  # counts all_dirty(): whatever every station shows may have changed
        self._headline = None  # the announcement last put up ahead of the screens under it
        self.scene = None  # what the stations show (catnip.ui.scene.Scene)

    def show(self, scene):
        """`scene` is up: every screen shows it at the next pass."""
        self.scene = scene
        self.all_dirty()

    def places(self, n):
        """The scene has `n` places: the stations, then phone seats' (a new
        game); every one is drawn afresh."""
        dirty = self.dirty
        del dirty[len(self.hw.screens):]
        while len(dirty) < n:
            dirty.append(True)
        self.all_dirty()

    def stand(self, text):
        """`text` (a row at most) on every station's last row until taken down (None)."""
        if text != self.standing:
            self.standing = text
            self.all_dirty()

    def drawn(self, k):
        """Place k is drawn now, elsewhere (a phone seat's): whether it was due."""
        due = self.dirty[k]
        self.dirty[k] = False
        return due

    def mark(self, k):
        """Station k's screen is redrawn at the next pass."""
        self._whole(k)

    def _whole(self, k):
        self.dirty[k] = True
        if k < len(self.rows):
            self.rows[k] = 0

    def all_dirty(self):
        """Every station's screen and the table display are redrawn at the next pass."""
        for k in range(len(self.dirty)):
            self._whole(k)
        self.table_dirty = True
        self.epoch = (self.epoch + 1) & 0xFFFFFF

    def moved(self, rows, station):
        """A move from `station` (None: not a station's): every screen is
        redrawn at the next pass; where `rows` (bits, 0: any) are all it
        changed, every other station redraws those rows alone (some 1 ms
        against 8-10 for a whole screen on the Pico), unless it is due whole
        already or a notice, which may cover them, is up."""
        if not rows or self.notices:
            self.all_dirty()
            return
        dirty, due = self.dirty, self.rows
        for k in range(len(dirty)):
            if k == station or k >= len(due):
                self._whole(k)
            elif not dirty[k] or due[k]:
                due[k] |= rows
                dirty[k] = True
        self.table_dirty = True
        self.epoch = (self.epoch + 1) & 0xFFFFFF

    def settled(self):
        """Every station's screen is drawn from the scene as it is."""
        return True not in self.dirty

    def due(self, first):
        """The first station from `first` on (round the table) due to be
        redrawn, or None."""
        dirty = self.dirty
        n = len(self.hw.screens)  # a phone seat's place is drawn elsewhere
        for i in range(n):
            k = (first + i) % n
            if dirty[k]:
                return k
        return None

    def changed(self, stations):
        """The stations (bits) whose picture changed are redrawn at the next
        pass, the others and the table display keep theirs. A notice moves
        with the announcement under it, so with one up every station is."""
        for k in range(len(self.dirty)):
            if self.notices or stations >> k & 1:
                self._whole(k)
        self.epoch = (self.epoch + 1) & 0xFFFFFF  # the stations drawn alike may be among them

    def notice(self, text, now):
        """Put `text` up on every station's bottom line; False if it is
        already waiting. At most MAX_NOTICES wait (the oldest not yet shown
        goes): a fault that repeats with every move must not fill the
        screens, nor the heap."""
        notices = self.notices
        if text in notices:
            return False
        if not notices:
            self.notice_at = now
        elif len(notices) >= MAX_NOTICES:
            notices.pop(1)
        notices.append(text)
        self.all_dirty()
        return True

    def expire(self, now):
        """The notice showing gives way to the next once it has been up NOTICE_MS."""
        if self.notices and ticks_diff(now, self.notice_at) > NOTICE_MS:
            self.notices.pop(0)
            self.notice_at = now
            self.all_dirty()

    def loading(self, what, k):
        """Station k says `what` at once (a game's code loading from flash)."""
        fb = self._begin()
        draw.page(fb, what, 3)
        self._canvas = None
        self.hw.screens[k].take(fb)
        self.flush(k, self.clock.ticks_ms())

    def flush(self, k, now):
        """Send station k's panel what changed; a panel that lost its
        picture (it restarted) is redrawn at the next pass."""
        screen = self.hw.screens[k]
        screen.flush(now)
        if screen.online and screen.wants_picture():
            self._whole(k)

    def flush_table(self, now):
        table = self.hw.table
        table.flush(now)
        if table.online and table.wants_picture():
            self.table_dirty = True

    def _begin(self):
        # The canvas, about to hold a new picture. A panel that took the one
        # it holds and has not sent it (a press came between a station's
        # drawing and its sending) is drawn again later, not sent now: the
        # press's own screen goes first. An offline panel is drawn again
        # once it is back.
        fb = self.hw.canvas
        screens = self.hw.screens
        for k in range(len(screens)):
            if screens[k].online and screens[k].holds(fb):
                self._whole(k)
        table = self.hw.table
        if table is not None and table.online and table.holds(fb):
            self.table_dirty = True
        fb.begin()
        return fb

    def redraw(self, k):
        """Draw station k's screen (on the canvas, which its panel takes;
        flush sends it). A screen several stations show alike (the public
        screen of the stations where nobody sits) is drawn once and taken
        by each, until anything marks every station."""
        fb = self.hw.canvas
        scene = self.scene
        rows = self.rows[k]
        if rows and self._rows(k, rows):
            return
        alike = scene.alike(k)
        if alike is not None:
            alike = (alike, self.epoch, self.notices[0] if self.notices else None)
        if alike is None or alike != self._canvas:
            self._begin()
            self.paint(k, fb)
            self._canvas = alike
        self.hw.screens[k].take(fb)
        self.dirty[k] = False

    def _rows(self, k, rows):
        # Only `rows` (bits) of station k, drawn on a canvas otherwise dark
        # and taken from the first to the last of them; False if the scene
        # draws the station's whole screen now (a menu open on it, ...).
        fb = self._begin()
        self._canvas = None
        self.rows[k] = 0
        draw.clear(fb)
        if not self.scene.draw_rows(k, fb, rows):
            return False
        top = 0
        while not rows >> top & 1:
            top += 1
        end = top
        while rows >> end:
            end += 1
        self.hw.screens[k].take(fb, top, end)
        self.dirty[k] = False
        return True

    def paint(self, k, fb):
        """Place k's whole screen on `fb`: the scene's, the notice up over it."""
        scene = self.scene
        scene.draw(k, fb)
        if self.standing is not None and not scene.headed(k):  # an announcement has the row
            draw.bar(fb, draw.ROWS - 1, self.standing)
        if self.notices:  # above an announcement, which has the bottom lines
            draw.notice(fb, self.notices[0], scene.headline() is not None)

    def headline(self):
        """A new announcement, ahead of everything else: drawn once on the
        canvas and taken (its rows only, which are the announcement's alone)
        by every station due for a redraw that shows it; they are sent
        first, and each station's whole screen follows at its redraw. False
        if there is no new announcement."""
        scene = self.scene
        up = scene.headline()
        if up is None:
            self._headline = None
            return False
        if up == self._headline:
            return False
        self._headline = up
        fb = self._begin()
        self._canvas = None
        draw.clear(fb)
        top = draw.banner(fb, self._headline)
        taken = False
        for k in range(len(self.hw.screens)):
            if self.dirty[k] and scene.headed(k):
                taken = self.hw.screens[k].take(fb, top) or taken
        return taken

    def redraw_table(self):
        fb = self._begin()
        self._canvas = None  # the canvas is the table display's now
        if not self.scene.draw_table(fb):
            draw.page(fb, self.notices[0] if self.notices else "Choose a game on any station", 2)
        self.hw.table.take(fb)
        self.table_dirty = False
