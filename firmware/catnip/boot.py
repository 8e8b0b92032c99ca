# Power-up: read board.json, check the parts, build the app, and say what
# is wrong in words a player understands, never with a traceback. main.py
# then drops this module (its code is needed only now) and serves the app.
#
# A missing or broken board.json is shown on every panel that answers at
# the usual places (both shipped layouts) and on the serial line. BACK held
# on any station at power-up leaves the REPL to whoever is at the laptop.
import sys

BOARD_FILE = "board.json"
JOURNAL_DIR = "journal"
CALIBRATION_FILE = "calibration.json"
BACK_CHECK_MS = 60  # long enough for the debouncer to see a held button


def say(text):
    out("catnip: " + text)


out = print  # where messages go besides the screens: the serial line


def main():
    """The app, ready to serve(); or None when it is not to run (the
    problems are shown, or BACK was held: the REPL stays)."""
    board = _read_board()
    if board is None:
        return None
    from catnip.hardware import Hardware

    hw = Hardware(board, len(board.stations))
    if _back_held(hw):
        say("BACK held at power-up: the app is skipped and the REPL is yours")
        _show_all(hw, ["REPL mode", "BACK was held", "at power-up"])
        return None
    return start(board, hw)


def start(board, hw):
    from catnip.app import App
    from catnip.journal import Journal
    from catnip.line import Line

    notices = _missing(board, hw)
    for text in notices:
        say(text)
    line = Line(sys.stdin.buffer, sys.stdout.buffer, None)
    return App(hw, Journal(JOURNAL_DIR), line=line, weigh=_weigh(board, hw), notices=notices)


def _read_board():
    """The checked board, or None once its problems are shown. The checker
    is dropped before the app loads: it is needed only now."""
    import os

    from catnip import forget

    try:
        os.stat(BOARD_FILE)
    except OSError:
        _broken(["no board.json on the Pico: copy firmware/boards/direct.json or mux.json "
                 "to it as board.json (mpremote cp firmware/boards/direct.json :board.json)"])
        return None
    from catnip.board import load
    from catnip.layout import BoardError

    try:
        return load(BOARD_FILE)
    except BoardError as e:
        _broken(["board.json has problems:"] + e.problems)
        return None
    finally:
        forget("catnip.board")


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
    from catnip.screen import SCREEN

    out = []
    for k in range(len(board.stations)):
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
    from catnip.weigh import Weigh

    return Weigh(hw, CALIBRATION_FILE)


def _show_all(hw, lines):
    from time import ticks_ms

    from catnip.ui import draw

    fb = hw.canvas
    draw.clear(fb)
    draw.title(fb, "catnip")
    for i, line in enumerate(lines):
        draw.text(fb, 2 + i, line)
    for screen in hw.screens + ([hw.table] if hw.table is not None else []):
        screen.take(fb)
    hw.flush(ticks_ms())


def _broken(problems):
    """Every problem on the line, and on whatever panels answer."""
    for p in problems:
        say(p)
    try:
        _show_problems(problems)
    except Exception as e:  # noqa: BLE001 (nothing may stop the message on the line)
        say("could not show this on the screens either (%s)" % e)


def _show_problems(problems):
    """Panels at the shipped layouts' places: 0x3C/0x3D on I2C0 (GP0/GP1) and
    I2C1 (GP2/GP3), and behind a TCA9548A at 0x70 on I2C0."""
    from machine import I2C, Pin

    from catnip.drivers.ssd1306 import SSD1306, Canvas
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
                        SSD1306(i2c, addr).show(fb)
                    except OSError:
                        pass
