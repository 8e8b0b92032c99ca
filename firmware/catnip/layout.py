# The table's layout once board.json has been checked (catnip.board checks
# it): what the app keeps while it runs. The checker is large and needed only
# at power-up, so it lives apart and is dropped once the board is read.
from catnip.rules.vet import describe

# Each station's buttons. Every screen is a short list: up/down move the
# cursor, ok confirms, back steps out or takes a choice back before it is
# locked in. Four fit half a PCF8574 and keep four direct stations at 16 GPIO.
BUTTONS = ("up", "down", "ok", "back")
MAX_STATIONS = 8


def is_int(value):
    """An exact int: counts, pins and addresses are never floats or bools."""
    return isinstance(value, int) and not isinstance(value, bool)


class BoardError(ValueError):
    """A board config the hardware cannot carry. `problems` lists each one."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__("board config has %d problem%s:\n  %s" % (
            len(problems), "" if len(problems) == 1 else "s", "\n  ".join(problems)))


class Board:
    """A validated board config. The attributes are plain data: ints for pins
    and addresses, dicts and lists shaped like the JSON file."""

    def __init__(self, name, about, i2c, mux, stations, tray, buzzer, table, rtc=None):
        self.name = name
        self.about = about
        self.i2c = i2c  # bus id -> {"sda", "scl", "freq"[, "pullup_ohm"]}
        self.mux = mux  # None or {"bus", "addr", "reset"}
        self.stations = stations  # [{"bus", "channel", "oled", "buttons"}]
        self.tray = tray  # None or {"cells": [{"dout", "sck"}]}
        self.buzzer = buzzer  # None or {"pin"}
        self.table = table  # None or {"bus", "channel", "oled"}
        self.rtc = rtc  # None or {"bus", "channel"}: a DS3231 clock

    def drivers_made(self):
        """The drivers hold what they need of the stations now: their
        descriptions (and the board's) leave the heap."""
        self.stations = self.about = None

    def stations_for(self, players):
        """The stations a game with `players` players uses: the first ones in
        the file. A board with more stations leaves the rest dark."""
        if not is_int(players):
            raise BoardError(["players: a whole number of players, not %s" % describe(players)])
        if players > len(self.stations):
            raise BoardError(["a %d-player game needs %d stations but board '%s' has %d; "
                              "use a board with more stations (the mux layout takes up to %d)"
                              % (players, players, self.name, len(self.stations), MAX_STATIONS)])
        if players < 1:
            raise BoardError(["a game needs at least one player, not %d" % players])
        return self.stations[:players]
