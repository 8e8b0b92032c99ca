# Power-up: read board.json, check the parts, build the app, and say what
# is wrong in words a player understands, never with a traceback. main.py
# then drops this module (its code is needed only now) and serves the app.
#
# With no board.json (a first power-up), the wiring is matched against the
# shipped layouts (catnip.parts.detect): a match is shown on the stations and
# written as board.json once a person presses OK; no match is named, with
# what answered and what is missing. A broken board.json is shown on every
# panel that answers at the usual places (both shipped layouts) and on the
# serial line. BACK held on any station at power-up leaves the REPL to
# whoever is at the laptop.
import sys

BOARD_FILE = "board.json"
JOURNAL_DIR = "journal"
CALIBRATION_FILE = "calibration.json"
BACK_CHECK_MS = 60  # long enough for the debouncer to see a held button


def say(text):
    out("catnip: " + text)


out = print  # where messages go besides the screens: the serial line


def main(room=None):
    """The app, ready to serve(); or None when it is not to run (the
    problems are shown, or BACK was held: the REPL stays)."""
    board = _read_board()
    if board is None:
        return None
    hw = hardware(board)
    if _back_held(hw):
        say("BACK held at power-up: the app is skipped and the REPL is yours")
        _show_all(hw, ["REPL mode", "BACK was held", "at power-up"])
        return None
    return start(board, hw, room)


def hardware(board):
    """The drivers of every station of `board`. The board's station
    descriptions are done with then (the drivers hold what they need), so
    they leave the heap: some 1.6 KB on seven stations, and so does the
    board's description."""
    from catnip.parts.hardware import Hardware

    hw = Hardware(board, len(board.stations))
    board.drivers_made()
    return hw


def start(board, hw, room=None):
    from catnip.table.app import App
    from catnip.flash.journal import Journal
    from catnip.link.line import Line
    from catnip import ctrl_c

    ctrl_c(False)  # from the journal's first write on, Ctrl-C waits for the line (serve)
    notices = _missing(board, hw)
    for text in notices:
        say(text)
    line = Line(sys.stdin.buffer, sys.stdout.buffer, None)
    return App(hw, Journal(JOURNAL_DIR), line=line, weigh=_weigh(board, hw), notices=notices,
               room=room)


def _read_board():
    """The checked board, or None once its problems are shown. The checker
    is dropped before the app loads: it is needed only now."""
    import os

    from catnip import forget, room_for_modules

    room_for_modules()  # first, at the bottom of the heap
    try:
        os.stat(BOARD_FILE)
    except OSError:
        if not _first_power_up():
            return None
    from catnip.board import load
    from catnip.layout import BoardError

    try:
        return load(BOARD_FILE)
    except BoardError as e:
        _broken(["board.json has problems:"] + e.problems, _panel_named())
        return None
    finally:
        forget("catnip.board")
        forget("catnip.board_check")


NO_BOARD = ("no board.json on the Pico: run `catnip deploy --board direct` (or mux), or copy "
            "firmware/boards/direct.json or mux.json to it as board.json (mpremote cp "
            "firmware/boards/direct.json :board.json)")


def _first_power_up():
    """No board.json: the wiring matched against the shipped layouts and
    shown; board.json is written once a person presses OK on a station.
    Whether it was written."""
    try:
        from catnip.parts.detect import survey
    except ImportError:  # a tree run as source has no shipped boards made
        _broken([NO_BOARD])
        return False
    from catnip import forget

    board, found, missing = survey()
    forget("catnip.parts.detect")
    if board is None:
        _broken(["no board.json, and the wiring matches no shipped layout. Answering: "
                 + ("; ".join(found) or "nothing") + ". Missing: " + "; ".join(missing)])
        return False
    from catnip.board import parse

    layout = parse(board)
    forget("catnip.board")
    hw = hardware(layout)
    n = len(hw.screens)
    say("no board.json yet. Found: " + "; ".join(found) + "." +
        "".join(" " + text + "." for text in missing) +
        " Press OK on a station to save the %s layout with %d stations as board.json, or BACK "
        "to keep the REPL (nothing is written)" % (board["name"], n))
    _show_all(hw, ["%s layout, %d" % (board["name"], n),
                   "stations%s" % (" + table" if board.get("table") else ""),
                   "OK: save board.json", "BACK: REPL, no save"])
    if not _confirmed(hw):
        say("board.json not written: the REPL is yours")
        _show_all(hw, ["REPL mode", "board.json not", "written"])
        return False
    from catnip.flash import flashfile

    flashfile.save(BOARD_FILE, board)
    say("board.json written: the %s layout with %d stations" % (board["name"], n))
    return True


def _confirmed(hw):
    """Wait for OK (True) or BACK (False) on any station."""
    from time import sleep_ms, ticks_ms

    from catnip.drivers.debounce import PRESS
    from catnip.keys import BACK, OK

    while True:
        hw.flush(ticks_ms())
        hw.poll(ticks_ms())
        while True:
            ev = hw.next()
            if ev is None:
                break
            if ev[1] == PRESS and ev[2] in (OK, BACK):
                return ev[2] == OK
        sleep_ms(10)


def _back_held(hw):
    """Whether BACK is held on any station now (polled for BACK_CHECK_MS)."""
    from time import sleep_ms, ticks_ms

    from catnip.keys import BACK, PRESS

    held = False
    for _ in range(BACK_CHECK_MS // 10):
        hw.flush(ticks_ms())  # the screens answer first: a station is online once both parts are
        hw.poll(ticks_ms())
        while True:
            ev = hw.next()
            if ev is None:
                break
            if ev[1] == PRESS and ev[2] == BACK:
                held = True
        sleep_ms(10)
    return held


def _missing(board, hw):
    """What does not answer, one sentence each."""
    from catnip.parts.screen import SCREEN

    out = []
    for k in range(len(hw.screens)):
        gone = hw.missing(k)
        if gone & (1 << SCREEN):
            out.append("Station %d: screen not answering: check its cable" % (k + 1))
        if gone & 1:
            out.append("Station %d: buttons not answering: check its cable" % (k + 1))
    if board.table is not None and hw.table is not None and hw.table.online is False:
        out.append("Table display not answering: check its cable")
    return out


def _weigh(board, hw):
    if board.tray is None:
        return None
    from catnip.table.weigh import Weigh

    return Weigh(hw, CALIBRATION_FILE)


def _show_all(hw, lines):
    from time import ticks_ms

    from catnip.ui import draw

    draw.everywhere(hw, lines, ticks_ms())


def _panel_named():
    """The panel a board.json that failed its checks names for its screens,
    as far as it reads: "sh1106" (the 1.3 in module's) if every screen it
    names is one, else the SSD1306."""
    from catnip.flash import flashfile

    try:
        board = flashfile.load(BOARD_FILE, {})
        places = list(board.get("stations") or []) + [board.get("table") or {}]
        kinds = set(p["oled"].get("panel", "ssd1306") for p in places if p.get("oled"))
    except (TypeError, AttributeError):  # not the shape a board has
        return "ssd1306"
    return "sh1106" if kinds == {"sh1106"} else "ssd1306"


def _broken(problems, kind="ssd1306"):
    """Every problem on the line, and on whatever panels answer, driven as
    panels of `kind`."""
    for p in problems:
        say(p)
    try:
        _show_problems(problems, kind)
    except Exception as e:  # noqa: BLE001 (nothing may stop the message on the line)
        say("could not show this on the screens either (%s)" % e)


def _show_problems(problems, kind):
    """Panels at the shipped layouts' places: 0x3C/0x3D on I2C0 (GP0/GP1) and
    I2C1 (GP2/GP3), and behind a TCA9548A at 0x70 on I2C0."""
    from machine import I2C, Pin

    from catnip.drivers.ssd1306 import Canvas
    from catnip.parts.screen import panel
    from catnip.ui import draw

    text = []
    for p in problems:
        text += draw.wrap(p)
    fb = Canvas()
    draw.clear(fb)
    draw.title(fb, "board.json")
    for row, line in enumerate(text[:6]):
        draw.text(fb, 1 + row, line)
    buses = []
    for bus_id, sda, scl in ((0, 0, 1), (1, 2, 3)):
        try:
            buses.append(I2C(bus_id, sda=Pin(sda), scl=Pin(scl), freq=400000))
        except (OSError, ValueError):
            pass
    for i2c in buses:
        found = i2c.scan()
        channels = [None]
        if 0x70 in found:
            channels = list(range(8))
        for ch in channels:
            if ch is not None:
                i2c.writeto(0x70, bytes((1 << ch,)))
                found = i2c.scan()
            for addr in (0x3C, 0x3D):
                if addr in found:
                    try:
                        oled = panel(i2c, {"panel": kind, "addr": addr, "height": 64,
                                           "flip": False})
                        oled.init_display()
                        oled.show(fb)
                    except OSError:
                        pass
