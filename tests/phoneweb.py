# micropython-only: the virtual table playing a whole game with some seats on
# phones, its serial line on a pseudo-terminal that `catnip serve` follows,
# the phone seats played from browsers (tests/test_serve_phone_play.py).
# As tests/phoneplay.py, station 1 sets the game up and the stations' players
# press their buttons, every action from the seeded policies of
# tests/simpresses.py; but a phone seat's press is not sent by this script:
# it writes the press it wants, with the seat's screen as the table draws it
# now, to FOLDER/want.json, and waits until that press comes in over the
# line (a browser's tap, through serve and the Keeper). The table runs at
# most SPEED times as fast as the wall clock, so the laptop's claims every
# 2 s keep its seats (the table lets a laptop silent for 6 s go).
#
#   micropython tests/phoneweb.py FD BOARD NAME PHONES FOLDER
#
# FOLDER/want.json: {"n", "seat", "button", "rows", "lit"} (n counts the
# presses wanted), {"ready": seats} once the game is set up, then the
# standings as {"standings", "actions"} in FOLDER/done.json. The file "stop"
# in FOLDER ends it.
import json
import os
import sys
import time

from catnip import board as boards
from catnip.ui.end import CHOICES
from catnip.ui.recorder import Recorder as Screen
from devsim.virtual_script import do_step
from devsim.virtual_table import SETTLE_MS, VirtualTable
from phoneplay import GAMES, SEED, PhonePlayer, choose, play_out

SPEED = 2  # table ms per wall ms, at most
WAIT_MS = 60000  # for a tap, or for the phones to join


def _write(path, data):
    with open(path + ".new", "w") as f:
        f.write(json.dumps(data))
    os.rename(path + ".new", path)


class WebPhones(PhonePlayer):
    """The virtual table on `board_name`, its line on pty `fd`; its phone
    seats' presses wanted in `folder`, and taken from the line."""

    def __init__(self, board_name, fd, folder):
        root = boards.__file__.rsplit("/", 2)[0]
        with open(root + "/boards/%s.json" % board_name) as f:
            self.board = boards.parse(json.load(f))
        self.shots = ()
        self.snapped = set()
        self.steps = []
        self.kinds, self.views, self.last, self.phones, self.claimed = {}, {}, {}, [], []
        self.folder = folder
        self.wanted = 0
        self.pressed = []  # the phone presses that came in over the line, by seat
        self.start = time.ticks_ms()
        self.vt = VirtualTable(self.board, ".", lambda message: None, seed=SEED, line_fd=fd)
        self.app = self.vt.app
        self.vt.pacer = self.pace
        phones = self.app.phoned()  # loaded now, so that its commands can be heard
        command = phones.command

        def heard(word, fields):
            if word == "press":
                self.pressed.append(fields["seat"])
            return command(word, fields)

        phones.command = heard
        self.vt.run(SETTLE_MS)

    def pace(self):
        ahead = self.vt.now() - SPEED * time.ticks_diff(time.ticks_ms(), self.start)
        if ahead > 0:
            time.sleep_ms(ahead // SPEED + 1)

    def beat(self):
        pass  # the laptop's Keeper claims its seats again by itself

    def idle(self, until, what):
        t0 = time.ticks_ms()
        while not until():
            if time.ticks_diff(time.ticks_ms(), t0) > WAIT_MS:
                raise AssertionError("no %s within %d ms" % (what, WAIT_MS))
            if self.stopped():
                raise SystemExit
            self.vt.run(10)

    def stopped(self):
        try:
            os.stat(self.folder + "/stop")
            return True
        except OSError:
            return False

    def do(self, step):
        station = step.get("station")
        if station is None or station <= self.vt.stations:
            do_step(self.vt, step)
            return
        place = station - 1
        seat = self.app.scene.seats.index(place)
        self.wanted += 1
        want = {"n": self.wanted, "seat": seat, "button": step["press"]}

        def tapped():
            # The seat's screen as the table draws it now (a notice may time
            # out while the tap is on its way): the phone must show this one.
            screen = Screen()
            self.app.frame.paint(place, screen)
            drawn = {"rows": screen.rows(), "lit": screen.lit()}
            if drawn != self.drawn:
                self.drawn = drawn
                want.update(drawn)
                _write(self.folder + "/want.json", want)
            return len(self.pressed) >= self.wanted

        self.drawn = None
        self.idle(tapped, "tap for seat %d" % seat)
        assert self.pressed[self.wanted - 1] == seat, (self.pressed, seat)
        self.vt.run(SETTLE_MS)

    def claim_phones(self):
        phones = [s for s, place in enumerate(self.app.scene.seats) if place >= self.vt.stations]
        _write(self.folder + "/want.json", {"ready": phones})
        everyone = sum(1 << s for s in phones)
        self.idle(lambda: self.app.phones.claimed & everyone == everyone, "phones joining")
        self.claimed = phones


def play(fd, board_name, name, phones, folder):
    game_name, options, players = GAMES[name]
    rec = WebPhones(board_name, fd, folder)
    choose(rec, game_name, options, players, phones)
    rec.claim_phones()
    play_out(rec, name)
    _write(folder + "/done.json", {
        "standings": [r for r in rec.app.scene.rows if r not in CHOICES],
        "actions": len(rec.app.game.log), "taps": rec.wanted})
    rec.idle(lambda: False, "stop")  # serving the line until the laptop is done


if __name__ == "__main__":
    try:
        play(int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    except SystemExit:
        print("phoneweb: stopped")
