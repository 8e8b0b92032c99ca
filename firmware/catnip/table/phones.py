# Phone seats (docs/phones.md): the seats of the game in play that have no
# station, each played from a browser the laptop binds to it. Such a seat is
# a station view rendered elsewhere: it has a place numbered after the
# stations, the scene draws and keys it exactly as a station (its presses
# are button events, through the rules and the journal like any other), the
# frame marks it for redrawing as it marks a station, and its screen is
# drawn as text (catnip.ui.recorder) and sent to the laptop as a `view`,
# only while the laptop holds (has claimed) that seat, and only when it
# changed. Nobody else's screen ever leaves the table.
#
# The laptop claims a held seat again every 2 s, saying which of its views
# it has seen last: one lost on the way (a damaged frame) is sent again.
# Silent for SILENT_MS, the laptop is gone: its claims drop, and the
# stations say the phone seats wait for it.
# Nothing else changes: the game waits for those seats as for a player who
# has not pressed yet, and goes on once the laptop is back and claims them.
from catnip import wire
from catnip.keys import LONG, PRESS, RELEASE, ticks_diff
from catnip.table.scenes import Stations
from catnip.ui import draw

SILENT_MS = 6000
MAX_PHONES = 8  # places for phone seats after the stations
BUTTONS = ("up", "down", "ok", "back")  # by button number (catnip.keys)


class Phones(Stations):
    """The phone seats of the game `app` (catnip.table.app.App) plays: the
    table's seats once one is on a phone (Stations.offered is theirs too)."""

    def __init__(self, app):
        self.app = app
        self.first = app.stations  # the first phone seat's place
        self.placing = ()  # every seat's place in the game in play
        self.seats = []  # the game's seats on phones, and each one's place below
        self.places = []
        self.claimed = 0  # the seats (bits) a laptop holds
        self.away = 0  # claimed seats (bits) whose browser went away
        self.down = {}  # seat -> the button a long press holds down until its next press
        self.shown = {}  # seat -> the digest of the view last sent
        self.sent = {}  # seat -> the number of the view last sent
        self.canvas = None  # a catnip.ui.recorder.Recorder, once a seat is claimed
        self.heard = None  # when the laptop last spoke (ticks), as of its commands so far:
        self.commands = 0
        self.silent = False  # the laptop went quiet holding seats: they wait for it

    def listed(self):
        """The game's seats on phones, for the line's begin and snap."""
        return list(self.seats)

    def begin(self, seats):
        """The game in play seats its players at `seats` (seat -> place; ()
        between games): its phone seats are those placed after the stations.
        A claim stays on a seat that is still a phone seat; the others are
        released. Returns how many places the scene has."""
        phones = [s for s in range(len(seats)) if seats[s] >= self.first]
        for s in self.seats:
            if s not in phones and self.claimed >> s & 1:
                self._drop(s)
                self.app.line.answer(0, wire.RELEASED, seat=s)
        self.placing, self.seats = seats, phones
        self.places = [seats[s] for s in phones]
        places = max([self.first - 1] + list(seats)) + 1
        self.app.frame.places(places)
        self._stand()
        return places

    def command(self, word, fields):
        """A phone-seat command of the laptop's (claim, release, press,
        away): carried out and answered on the line. A refused one raises
        ValueError saying why, and changes nothing."""
        seat = fields["seat"]
        if seat not in self.seats:
            raise ValueError(self._not_phone(seat))
        bit = 1 << seat
        if word == "claim":
            seen = fields.get("seen")
            lost = seen is not None and seen != self.sent.get(seat)  # its last view
            if not self.claimed & bit or lost:
                self.claimed |= bit
                self.silent = False
                self.shown.pop(seat, None)  # its view goes at once, changed or not
                self.app.frame.mark(self.places[self.seats.index(seat)])
        elif word == "release":
            self._drop(seat)
        elif not self.claimed & bit:
            raise ValueError("seat %d is not claimed: claim it first" % seat)
        elif word == "away":
            self.away = self.away | bit if fields["away"] else self.away & ~bit
            if fields["away"]:
                self.app.out.say("%s is away from its phone" % _who(seat))
        else:
            self._press(seat, fields["button"], fields["hold"])
        self._stand()
        self.app.line.send(wire.RELEASED if word == "release" else
                           wire.PRESSED if word == "press" else wire.CLAIMED, seat=seat)
        if seat in self.seats and self.claimed & bit:
            # Its player is looking at it: its screen goes first, as a pressed
            # station's does; the stations follow in the loop's pass.
            self._due(seat, self.places[self.seats.index(seat)])

    def _not_phone(self, seat):
        placing = self.placing
        if not self.seats:
            return "seat %d: the game in play has no phone seats" % seat
        if seat < len(placing):
            return "seat %d plays at station %d, not on a phone" % (seat, placing[seat] + 1)
        return "seat %d: the game has seats 0-%d" % (seat, len(placing) - 1)

    def _press(self, seat, word, hold):
        """A press on the seat's screen: the button events a station's would
        raise. A long press (`hold`) keeps its button down until the seat's
        next press (Meow Heist's peek shows while OK is held)."""
        if word not in BUTTONS:
            raise ValueError("button is one of %s, not %r" % (", ".join(BUTTONS), word))
        button = BUTTONS.index(word)
        place = self.places[self.seats.index(seat)]
        self.away &= ~(1 << seat)  # a press: the browser is back
        events = [(RELEASE, self.down.pop(seat))] if seat in self.down else []
        events += [(PRESS, button), (LONG, button)] if hold else \
            [(PRESS, button), (RELEASE, button)]
        if hold:
            self.down[seat] = button
        for kind, b in events:
            if seat not in self.seats or self.places[self.seats.index(seat)] != place:
                self.down.pop(seat, None)
                break  # the press changed the game (a rematch): this seat's press is over
            self.app.on_event((place, kind, b))

    def _drop(self, seat):
        bit = 1 << seat
        self.claimed &= ~bit
        self.away &= ~bit
        if seat in self.down and seat in self.seats:  # its long press ends
            self.app.on_event((self.places[self.seats.index(seat)], RELEASE,
                               self.down.pop(seat)))

    def tick(self, now):
        """Every pass of the loop: a laptop silent too long loses its seats;
        each claimed seat's screen that changed goes to it as a `view`."""
        line = self.app.line
        if line is not None and line.commands != self.commands:
            self.commands, self.heard = line.commands, now
        if self.claimed and self.heard is not None and ticks_diff(now, self.heard) > SILENT_MS:
            for s in self.seats:
                self._drop(s)
            self.silent = True
            self.app.out.say("%s on a phone: waiting for the laptop" % _all(self.seats))
            self._stand()
        frame = self.app.frame
        for k in range(self.first, len(frame.dirty)):
            if k in self.places:
                self._due(self.seats[self.places.index(k)], k)
            else:
                frame.drawn(k)  # nobody sits there

    def _due(self, seat, place):
        """The seat's view, if its screen is due and a laptop holds it."""
        if self.app.frame.drawn(place) and self.claimed >> seat & 1:
            self._view(seat, place)

    def _view(self, seat, place):
        canvas = self.canvas
        if canvas is None:
            from catnip.ui.recorder import Recorder

            canvas = self.canvas = Recorder()
        canvas.fill(0)
        self.app.frame.paint(place, canvas)
        digest = canvas.digest()
        if self.shown.get(seat) == digest:
            return
        self.shown[seat] = digest
        n = self.sent[seat] = self.sent.get(seat, 0) % wire.MAX_SEQ + 1
        self.app.out.send(wire.VIEW, seat=seat, n=n, rows=canvas.rows(), lit=canvas.lit())

    def _stand(self):
        """The line every station shows while a phone seat is not played:
        its phone not joined yet, the laptop gone, or its player away."""
        waiting, away = [], []
        for s in self.seats:
            if not self.claimed >> s & 1:
                waiting.append(s)
            elif self.away >> s & 1:
                away.append(s)
        text = None
        if waiting:
            text = _short(waiting, ": no laptop" if self.silent else " on phone",
                          "No laptop" if self.silent else "Phones to join")
        elif away:
            text = _short(away, " away", "Phones away")
        self.app.frame.stand(text)


def _short(seats, what, instead):
    text = " ".join(draw.seat_name(s) for s in seats) + what
    return text if len(text) <= draw.COLS else instead


def _who(seat):
    name = draw.SEATS[seat] if seat < len(draw.SEATS) else ""
    return name or "Seat %d" % (seat + 1)


def _all(seats):
    if len(seats) == 1:
        return _who(seats[0]) + " plays"
    return ", ".join(_who(s) for s in seats) + " play"
