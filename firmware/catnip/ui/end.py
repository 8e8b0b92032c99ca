# The end of a game: standings with the reason for every tie-break on every
# station, then a rematch (same seats and settings, a new seed) or a new game,
# each asked once more before it leaves the standings.
from catnip.keys import OK, PRESS, REPEAT
from catnip.ui import draw
from catnip.ui.widgets import DONE, Cursor

CHOICES = ("Rematch", "New game")
ASK = ("Rematch: same seats and settings, a new deal?",
       "New game: leave these standings for the game menu?")


def standings(game, result):
    """Lines of the final table: rank, player, score, and why ties fell as they did."""
    ranks = result["ranks"]
    points = result.get("scores") or result.get("pawprints")
    order = sorted(range(len(ranks)), key=lambda p: ranks[p] * 100 + p)
    lines = []
    for p in order:
        score = "" if points is None else " %d" % points[p]
        lines.append("%d. %s%s" % (ranks[p], draw.seat_name(p), score))
    if "team" in result:
        lines.append("Team: %d points" % result["team"])
    for note in _reasons(game, result):
        lines.append(note)
    return lines


def _reasons(game, result):
    ranks = result["ranks"]
    if game == "heist":
        notes = []
        for t in result["tiebreaks"]:
            who = " ".join(draw.seat_name(p) for p in t["players"])
            notes.append(("%s tied: fewer rocks wins" if t["by"] == "rocks" else
                          "%s share the rank") % who)
        return notes
    if game == "purrfect":
        return [result["reason"]]
    notes = [result["ended"]]
    for rank in range(1, len(ranks) + 1):
        tied = [p for p in range(len(ranks)) if ranks[p] == rank]
        if len(tied) > 1 and "team" not in result:
            notes.append("%s share rank %d: no tie-breaker" % (
                " ".join(draw.seat_name(p) for p in tied), rank))
    return notes


class End:
    """The standings screen: its lines (from standings()) and the two choices
    in one scrolling list, so a long table of seven players reads with UP
    and DOWN."""

    kind = "end"

    def __init__(self, title, lines, seats):
        self.title = title
        self.seats = seats  # seat -> station
        self.rows = []
        for line in lines:
            self.rows += draw.wrap(line)
        self.rows += CHOICES
        self.cursor = Cursor(len(self.rows))
        self.asking = None  # the index in CHOICES chosen, asked once more

    def key(self, station, button, kind):
        """("rematch",) or ("setup",) (a new game) once chosen and confirmed,
        else None."""
        if kind != PRESS and kind != REPEAT:
            return None
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
        draw.items(fb, self.rows, self.cursor.at, 1, 6)
        draw.hint(fb, "OK on a choice")
