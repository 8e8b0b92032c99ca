# micropython-only: the table app on the simulated table, its serial line on
# a pty the laptop's `catnip calibrate` opens (tests/test_calibrate_e2e.py),
# with a maker's hands on the tray told over this process's stdin:
#
#   micropython calibplay.py FD FOLDER BOARD
#
#   load N       N cats on the base (the empty base: 0), the load shared
#                evenly by the cells
#   corner I     one cat right above load cell I, nothing else on the base
#   push         a hand pressing on the tray harder and harder, from now
#   game         start a game of Stack O' Cats on stations 1 and 2
#   quit
#
# Each is answered "ok" once the load has stood for 300 ms of table time.
# The calibration is saved as FOLDER/calibration.json, as on the Pico.
import os
import select
import sys
import time

import tablebot
from apprig import AppRig
from calibrig import Hands
from catnip.flash.journal import Journal
from devsim.link_runner import pty_line
from devsim.table import Table
from tablerig import load

def main():
    fd, folder, board = sys.argv[1:4]
    os.chdir(folder)
    b = load(board)
    table = Table(b, rate=b.tray["rate"])
    hands = Hands(len(b.tray["cells"]), table.clock)
    table.counts = hands
    line = pty_line(int(fd))
    rig = AppRig(Journal(folder + "/journal"), line=line, weigh=folder + "/calibration.json",
                 table=table)
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    try:
        while True:
            if waiting.poll(0):
                words = sys.stdin.readline().split()
                if not words or words[0] == "quit":
                    break
                if words[0] == "game":
                    tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                                  "draw": "digital"}, [0, 1])
                else:
                    hands.do(words)
                rig.run(300)
                print("ok")
            rig.run(10)
            time.sleep_ms(1)
    finally:
        rig.close()


main()
