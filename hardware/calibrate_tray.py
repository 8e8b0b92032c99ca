# Calibrate the tray from the laptop. Runs on the Pico (MicroPython), from its REPL:
#
#     mpremote cp hardware/calibrate_tray.py :calibrate_tray.py
#     mpremote repl            then type: import calibrate_tray; calibrate_tray.run()
#
# It reads board.json for the tray's cells and rate, asks for each step on the terminal (Enter
# to confirm, q to stop), and saves the calibration as JSON for the device to reuse.
import json

from catnip import board
from catnip.drivers.hx711 import HX711Group, SensorFault
from catnip.tray import Calibrator

SAVE_AS = "tray_calibration.json"
CATS = 5  # cats to add one at a time; more give a more precise average cat


def _ask(prompt, read=input):
    answer = read(prompt + " [Enter, or q to stop] ")
    return answer.strip().lower() != "q"


def _capture(cells, cal, k, feed):
    """Feed readings until the capture of k cats ends; return its verdict."""
    cal.capture(k)
    while True:
        done = feed(cal, cells.read())
        if done:
            return done


def _feed(cal, counts):
    if len(counts) == 1:
        return cal.feed(counts[0])
    return cal.feed4(counts[0], counts[1], counts[2], counts[3])


def run(board_path="board.json", save_as=SAVE_AS, cats=CATS, read=input, cells=None):
    """Walk through the calibration; return the saved dict, or None when stopped.
    `cells` is the HX711 group (built from the board when None)."""
    try:
        b = board.load(board_path)
    except board.BoardError as e:
        print(e)
        return None
    if not b.tray:
        print("%s has no tray: add \"tray\" with its cells (see hardware/tray.md)" % board_path)
        return None
    rate = b.tray["rate"]
    pins = b.tray["cells"]
    if cells is None:
        cells = HX711Group(pins[0]["sck"], [c["dout"] for c in pins], rate=rate)
    cal = Calibrator(rate, len(pins))
    steps = ["the empty base on the tray, hands off"]
    steps += ["%d cat%s on the base, let go" % (k, "" if k == 1 else "s")
              for k in range(1, cats + 1)]
    k = 0
    while k < len(steps):
        if not _ask("Put %s." % steps[k], read):
            print("stopped; nothing saved")
            return None
        try:
            done = _capture(cells, cal, k, _feed)
        except SensorFault as e:
            print("the tray does not answer: %s. Check the HX711 wiring (hardware/tray.md)" % e)
            continue
        if not done["ok"]:
            print("not taken: %s. Again:" % done["why"])
            continue
        k += 1
    saved = cal.result().to_dict()
    with open(save_as, "w") as f:
        json.dump(saved, f)
    print("one cat is %d counts, cats differ by %d, noise %d counts (%d%% of a cat); saved %s"
          % (saved["per_cat"], saved["cat_sd"], saved["noise"],
             100 * saved["noise"] // saved["per_cat"], save_as))
    return saved
