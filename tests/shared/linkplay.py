# micropython-only: the table app on the simulated table, its serial line on a
# pty the laptop side (tests/test_link_e2e.py) reads, playing one game by
# pressing buttons (tablebot) at a pace the laptop can watch. Seats after the
# stations are phone seats: the laptop presses for them (tests/linkrig.py's
# PhoneSeat); the bot waits while it is their turn.
#
#   micropython linkplay.py FD GAME OPTIONS_JSON SEATS_JSON FOLDER PACE_MS
#
# Everything the table meant to send is logged to FOLDER/sent.bin. Once the
# game has ended the table keeps serving the line until the laptop sends
# "stop" (or WAIT_MS pass).
import json
import os
import sys
import time

import tablebot
from apprig import AppRig
from catnip.flash.journal import Journal
from devsim.link_runner import pty_line

WAIT_MS = 30000
# The bot plays some 30 times faster than people do, so the frames kept for a
# laptop that was away (4 KB on the Pico: 20-odd moves, half a minute of real
# play) would cover well under a second here; keep as much play time as the
# Pico does. Losing more than is kept is tested on its own (tests/test_link.py).
RING = 32768


def main():
    fd, game, options, seats, folder, pace = sys.argv[1:7]
    options, seats, pace = json.loads(options), json.loads(seats), int(pace)
    os.chdir(folder)
    log = open(folder + "/sent.bin", "wb")
    line = pty_line(int(fd), log=log, ring=RING)
    rig = AppRig(Journal(folder + "/journal"), line=line, seed=folder.rsplit("/", 1)[-1][-60:])
    try:
        while max(seats) >= rig.app.stations and not rig.app.phones.offered():
            rig.run(10)  # setup offers phone places once the laptop has spoken
            time.sleep_ms(10)
        while True:
            step = tablebot.next_press(rig.app, game, options, seats)
            if step is None:
                break
            if step[1] is None:  # a phone seat's turn: its player presses on the phone
                rig.run(10)
                time.sleep_ms(10)
                continue
            rig.tap(step[0], tablebot.NAMES[step[1]])
            time.sleep_ms(pace)
        t0 = time.ticks_ms()
        while time.ticks_diff(time.ticks_ms(), t0) < WAIT_MS:
            rig.run(10)
            time.sleep_ms(2)
        print("linkplay: nobody sent stop")
    except SystemExit:
        print("linkplay: stopped")
    finally:
        log.close()
        rig.close()


main()
