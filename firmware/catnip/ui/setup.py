# Choosing a game: every station shows the same setup menu and any of them
# can drive it. Defaults reach a game in a few presses: OK on "Start" plays
# the game shown with every station that answers. A game found unfinished in
# the journal is offered first. A long BACK opens the menu: the tray's
# calibration, on a table with a tray.
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


class Setup:
    """The menu's state. `online()` lists the stations that answer; `resume`
    is (gid, header, actions) of an unfinished game, or None; `tray`: the
    table has one, to calibrate."""

    kind = "setup"

    def __init__(self, stations, online, remembered=None, resume=None, tray=False):
        self.stations = stations
        self.online = online
        self.resume = resume
        self.tray = tray
        r = remembered or {}
        self.game = r.get("game") if r.get("game") in GAMES else "heist"
        self.start = 0
        self.seats = online()
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
        rows.append(("seats",))
        for label, key, values, names in OPTIONS[self.game]:
            if shown(self.game, key, self.options):
                rows.append(("option", label, key, values, names))
        if self.game != "purrfect":
            rows.append(("start",))
        rows.append(("go",))
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
        if kind == "seats":
            return "Seats " + "".join(str(k + 1) for k in self.seats)
        if kind == "start":
            return "First: " + draw.seat_name(self.start)
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
        elif kind == "seats":
            self.choosing_seats = Cursor(self.stations)
        elif kind == "start":
            self.start = (self.start + 1) % max(1, len(self.seats))
        elif kind == "option":
            key, values = row[2], row[3]
            self.options[key] = values[(values.index(self.options[key]) + 1) % len(values)]
        elif kind == "go":
            return self._go()
        elif kind == "scores":
            from catnip.flash import highscores

            rows = highscores.lines()
            self.viewing = (rows, Cursor(len(rows)))
        self.rows = self._rows()
        self.cursor.resize(len(self.rows))
        return None

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
            self.problem = "%s needs %d-%d players, not %d: choose Seats" % (
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

    def remembered(self):
        """What to offer first next time."""
        return {"game": self.game, "options": self.chosen}

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
            draw.text(fb, 6, "You: " + draw.seat_name(self.seats.index(station)))
        else:
            draw.text(fb, 6, "Not playing")
        draw.hint(fb, "OK choose/change")
