# Choosing a game: every station shows the same setup menu and any of them
# can drive it. The table remembers the last game's title, settings, seats
# and first player, and the cursor starts on "Start game": the same group
# plays again with one press. "Players" sits just below it and OK counts
# down (from the fewest back to the most), so any group size is a few
# presses away; "Seats" picks which stations play when it is not the first
# ones. With a laptop on the line, seats can also be phones (catnip.table.phones):
# places numbered after the stations, offered once the stations run out and
# in "Seats". A game found unfinished in the journal is offered first. A long BACK
# opens the menu: the table's key (the fingerprint the laptop's `catnip
# tables` shows, to compare) and the tray's calibration, on a table with a tray.
from catnip.keys import BACK, LONG, PRESS, REPEAT
from catnip.rules import NAMES as GAMES
from catnip.rules import SHORT, TITLES
from catnip.rules.about import about, applies, has_start, players
from catnip.ui import draw
from catnip.ui.scene import Scene
from catnip.ui.widgets import CANCEL, DONE, Cursor
from catnip.wire import PHONES

MENU = ("Back to setup", "Calibrate tray", "Table key")


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


def _seats(saved, places):
    """Remembered seats, if they are a list of this table's `places` (its
    stations, and with a laptop its phone places)."""
    if not isinstance(saved, list) or not saved:
        return None
    seats = []
    for k in saved:
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < places or k in seats:
            return None
        seats.append(k)
    seats.sort()
    return seats


class Setup(Scene):
    """The menu's state. `online()` lists the stations that answer; `resume`
    is (gid, header, actions) of an unfinished game, or None; `tray`: the
    table has one, to calibrate; `phones()`: a laptop can carry phone seats."""

    kind = "setup"
    lists_stations = True

    def __init__(self, stations, online, remembered=None, resume=None, tray=False,
                 names=lambda: (), key=lambda: None, picking=None, phones=lambda: False):
        self.stations = stations
        self.answering = online
        self.phones = phones
        self.names = names  # the players' names by station, as the laptop sent them
        self.resume = resume
        self.tray = tray
        self.table_key = key  # the table's key: (fingerprint, public key hex), None while made
        self.picking = picking  # the table's names: known(), pick(station, name) (table.naming)
        self.naming = {}  # station -> its catnip.ui.names.NamePicker while it picks its name
        r = remembered or {}
        self.game = r.get("game") if r.get("game") in GAMES else "heist"
        here = self.online()
        places = stations + (PHONES if phones() else 0)
        self.seats = [k for k in _seats(r.get("seats"), places) or () if k in here]
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
            for o in choices(game):
                key, values = o["key"], o["choices"]
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

    def online(self):
        """The places a player may sit at: the stations that answer, then,
        with a laptop there, the phone places."""
        here = self.answering()
        if self.phones():
            here = here + list(range(self.stations, self.stations + PHONES))
        return here

    def enter(self):
        draw.named(None)  # no game, no players' names

    def modules(self):
        return ("catnip.ui.setup", "catnip.ui.names")  # the name picker's too, if it came

    def refused(self, station, why):
        self.problem = why

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
        for o in choices(self.game):
            if shown(self.game, o["key"], self.options):
                rows.append(("option", o["label"], o["key"], o["choices"], o["says"]))
        if has_start(about(self.game)):
            rows.append(("start",))
        if about(self.game)["high_scores"]:
            rows.append(("scores",))
        if self.picking is not None:
            rows.append(("name",))
        return rows

    def label(self, row):
        kind = row[0]
        if kind == "resume":
            h = self.resume[1]
            return "Resume " + SHORT.get(h.get("game"), "game")
        if kind == "game":
            return TITLES[self.game]
        if kind == "players":
            return "Players: %d" % len(self.seats)
        if kind == "seats":
            phones = sum(1 for k in self.seats if k >= self.stations)
            if phones:  # how many at stations and on phones: the list would not fit
                return "Seats %d+%d phone" % (len(self.seats) - phones, phones)
            return "Seats " + "".join(str(k + 1) for k in self.seats)
        if kind == "start":
            return "First: " + self.who(self.start)
        if kind == "go":
            return "Start game"
        if kind == "scores":
            return "High scores"
        if kind == "name":
            return "Your name"
        label, key, values, names = row[1:]
        name = names[values.index(self.options[key])]
        # A row has 15 columns beside the list's scroll marks.
        return ("%s: %s" if len(label) + len(name) < 14 else "%s %s") % (label, name)

    # ---- buttons ----------------------------------------------------------

    def key(self, station, button, kind):
        """A button on any station. Returns ("resume",), ("start", game,
        config, seats) or ("calibrate", "begin") when the table should leave setup,
        else None. A long BACK opens the menu."""
        picking = station in self.naming  # this station's own picker has its buttons
        if kind == LONG and button == BACK and not picking:
            self.menu = Cursor(len(self._menu()))
            return None
        if kind != PRESS and kind != REPEAT:
            return None
        self.problem = None
        if picking:
            return self._press_name(station, button)
        if self.menu is not None:
            done = self.menu.press(button)
            if done is not None:
                picked, self.menu = self._menu()[self.menu.at], None
                if done == DONE and picked == "Calibrate tray":
                    return ("calibrate", "begin")
                if done == DONE and picked == "Table key":
                    rows = _key_rows(self.table_key())
                    self.viewing = (rows, Cursor(len(rows)))
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
            self.choosing_seats = Cursor(self.stations + (PHONES if self.phones() else 0))
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
        elif kind == "name":
            from catnip.ui.names import NamePicker

            names = self.names()
            now = names[station] if station < len(names) else ""
            self.naming[station] = NamePicker(self.picking.known(), now)
        self.rows = self._rows()
        self.cursor.resize(len(self.rows))
        return None

    def _menu(self):
        # The long-BACK menu's items: the tray's calibration only with a tray.
        return [item for item in MENU if self.tray or item != "Calibrate tray"]

    def _fit(self):
        """The seats brought within the game's player range: the last ones
        go, or stations that answer join in station order; while nobody has
        chosen the seats, as many of the stations that answer as the game
        takes. (A table with too few stations keeps what it has, and Start
        says why.)"""
        lo, hi = player_range(self.game, self.options)
        if not self.counted:
            self.seats = self.answering()  # as many as the game seats, of the stations here
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
            if len(self.seats) < hi and not self.phones():
                self.problem = _NO_PHONES % draw.counted(len(self.seats), "station")
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

    def _press_name(self, station, button):
        done = self.naming[station].press(button)
        if done is not None:
            del self.naming[station]
            if done != CANCEL:
                self.problem = self.picking.pick(station, done[1])  # None, or why not
        return None

    def _go(self):
        lo, hi = player_range(self.game, self.options)
        n = len(self.seats)
        if not lo <= n <= hi:
            self.problem = "%s needs %d-%d players, not %d: choose Players" % (
                TITLES[self.game], lo, hi, n)
            if n < lo and not self.phones():
                self.problem = "%s: %d-%d players. %s" % (
                    TITLES[self.game], lo, hi, _NO_PHONES % draw.counted(n, "station"))
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

    def who(self, seat):
        """Seat's name as a station shows it: its station's, else P1, P2...
        (no station answers yet at a power-up: P1 still names the first)."""
        from catnip.wire import SHOWN

        names = self.names()
        k = self.seats[seat] if seat < len(self.seats) else len(names)
        return (names[k] if k < len(names) else "")[:SHOWN] or draw.seat_name(seat)

    def remembered(self):
        """What to offer first next time: the title, every title's settings,
        the seats (as stations) and the first player."""
        return {"game": self.game, "options": self.chosen, "seats": list(self.seats),
                "start": self.start}

    # ---- the screen -------------------------------------------------------

    def draw(self, station, fb):
        if station in self.naming:
            self.naming[station].draw(fb, station)
            return
        draw.clear(fb)
        draw.title(fb, "catnip setup", "S%d" % (station + 1))
        if self.menu is not None:
            draw.items(fb, self._menu(), self.menu.at, 1, 5)
            draw.hint(fb, "OK pick BACK no")
            return
        if self.viewing is not None:
            draw.items(fb, self.viewing[0], self.viewing[1].at, 1, 6)
            draw.hint(fb, "OK/BACK: done")
            return
        if self.choosing_seats is not None:
            online = self.online()
            labels = []
            for k in range(self.choosing_seats.n):
                labels.append("%s %s %s" % ("[x]" if k in self.seats else "[ ]", _place(
                    k, self.stations), "" if k in online else "off"))
            draw.items(fb, labels, self.choosing_seats.at, 1, 5)
            draw.hint(fb, "OK tick BACK: ok")
            return
        if self.problem:
            draw.paragraph(fb, self.problem, 1, 5)
        else:
            draw.items(fb, [self.label(r) for r in self.rows], self.cursor.at, 1, 5)
        if self.rows[self.cursor.at][0] == "resume":
            draw.text(fb, 6, draw.counted(self.resume[2], "move") + " so far")
        elif station in self.seats:
            draw.text(fb, 6, "You: " + self.who(self.seats.index(station)))
        else:
            draw.text(fb, 6, "Not playing")
        draw.hint(fb, "OK choose/change")


# Why no more players than stations: said when Players runs out of them.
_NO_PHONES = "%s here; a laptop adds phones"


def _place(k, stations):
    """Place k as the seat chooser names it: a station, or a phone."""
    return "S%d" % (k + 1) if k < stations else "Phone %d" % (k - stations + 1)


def _key_rows(key):
    # The table's key as a station shows it: the fingerprint first (two rows
    # of two groups), then the public key, 16 hex digits a row.
    if key is None:
        return ["Table key:", "being made;", "look again soon"]
    fingerprint, public = key
    rows = ["Fingerprint:", fingerprint[:9], fingerprint[10:], "Public key:"]
    return rows + [public[i:i + 16] for i in range(0, len(public), 16)]
