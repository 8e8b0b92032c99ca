# A game in play on the stations, whichever game it is: each station draws
# its own player's view (or the public state if nobody sits there), buttons
# become actions through the game's screen module, and public events are
# announced one at a time on every station's bottom lines, over its own view,
# each for BANNER_MS. No press is lost to an announcement: every press goes
# to the station's own screen, and the announcement up steps aside on the
# station that pressed (its player is busy with the rows under it). Once the
# game is over, nothing is under them: OK moves them on to the standings. A press
# that changes nothing there says why. A long BACK opens the station's menu:
# back, high scores, end the game (the table gives a long BACK nothing else).
from catnip.keys import BACK, DOWN, LONG, OK, PRESS, UP, ticks_diff
from catnip.rules.about import about
from catnip.ui import draw
from catnip.ui.scene import Scene
from catnip.ui.widgets import CANCEL, DONE, Cursor

BANNER_MS = 2500
MAX_BANNERS = 8  # moves go on under announcements: beyond these, the oldest waiting go
MENU = ("Back to game", "End game")
IDLE = {UP: "UP: nothing to choose here", DOWN: "DOWN: nothing to choose here",
        OK: "OK: nothing to confirm here", BACK: "BACK: nothing to take back"}
SCORES_MENU = ("Back to game", "High scores", "End game")  # a game with high scores


def screens(name):
    """The screen module of game `name`: imported on demand (RAM)."""
    return __import__("catnip.ui." + name, None, None, ["Local"])


class Play(Scene):
    """Game `name` in play; `side` (or None) is the game's extras at the
    table, asked what each view adds (side.view(seat): the tray's state in
    Stack O' Cats); `names` the players' as the journal has them."""

    kind = "play"
    shared = False  # a press redraws its own station; a new announcement, every one
    holds_game = True  # to its last announcement, a finished game's too

    def __init__(self, name, game, seats, stations, side=None, names=None):
        self.name = name
        self.game = game
        self.seats = seats  # seat -> station
        self.side = side
        self.names = names
        self.ui = screens(name)
        self.local = [self.ui.Local() for _ in range(stations)]
        self.menu = [None] * stations  # a Cursor while a station's menu is open
        self.menu_items = SCORES_MENU if about(name)["high_scores"] else MENU
        self.viewing = [None] * stations  # (lines, Cursor): the high scores on a station
        self.ending = [False] * stations  # "End the game for everyone?" is asked
        self.error = [None] * stations  # the last refusal, shown until the next press
        self.banner = []  # public events as text, oldest first
        self.banner_at = None  # when the first was put up
        self.shown = 0  # counts the announcements put up first, to tell them apart
        self.aside = [-1] * stations  # the announcement each station pressed under

    def enter(self):
        draw.named(self.names)

    def modules(self):
        return ("catnip.ui.play", "catnip.ui." + self.name)  # the game's own screens too

    def seat(self, station):
        return self.seats.index(station) if station in self.seats else None

    def view(self, station):
        seat = self.seat(station)
        v = self.game.view(seat) if seat is not None else self.game.public()
        self._extra(v, seat)
        if seat is not None and seat == self.game.corrector():
            v["fix"] = True  # their last result may be taken back (('correct',))
        return v

    # ---- buttons ----------------------------------------------------------

    def key(self, station, button, kind):
        """A button event: ("act", seat, action), ("answer", seat, value) (a
        game's screens answering a question of the table's, such as the
        tray's), ("end",) or None. Changes only this station's UI state."""
        if self.game.result() is not None and not self.banner:
            return None  # over, its last announcement gone by time: the standings are due
        if kind == PRESS:
            self.error[station] = None  # a reason stays up until the station's next press
        if self.banner:
            if self.game.result() is not None and button == OK and kind == PRESS:
                self.next_banner(None)  # the game is over: nothing under it to act on
                return None
            self.aside[station] = self.shown
        if self.viewing[station] is not None:
            if kind == PRESS and self.viewing[station][1].press(button) is not None:
                self.viewing[station] = None
            return None
        if self.ending[station]:
            if kind == PRESS:
                self.ending[station] = False
                if button == OK:
                    return ("end",)
            return None
        if self.menu[station] is not None:
            return self._menu_key(station, button, kind)
        if button == BACK and kind == LONG:
            self.menu[station] = Cursor(len(self.menu_items))
            return None
        seat = self.seat(station)
        local = self.local[station]
        mark = _mark(local) if kind == PRESS else None
        action = self.ui.press(self.view(station), local, button, kind)
        if action is not None and action[0] == "why":  # the screen refused it, and says why
            self.error[station] = action[1]
            return None
        if action is not None and seat is not None:
            if action[0] == "answer":  # a question of the table's own (the tray's), not the rules'
                return ("answer", seat, action[1])
            return ("act", seat, action)
        if mark is not None and mark == _mark(local):
            self.error[station] = self._idle(seat, button)  # seen, and refused with why
        return None

    def _idle(self, seat, button):
        """Why a press changed nothing on a station."""
        game = self.game
        if game.result() is not None:
            return "The game is over"
        if seat is None:
            return "Nobody sits here: this station shows the table"
        waiting = game.to_act()
        if seat not in waiting:
            return "Waiting for " + " ".join(draw.seat_name(p) for p in waiting)
        return IDLE.get(button, "That button does nothing here")

    def _menu_key(self, station, button, kind):
        if kind != PRESS:
            return None
        result = self.menu[station].press(button)
        if result == CANCEL:
            self.menu[station] = None
        elif result == DONE:
            choice = self.menu_items[self.menu[station].at]
            self.menu[station] = None
            if choice == "End game":
                self.ending[station] = True
            if choice == "High scores":
                from catnip.flash import highscores

                rows = highscores.lines()
                self.viewing[station] = (rows, Cursor(len(rows)))
        return None

    def refused(self, station, why):
        self.error[station] = why

    # ---- announcements ----------------------------------------------------

    def tick(self, now, settled):
        """The announcement up gives way once it has had its time and every
        screen is out (a move's screens go before its change); once the game
        is over and its last is gone, the standings: ("over",)."""
        if settled and self.banner_due(now):
            self.next_banner(now)
        if not self.banner and self.game.result() is not None:
            return ("over",)
        return None

    def announce(self, events, now):
        tunes = []
        for ev in events:
            tune = self.ui.sound(ev)
            if tune is not None:
                tunes.append(tune)
            line = self.ui.say(ev, None)
            if line is not None:
                if len(self.banner) >= MAX_BANNERS:
                    self.banner.pop(1)  # not the one up: it is being read
                self.banner.append(line)
        if self.banner and self.banner_at is None:
            self.banner_at = now
        return tunes

    def next_banner(self, now):
        """Drop the banner shown; the next goes up on every station."""
        if self.banner:
            self.banner.pop(0)
            self.banner_at = now if self.banner else None
            self.shown += 1

    def banner_due(self, now):
        """Whether the announcement up has had its time at `now`. One that
        came up by OK after the game (which knows no time) has its time from here."""
        if not self.banner or now is None:
            return False
        if self.banner_at is None:
            self.banner_at = now
            return False
        return ticks_diff(now, self.banner_at) >= BANNER_MS

    # ---- screens ----------------------------------------------------------

    def alike(self, station):
        """A station that shows the table's public screen shows what every
        such station shows (until anything marks every station)."""
        return "table" if self.public_only(station) else None

    def headline(self):
        return self.banner[0] if self.banner else None

    def epoch(self):
        return self.shown

    def public_only(self, station):
        """Whether `station` shows the table's public screen and nothing of its
        own (nobody sits there, no menu, no reason for a press): every such
        station shows the same pixels, so they are drawn once."""
        return self.seat(station) is None and self.menu[station] is None and \
            self.viewing[station] is None and not self.ending[station] and \
            not self.error[station] and self.aside[station] != self.shown

    def headed(self, station):
        """Whether `station` shows the announcement up now (over its bottom
        lines: a station showing why its last press was refused does not,
        nor one pressed under it)."""
        return bool(self.banner) and not self.error[station] and \
            self.aside[station] != self.shown

    def showing(self):
        """The stations (bits) that show the announcement up now."""
        bits = 0
        for k in range(len(self.aside)):
            if self.headed(k):
                bits |= 1 << k
        return bits

    def draw(self, station, fb):
        self._draw(station, fb)
        if self.headed(station):  # the reason for a press first, the player's rows next
            draw.banner(fb, self.banner[0])

    def _draw(self, station, fb):
        if self.ending[station]:
            draw.clear(fb)
            draw.title(fb, "End game?")
            draw.paragraph(fb, "End this game for everyone? It stays in the journal.", 1, 5)
            draw.hint(fb, "OK end  BACK no")
            return
        if self.viewing[station] is not None:
            draw.clear(fb)
            draw.title(fb, "High scores")
            draw.items(fb, self.viewing[station][0], self.viewing[station][1].at, 1, 6)
            draw.hint(fb, "OK/BACK: done")
            return
        if self.menu[station] is not None:
            draw.clear(fb)
            draw.title(fb, "Menu", "S%d" % (station + 1))
            draw.items(fb, list(self.menu_items), self.menu[station].at, 1, 4)
            draw.hint(fb, "OK pick BACK no")
            return
        self.ui.draw_screen(fb, self.view(station), self.local[station])
        if self.error[station]:
            draw.overlay(fb, self.error[station], 0)

    def quiet(self, events):
        quiet = getattr(self.ui, "quiet", None)  # a game's screens that know
        return quiet(events, self.game.public()) if quiet is not None else 0

    def draw_rows(self, station, fb, rows):
        if self.ending[station] or self.viewing[station] is not None or \
                self.menu[station] is not None or self.error[station]:
            return False  # not the game's view (an announcement keeps below the rows)
        self.ui.draw_rows(fb, self.view(station), rows)
        return True

    def draw_table(self, fb):
        v = self.game.public()
        self._extra(v, None)
        self.ui.draw_table(fb, v)
        return True

    def _extra(self, v, seat):
        # What the game's side adds to `seat`'s view (None: the public one).
        if self.side is not None:
            extra = self.side.view(seat)
            if extra is not None:
                v.update(extra)


def _mark(local):
    """A station's UI state in plain values, to tell whether a press changed it."""
    out = []
    for v in local.__dict__.values():
        if hasattr(v, "__dict__"):  # a Cursor or Picker
            v = tuple(v.__dict__.values())
        elif isinstance(v, list):
            v = tuple(tuple(x.__dict__.values()) if hasattr(x, "__dict__") else x for x in v)
        out.append(v)
    return out
