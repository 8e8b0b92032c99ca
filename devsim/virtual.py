# The virtual table. The unmodified app (catnip.table.app) runs on the simulated
# table (devsim.table) built from a board file, and talks to the laptop's
# `catnip sim` over this process's stdin and stdout, one line each way. It runs on
# the MicroPython unix port, or on CPython through devsim/cpython/run.py, which
# stands in for MicroPython's built-in modules (framebuf, micropython, ticks):
#
#   in  (text)   tap S BUTTON [HOLD_MS] | press S BUTTON | release S BUTTON
#                tray place | tray remove | tray collapse K | tray hand
#                serial TEXT (a line for the app's serial input) | wait MS
#                screens (send every screen again) | quit
#   out (JSON)   {"k": "ready", "stations", "board", "tray", "journal"}
#                {"k": "screen", "s": S, "h": height, "img": base64, "rows", "attr"}
#                    (when it changed: the SSD1306 model's image, and its 8x8
#                    cells read back as text, see cells())
#                {"k": "line", "m": {...}} (the app's serial output, a line each)
#                {"k": "tray", "tower": n, "loose": n[, "lean"]}   {"k": "error", "why"}
#                (a command refused: nothing changed)   {"k": "crash", "why"} (the app
#                raised: its traceback; the process exits 3)   {"k": "bye"}
#   scripts      {"k": "snap", "name", "s", "h", "img"}   {"k": "fail", "step", "why",
#                "screens"} (exit 1)   {"k": "standings", "lines", "screens"} (exit 0)
#
# Stations are numbered from 1 as players see them; buttons are up, down, ok,
# back. Time is the table's VirtualClock, stepped 10 ms at a time: in real
# time for a person at the keyboard (--clock live), as fast as it goes for a
# script (--clock fast, where only `wait` moves time on). A scenario file
# (--script FILE) is played the same way and checked by its expect steps.
#
#   micropython devsim/virtual.py --board B.json --journal DIR [--clock live|fast]
#       [--seed S] [--stations N] [--script FILE]
#   python devsim/cpython/run.py devsim/virtual.py ... (the same options)
import json
import os
import sys


from catnip import board as boards
from devsim.virtual_table import Refused, VirtualTable
from devsim.virtual_laptop import _FOLDER_FAULTS, Laptop, Stopped, _int, crash_report
from devsim.virtual_script import check_step, check_steps, do_step, load_script, run_script


def serve(vt, live, steps=None):
    """Play the scenario's steps if any (in real time when live, then carry
    on with the laptop's commands), else the laptop's commands until quit.
    Returns the exit status: 0, 1 when a step failed, 3 when the app crashed."""
    laptop = Laptop(vt, live)
    status = 0
    try:
        if steps is not None:
            vt.pacer = laptop.pace if live else None
            status = run_script(vt, steps)
            vt.pacer = None
        if live or steps is None:
            laptop.serve()
    except Stopped:
        pass
    except Exception as e:  # the app itself failed: say so, as the Pico's REPL would
        vt.send({"k": "crash", "why": crash_report(e)})
        return 3
    vt.send({"k": "bye"})
    return status


# ---- the command line -------------------------------------------------------------

USAGE = ("usage: virtual.py --board FILE --journal DIR [--clock live|fast] [--seed S] "
         "[--stations N] [--script FILE] [--line-fd FD] [--names JSON]")


def options(argv):
    opts = {"clock": "live", "seed": None, "stations": None, "script": None, "board": None,
            "journal": None, "line-fd": None, "names": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            raise Refused("%s; not %r" % (USAGE, argv[i]))
        opts[key] = argv[i + 1]
        i += 2
    if opts["board"] is None or opts["journal"] is None:
        raise Refused(USAGE)
    if opts["clock"] not in ("live", "fast"):
        raise Refused("--clock is live or fast, not %r" % opts["clock"])
    return opts


def _json(text, what):
    try:
        return json.loads(text)
    except ValueError:
        raise Refused("%s is JSON, not %r" % (what, text))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")


def start(opts):
    """The table for the options, and the scenario's steps (or None)."""
    try:
        with open(opts["board"]) as f:
            board = boards.parse(json.load(f))
    except OSError:
        raise Refused("cannot read board file %s" % opts["board"])
    except boards.BoardError as e:
        raise Refused("board %s: %s" % (opts["board"], "; ".join(e.problems)))
    except ValueError:
        raise Refused("board file %s is not JSON" % opts["board"])
    steps, seed = None, opts["seed"]
    if opts["script"] is not None:
        script_seed, steps = load_script(opts["script"])
        seed = seed if seed is not None else (script_seed or "1")
    try:
        os.chdir(opts["journal"])  # the Pico's flash: setup.json, the journal, the high scores
    except OSError as e:
        raise Refused("cannot use %s as the table's flash folder: %s" % (
            opts["journal"], _FOLDER_FAULTS.get(e.errno, "error %s" % e.errno)))
    stations = _int(opts["stations"], "--stations") if opts["stations"] else None
    if stations is not None and not 1 <= stations <= len(board.stations):
        raise Refused("board %s has %d stations, not %d" % (
            board.name, len(board.stations), stations))
    line_fd = _int(opts["line-fd"], "--line-fd") if opts["line-fd"] is not None else None
    vt = VirtualTable(board, opts["journal"], send, stations, seed, line_fd)
    if steps is not None:
        check_steps(vt, steps)
    if opts["names"] is not None:  # as a laptop would send them once the table is up
        step = {"names": _json(opts["names"], "--names")}
        try:
            check_step(vt, step)
        except Refused as e:
            raise Refused("--names: %s" % e)
        do_step(vt, step)
    return vt, steps


def main(argv):
    try:
        opts = options(argv)
        vt, steps = start(opts)
    except Refused as e:
        send({"k": "error", "why": str(e)})
        return 2
    except Exception as e:  # the app failed to start
        send({"k": "crash", "why": crash_report(e)})
        return 3
    send({"k": "ready", "stations": vt.stations, "board": vt.board.name,
          "tray": vt.tower is not None, "journal": vt.journal_kind})
    live = opts["clock"] == "live"
    if steps is not None and not live:
        return run_script(vt, steps)
    return serve(vt, live, steps)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
