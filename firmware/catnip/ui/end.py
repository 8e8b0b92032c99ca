# The end of a game: standings with the reason for every tie-break on every
# station, then a rematch (same seats and settings, a new seed) or a new game,
# each asked once more before it leaves the standings.
from catnip.keys import OK, PRESS, REPEAT, ticks_diff
from catnip.ui import draw
from catnip.ui.outcome import reason
from catnip.ui.scene import Scene
from catnip.ui.widgets import DONE, Cursor

CHOICES = ("Rematch", "New game")
# The standings are up on every screen this long before OK chooses: OK
# pressed once more than the last announcements wanted is not a choice.
SETTLE_MS = 1000
ASK = ("Rematch: same seats and settings, a new deal?",
       "New game: leave these standings for the game menu?")


def standings(result):
    """Lines of the final table from any game's result() (one shape for
    every game): rank, player and score, then how it ended and why ties fell
    as they did."""
    ranks, scores = result["ranks"], result["scores"]
    together = result["together"]  # one team, one score: said once
    order = sorted(range(len(ranks)), key=lambda p: ranks[p] * 100 + p)
    lines = []
    for p in order:
        score = "" if together else " %d" % scores[p]
        lines.append("%d. %s%s" % (ranks[p], draw.seat_name(p), score))
    if together and scores:
        lines.append("Team: %d %s" % (scores[0], result["unit"]))
    for r in result["reasons"]:
        lines.append(reason(r))
    return lines


class End(Scene):
    """The standings screen: its lines (from standings()) and the two choices
    in one list. The cursor starts on "Rematch" ("New game" one DOWN away),
    the choices keep the bottom rows and the standings the rows above them,
    from the top; UP from "Rematch" scrolls back through them, so a long
    table of seven players reads whole. OK chooses once every screen has
    shown the standings for SETTLE_MS."""

    kind = "end"

    def __init__(self, title, lines, seats):
        self.title = title
        self.seats = seats  # seat -> station
        self.rows = []
        for line in lines:
            self.rows += draw.wrap(line, draw.COLS - 1)  # beside the scroll marks
        self.lines = len(self.rows)
        self.rows += CHOICES
        self.cursor = Cursor(len(self.rows), self.lines)  # on "Rematch"
        self.asking = None  # the index in CHOICES chosen, asked once more
        self.shown_at = None  # when every screen first showed the standings
        self.now = None

    def tick(self, now, settled):
        if self.shown_at is None and settled:
            self.shown_at = now
        self.now = now
        return None

    def key(self, station, button, kind):
        """("rematch",) or ("setup",) (a new game) once chosen and confirmed,
        else None."""
        if kind != PRESS and kind != REPEAT:
            return None
        if button == OK and self.asking is None and (
                self.shown_at is None or ticks_diff(self.now, self.shown_at) < SETTLE_MS):
            return None  # meant for the last announcement, not a choice
        if self.asking is not None:
            choice, self.asking = self.asking, None
            if kind == PRESS and button == OK:
                return ("rematch",) if choice == 0 else ("setup",)
            return None
        if self.cursor.press(button) == DONE:
            choice = self.rows[self.cursor.at]
            if choice in CHOICES:
                self.asking = CHOICES.index(choice)
        return None

    def draw(self, station, fb):
        seat = self.seats.index(station) if station in self.seats else None
        draw.clear(fb)
        draw.title(fb, self.title, draw.seat_name(seat) if seat is not None else "")
        if self.asking is not None:
            draw.paragraph(fb, ASK[self.asking], 2, 5)
            draw.hint(fb, "OK yes BACK no")
            return
        at, lines = self.cursor.at, self.lines
        draw.items(fb, self.rows[:lines], at if at < lines else -1, 1, 6 - len(CHOICES))
        draw.items(fb, CHOICES, at - lines, 7 - len(CHOICES), len(CHOICES))
        draw.hint(fb, "OK on a choice")
