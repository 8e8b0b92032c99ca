# micropython-only: plays a whole game at the virtual table with some seats
# on phones, each phone seat played over the serial line as the laptop plays
# it: hello, the game chosen at station 1's setup with phone places among
# the seats, a claim for each phone seat, then its presses as `press`
# commands (and a claim again every BEAT_MS, as the Keeper does). The
# stations' players press their buttons. Every action comes from the seeded
# policies of tests/simpresses.py, which work out the presses from the
# seat's screen state; before each press of a phone seat the rig checks that
# the last `view` the line brought for it is the seat's screen as it is now,
# so the phone player reads what it presses on.
#
# Prints one JSON line: the standings, the actions, and what the line carried
# (the views by seat, the kinds of frame, the seats on phones).
#
#   micropython tests/phoneplay.py BOARD NAME PHONES     (MICROPYPATH as tests/mpunix.py)
#   e.g. direct purrfect 4: Purrfect for 7, three stations and four phones;
#        mux purrfect 0: the same game on eight stations, no phone.
import json
import sys

from catnip import board as boards
from catnip.rules.rng import Rng
from catnip.ui.end import CHOICES
from catnip.ui.recorder import Recorder as Screen
from devsim.virtual_script import do_step
from devsim.virtual_table import SETTLE_MS, VirtualTable
from simplay import Recorder
from simpresses import POLICIES, PRESSES, canonical

# name: (game, setup options, players: the most the title seats)
GAMES = {
    "heist": ("heist", {}, 6),
    "stack": ("stack", {"mode": "clowder"}, 8),
    "purrfect": ("purrfect", {"mode": "stations"}, 7),
}
BEAT_MS = 2000  # as the Keeper's HEARTBEAT_S
MAX_ACTIONS = 3000
SEED = "phones"


class PhonePlayer(Recorder):
    """The virtual table on `board_name`, and a laptop on its line that plays
    the phone seats (simplay's Recorder, its presses sent as commands)."""

    def __init__(self, board_name):
        root = boards.__file__.rsplit("/", 2)[0]
        with open(root + "/boards/%s.json" % board_name) as f:
            self.board = boards.parse(json.load(f))
        self.shots = ()
        self.snapped = set()
        self.steps = []
        self.kinds = {}  # every frame from the table, counted by kind (views: the table's)
        self.phones = []  # the seats on phones, as begin named them
        self.vt = VirtualTable(self.board, ".", self._sent, seed=SEED)
        self.app = self.vt.app
        self.said = 0
        self.claimed = []
        self.ask("hello")
        self.vt.run(SETTLE_MS)

    def _sent(self, message):
        if message.get("k") != "line":
            return
        m = message["m"]
        kind = m["t"]
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if kind == "begin":
            self.phones = m.get("phones") or []
        elif kind == "err":
            raise AssertionError("the table refused: %s" % m["why"])

    def ask(self, word, **fields):
        self.vt.serial_in.feed(word + " " + json.dumps(fields))
        self.said = self.vt.now()

    def beat(self):
        # The laptop's claim again, so the table knows it is there.
        if self.claimed and self.vt.now() - self.said >= BEAT_MS:
            self.ask("claim", seat=self.claimed[0])

    def do(self, step):
        self.beat()
        station = step.get("station")
        if station is None or station <= self.vt.stations:
            do_step(self.vt, step)
            return
        place = station - 1
        seat = self.app.scene.seats.index(place)
        self.check_view(seat, place)
        self.ask("press", seat=seat, button=step["press"], hold=False)
        self.vt.run(SETTLE_MS)

    def check_view(self, seat, place):
        """The last view of `seat` is its screen now, as the table draws it."""
        screen = Screen()
        self.app.frame.paint(place, screen)
        now = (screen.rows(), screen.lit())
        view = self.vt.views.get(seat)  # the virtual table keeps each phone seat's last view
        shown = (view["rows"], view["lit"]) if view else None
        assert shown == now, "seat %d's phone shows %s, its screen is %s" % (seat, shown, now)

    def claim_phones(self):
        stations = self.vt.stations
        for seat, place in enumerate(self.app.scene.seats):
            if place >= stations:
                self.ask("claim", seat=seat)
                self.claimed.append(seat)
                self.vt.run(SETTLE_MS)


def choose(rec, game, options, players, phones):
    """At station 1's setup: the title, its options, and `players` seats of
    which `phones` are phone places (the stations first)."""
    setup = rec.app.scene
    stations = setup.stations
    wanted = list(range(players - phones)) + list(range(stations, stations + phones))

    def go_to(kind, key=None):
        rows = setup.rows
        target = [i for i, r in enumerate(rows) if r[0] == kind and (key is None or r[2] == key)]
        rec.move(1, setup.cursor.at, target[0], len(rows))

    while setup.game != game:
        go_to("game")
        rec.press(1, "ok")
    for key in sorted(options):
        while setup.options[key] != options[key]:
            go_to("option", key)
            rec.press(1, "ok")
    if setup.seats != wanted:
        go_to("seats")
        rec.press(1, "ok")
        n = setup.choosing_seats.n
        for k in range(n):
            if (k in setup.seats) != (k in wanted):
                rec.move(1, setup.choosing_seats.at, k, n)
                rec.press(1, "ok")
        rec.press(1, "back")
    assert setup.seats == wanted, (setup.seats, wanted)
    go_to("go")
    rec.press(1, "ok")
    assert rec.app.scene.kind == "play", "the game did not start: %s" % rec.vt.lines(1)


def play_out(rec, name):
    """The game set up on `rec` played to its standings by the seeded
    policies: each seat's action pressed at its station or tapped on its
    phone (rec.do)."""
    game_name = GAMES[name][0]
    rng = Rng("policy:" + name)
    policy, presses = POLICIES[game_name], PRESSES[game_name]
    for _ in range(MAX_ACTIONS):
        scene = rec.app.scene
        if scene.kind != "play":
            break
        if scene.banner and scene.game.result() is not None:
            rec.press(1, "ok")  # read: after the game, OK moves the announcements on
            continue
        game = scene.game
        waiting = game.to_act()
        seat = waiting[rng.below(len(waiting))]
        action = policy(game, seat, rng)
        if action is None:
            rec.do({"wait": SETTLE_MS})
            continue
        before = len(game.log)
        presses(rec, scene.seats[seat] + 1, seat, action)
        assert len(game.log) == before + 1 and game.log[-1] == (seat, canonical(action)), \
            "%s: the presses for %s of seat %d submitted %s" % (
                name, action, seat, list(game.log)[before:])
    assert rec.app.scene.kind == "end", "%s did not end" % name


def play(board_name, name, phones):
    game_name, options, players = GAMES[name]
    rec = PhonePlayer(board_name)
    choose(rec, game_name, options, players, phones)
    rec.claim_phones()
    play_out(rec, name)
    rec.vt.run(SETTLE_MS)
    for seat in rec.claimed:  # the standings reach the phones too
        rec.check_view(seat, rec.app.scene.seats[seat])
    if rec.vt.viewed:
        rec.kinds["view"] = rec.vt.viewed
    return {"standings": [r for r in rec.app.scene.rows if r not in CHOICES],
            "actions": len(rec.app.game.log), "phones": rec.phones,
            "views": sorted(rec.vt.views), "kinds": rec.kinds}


if __name__ == "__main__":
    print(json.dumps(play(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
