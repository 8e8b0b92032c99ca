# Choosing a game: every station shows the same setup menu and any of them
# can drive it. The table remembers the last game's title, settings, seats
# and first player, and the cursor starts on "Start game": the same group
# plays again with one press. "Players" sits just below it and OK counts
# down (from the fewest back to the most), so any group size is a few
# presses away; "Seats" picks which stations play when it is not the first
# ones. A game found unfinished in the journal is offered first. A long BACK
# opens the menu: the tray's calibration, on a table with a tray.
from catnip.keys import BACK, LONG, PRESS, REPEAT
from catnip.rules import TITLES
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, Cursor

GAMES = ("heist", "stack", "purrfect")
MENU = ("Back to setup", "Calibrate tray")
CLOWDERS = ("Whiskers", "Tabbies", "Mittens", "Night Owls", "Yarnballs", "Purrers",
            "Tuxedos", "Calicos")

# Per game: (label, config key, values, what each value says); players and
# the start player are added from the seats.
OPTIONS = {
    "heist": (("Edition", "variant", ("standard", "original"), ("new", "original")),
              ("Gems", "gems", ("digital", "physical"), ("catnip", "bag"))),
    "stack": (("Mode", "mode", ("composure", "patient", "clowder"),
               ("composure", "patient", "clowder")),
              ("Black cat", "black_cat", (False, True), ("off", "on")),
              ("Touches", "black_touch", ("each", "once"), ("2 each", "2 once")),
              ("Cats from", "draw", ("digital", "physical"), ("catnip", "bag")),
              ("Clowder", "clowder", CLOWDERS, CLOWDERS)),
    "purrfect": (("Cards", "mode", ("stations", "scorekeeper"), ("stations", "paper")),),
}


def player_range(game, options):
    if game == "heist":
        return (3 if options.get("variant") == "original" else 2), 6
    if game == "stack":
        return (1, 8) if options.get("mode") == "clowder" else (2, 6)
    return 4, 7


def shown(game, key, options):
    """Whether a setting applies given the others."""
    if game != "stack":
        return True
    clowder = options.get("mode") == "clowder"
    if key == "black_cat":
        return not clowder
    if key == "black_touch":
        return not clowder and options.get("black_cat")
    if key == "clowder":
        return clowder
    return True


def _seats(saved, stations):
    """Remembered seats, if they are a list of this table's stations."""
    if not isinstance(saved, list) or not saved:
        return None
    seats = []
    for k in saved:
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < stations or k in seats:
            return None
        seats.append(k)
    seats.sort()
    return seats


class Setup:
    """The menu's state. `online()` lists the stations that answer; `resume`
    is (gid, header, actions) of an unfinished game, or None; `tray`: the
    table has one, to calibrate."""

    kind = "setup"

    def __init__(self, stations, online, remembered=None, resume=None, tray=False,
                 names=lambda: ()):
        self.stations = stations
        self.online = online
        self.names = names  # the players' names by station, as the laptop sent them
        self.resume = resume
        self.tray = tray
        r = remembered or {}
        self.game = r.get("game") if r.get("game") in GAMES else "heist"
        here = online()
        self.seats = [k for k in _seats(r.get("seats"), stations) or () if k in here]
        self.counted = bool(self.seats)  # the seats were chosen, not every station that answers
        self.seats = self.seats or here
        start = r.get("start")
        self.start = start if self.counted and isinstance(start, int) and not isinstance(
            start, bool) and 0 <= start < len(self.seats) else 0
        self.chosen = {}  # per game, its settings
        saved = r.get("options") or {}
        for game in GAMES:
            mine = self.chosen[game] = {}
            theirs = saved.get(game) if isinstance(saved.get(game), dict) else {}
            for _, key, values, _ in OPTIONS[game]:
                mine[key] = theirs[key] if theirs.get(key) in values else values[0]
        self.cursor = Cursor()
        self.choosing_seats = None  # a Cursor over the stations while choosing
        self.viewing = None  # (lines, Cursor) while the high scores are shown
        self.menu = None  # a Cursor over MENU while the long-BACK menu is open
        self.problem = None
        self._fit()
        self.rows = self._rows()
        self.cursor.resize(len(self.rows))
        if resume is None:
            self.cursor.at = self.rows.index(("go",))  # "Start game" is one press away

    @property
    def options(self):
        return self.chosen[self.game]

    def _rows(self):
        rows = []
        if self.resume is not None:
            rows.append(("resume",))
        rows.append(("game",))
        rows.append(("go",))
        rows.append(("players",))
        rows.append(("seats",))
        for label, key, values, names in OPTIONS[self.game]:
            if shown(self.game, key, self.options):
                rows.append(("option", label, key, values, names))
        if self.game != "purrfect":
            rows.append(("start",))
        if self.game == "stack":
            rows.append(("scores",))
        return rows

    def label(self, row):
        kind = row[0]
        if kind == "resume":
            h = self.resume[1]
            return "Resume " + TITLES.get(h.get("game"), "game")
        if kind == "game":
            return TITLES[self.game]
        if kind == "players":
            return "Players: %d" % len(self.seats)
        if kind == "seats":
            return "Seats " + "".join(str(k + 1) for k in self.seats)
        if kind == "start":
            return "First: " + self.who(self.start)
        if kind == "go":
            return "Start game"
        if kind == "scores":
            return "High scores"
        label, key, values, names = row[1:]
        return "%s: %s" % (label, names[values.index(self.options[key])])

    # ---- buttons ----------------------------------------------------------

    def key(self, station, button, kind):
        """A button on any station. Returns ("resume",), ("start", game,
        config, seats) or ("calibrate",) when the table should leave setup,
        else None. A long BACK opens the menu (on a table with a tray)."""
        if kind == LONG and button == BACK:
            if self.tray:
                self.menu = Cursor(len(MENU))
            return None
        if kind != PRESS and kind != REPEAT:
            return None
        self.problem = None
        if self.menu is not None:
            done = self.menu.press(button)
            if done is not None:
                at, self.menu = self.menu.at, None
                if done == DONE and MENU[at] == "Calibrate tray":
                    return ("calibrate",)
            return None
        if self.viewing is not None:
            if self.viewing[1].press(button) is not None:  # OK or BACK: done
                self.viewing = None
            return None
        if self.choosing_seats is not None:
            return self._press_seats(button)
        if self.cursor.press(button) != DONE:
            return None
        row = self.rows[self.cursor.at]
        kind = row[0]
        if kind == "resume":
            return ("resume",)
        if kind == "game":
            self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
            self._fit()
        elif kind == "players":
            self._fewer()
            self.counted = True
        elif kind == "seats":
            self.choosing_seats = Cursor(self.stations)
            self.counted = True
        elif kind == "start":
            self.start = (self.start + 1) % max(1, len(self.seats))
        elif kind == "option":
            key, values = row[2], row[3]
            self.options[key] = values[(values.index(self.options[key]) + 1) % len(values)]
            self._fit()  # Clowder plays alone or with eight; the original edition needs three
        elif kind == "go":
            return self._go()
        elif kind == "scores":
            from catnip.flash import highscores

            rows = highscores.lines()
            self.viewing = (rows, Cursor(len(rows)))
        self.rows = self._rows()
        self.cursor.resize(len(self.rows))
        return None

    def _fit(self):
        """The seats brought within the game's player range: the last ones
        go, or stations that answer join in station order; while nobody has
        chosen the seats, as many of the stations that answer as the game
        takes. (A table with too few stations keeps what it has, and Start
        says why.)"""
        lo, hi = player_range(self.game, self.options)
        if not self.counted:
            self.seats = self.online()  # as many as the game seats, of those here
        del self.seats[hi:]
        for k in self.online():
            if len(self.seats) >= lo:
                break
            if k not in self.seats:
                self.seats.append(k)
        self.seats.sort()
        self.start = min(self.start, max(0, len(self.seats) - 1))

    def _fewer(self):
        """One player fewer (the last seat goes); from the fewest the game
        takes, back to the most the stations that answer can seat."""
        lo, hi = player_range(self.game, self.options)
        if len(self.seats) > lo:
            self.seats.pop()
        else:
            for k in self.online():
                if len(self.seats) >= hi:
                    break
                if k not in self.seats:
                    self.seats.append(k)
            self.seats.sort()
        self.start = min(self.start, max(0, len(self.seats) - 1))

    def _press_seats(self, button):
        c = self.choosing_seats
        result = c.press(button)
        if result == DONE:
            k = c.at
            if k in self.seats:
                self.seats.remove(k)
            else:
                self.seats.append(k)
                self.seats.sort()
        elif result == CANCEL:
            self.choosing_seats = None
            self.start = min(self.start, max(0, len(self.seats) - 1))
        return None

    def _go(self):
        lo, hi = player_range(self.game, self.options)
        n = len(self.seats)
        if not lo <= n <= hi:
            self.problem = "%s needs %d-%d players, not %d: choose Players" % (
                TITLES[self.game], lo, hi, n)
            return None
        return ("start", self.game, self.config(), list(self.seats))

    def config(self):
        config = {"players": len(self.seats)}
        for _, key, values, _ in OPTIONS[self.game]:
            if key != "clowder" and shown(self.game, key, self.options):
                config[key] = self.options[key]
        if self.game != "purrfect":
            config["start"] = self.start
        return config

    def who(self, seat):
        """Seat's name as a station shows it: its station's, else P1, P2..."""
        from catnip.wire import SHOWN

        names, k = self.names(), self.seats[seat]
        return (names[k] if k < len(names) else "")[:SHOWN] or draw.seat_name(seat)

    def remembered(self):
        """What to offer first next time: the title, every title's settings,
        the seats (as stations) and the first player."""
        return {"game": self.game, "options": self.chosen, "seats": list(self.seats),
                "start": self.start}

    # ---- the screen -------------------------------------------------------

    def draw(self, station, fb):
        draw.clear(fb)
        draw.title(fb, "catnip setup", "S%d" % (station + 1))
        if self.menu is not None:
            draw.items(fb, list(MENU), self.menu.at, 1, 5)
            draw.hint(fb, "OK choose BACK no")
            return
        if self.viewing is not None:
            draw.items(fb, self.viewing[0], self.viewing[1].at, 1, 6)
            draw.hint(fb, "OK/BACK: done")
            return
        if self.choosing_seats is not None:
            online = self.online()
            labels = []
            for k in range(self.stations):
                labels.append("%s S%d %s" % ("[x]" if k in self.seats else "[ ]", k + 1,
                                            "" if k in online else "off"))
            draw.items(fb, labels, self.choosing_seats.at, 1, 5)
            draw.hint(fb, "OK tick BACK done")
            return
        if self.problem:
            draw.paragraph(fb, self.problem, 1, 5)
        else:
            draw.items(fb, [self.label(r) for r in self.rows], self.cursor.at, 1, 5)
        if self.rows[self.cursor.at][0] == "resume":
            draw.text(fb, 6, "%d moves so far" % self.resume[2])
        elif station in self.seats:
            draw.text(fb, 6, "You: " + self.who(self.seats.index(station)))
        else:
            draw.text(fb, 6, "Not playing")
        draw.hint(fb, "OK choose/change")
