# Choosing a game: every station shows the same setup menu and any of them
# can drive it. Defaults reach a game in a few presses: OK on "Start" plays
# the game shown with every station that answers. A game found unfinished in
# the journal is offered first. A long BACK opens the menu: the tray's
# calibration, on a table with a tray.
from catnip.keys import BACK, LONG, PRESS, REPEAT
from catnip.rules import NAMES as GAMES
from catnip.rules import TITLES
from catnip.rules.about import about, applies, has_start, players
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, Cursor

SHORT = {"heist": "Heist", "stack": "Stack", "purrfect": "Purrfect"}  # a title in a row
MENU = ("Back to setup", "Calibrate tray")


def choices(game):
    """The options a station offers for `game`: the rules' settings, then the
    table's own (the Clowder's name)."""
    d = about(game)
    return d["options"] + d["table"]


def player_range(game, options):
    return players(about(game), options)[:2]


def shown(game, key, options):
    """Whether a setting applies given the others."""
    return applies(about(game), key, options)


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
            for o in choices(game):
                key, values = o["key"], o["choices"]
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
        for o in choices(self.game):
            if shown(self.game, o["key"], self.options):
                rows.append(("option", o["label"], o["key"], o["choices"], o["says"]))
        if has_start(about(self.game)):
            rows.append(("start",))
        rows.append(("go",))
        if about(self.game)["high_scores"]:
            rows.append(("scores",))
        return rows

    def label(self, row):
        kind = row[0]
        if kind == "resume":
            h = self.resume[1]
            return "Resume " + SHORT.get(h.get("game"), "game")
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
        name = names[values.index(self.options[key])]
        # A row has 15 columns beside the list's scroll marks.
        return ("%s: %s" if len(label) + len(name) < 14 else "%s %s") % (label, name)

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
        for o in about(self.game)["options"]:
            if shown(self.game, o["key"], self.options):
                config[o["key"]] = self.options[o["key"]]
        if has_start(about(self.game)):
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
            draw.hint(fb, "OK pick BACK no")
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
            draw.hint(fb, "OK tick BACK: ok")
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
