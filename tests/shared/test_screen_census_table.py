# micropython-only: the screens draw into MicroPython's built-in framebuf.
#
# The screen census of what the table shows beyond the games: its own pages
# and notices, a station's name picker at setup, and every screen of the
# tray's calibration (the census itself is tests/shared/test_screen_census.py).
from catnip.keys import OK, PRESS
from catnip.rules import TITLES
from catnip.ui import draw
from catnip.ui.setup import Setup
from test_screen_census import Census, _names


# ---- the table's own pages -------------------------------------------------------------


def pages_census():
    census = Census()
    for title in TITLES.values():
        census.look("loading " + title, lambda fb, title=title: draw.page(fb, "Starting %s..." % title, 3))
        census.look("resuming " + title, lambda fb, title=title: draw.page(fb, "Resuming %s..." % title, 3))
    census.look("between games", lambda fb: draw.page(fb, "Choose a game on any station", 2))
    notices = ["Station 8 is back", "Station 8: not answering: check its cable",
               "Resumed Stack O' Cats, 120 moves in", "Clowder high score: rank 10",
               "Journal: the flash is full", "Game 12 (Stack O' Cats, unfinished) was lost",
               "Tray calibration stopped at station 8"]
    for what in notices:
        def paint(fb, what=what):
            fb.fill(0)
            draw.notice(fb, what)
        census.look("notice %r" % what, paint)
    return census


def test_every_table_page_and_notice_fits():
    pages_census().verdict()


# ---- a station's name picker at setup ----------------------------------------------------


class _Picking:
    def __init__(self, known):
        self.names = known

    def known(self):
        return self.names

    def pick(self, station, name):
        return "stations 1 and 2 would both show 'wwwww': make the first 5 letters differ"


def _name_screens(census, stations):
    """The name picker: the names a table knows at their longest, typing a
    name up to its longest, and the setup row that opens it."""
    from catnip.keys import DOWN

    from catnip.ui.names import LETTERS

    known = [("Wwwwwwwwwwwwwwww"[:12 - i % 3] + str(i))[-12:] for i in range(16)]
    s = Setup(stations, lambda: list(range(stations)), tray=True, names=_names,
              picking=_Picking(known))
    s.cursor.at = s.rows.index(("name",))
    census.look("setup name row", lambda fb: s.draw(0, fb))
    s.key(stations - 1, OK, PRESS)
    picker = s.naming[stations - 1]
    for at in range(len(picker.labels)):
        picker.cursor.at = at
        census.look("name picker row %d" % at, lambda fb: s.draw(stations - 1, fb))
    picker.cursor.at = picker.labels.index("New name")
    s.key(stations - 1, OK, PRESS)
    for letter in range(len(LETTERS) + 1):
        picker.letter = letter
        census.look("typing letter %d" % letter, lambda fb: s.draw(stations - 1, fb))
    for typed in range(12):
        picker.typed = "Wwwwwwwwwwww"[:typed]
        s.key(stations - 1, DOWN, PRESS)
        census.look("typing %d letters" % typed, lambda fb: s.draw(stations - 1, fb))
    picker.typed = "Ww"
    picker.letter = len(LETTERS)
    s.key(stations - 1, OK, PRESS)
    census.look("name refused", lambda fb: s.draw(stations - 1, fb))


def test_every_name_picker_screen_fits():
    census = Census()
    for stations in (4, 8):
        _name_screens(census, stations)
    census.verdict()


# ---- the tray's calibration ---------------------------------------------------------------


class _Tray:
    def __init__(self, cells):
        self.hw = type("hw", (), {})()
        self.hw.board = type("board", (), {})()
        self.hw.board.tray = {"rate": 80, "cells": list(range(cells))}
        self.weigh = type("weigh", (), {})()
        self.weigh.path = "/nonexistent/calibration.json"


def calibration_census():
    from catnip.table.calibrate import Session
    from catnip.ui.calibrate import Screen, figures_text

    census = Census()
    for cells in (1, 4):
        for station in (None, 7):
            session = Session(_Tray(cells), station, None)
            screen = Screen(session)
            states = [(False, 0, 0, None), (True, 0, 0, None), (True, 1, 0, None),
                      (True, 3, 0, None), (True, 9, 0, None), (True, 5, 2, None),
                      (True, 5, 4, None), (True, 2, 0, "cat")]
            for weighed, cats, corners, measuring in states:
                if corners and cells == 1:
                    continue
                session.weighed, session.cats = weighed, cats
                session.corners, session.measuring = corners, measuring
                for at in range(max(1, len(screen.choices()))):
                    screen.cursor.at = at
                    census.look("calibrate %d cells S%s %r row %d" % (
                        cells, station, (weighed, cats, corners, measuring), at),
                        lambda fb, screen=screen: screen.draw(0, fb))
    pages = [("cat", {"cats": 1, "added": 4301, "per_cat": 4301, "sd_pm": 0, "noise_pm": 12}),
             ("cat", {"cats": 9, "added": 43012, "per_cat": 4301, "sd_pm": 123,
                      "noise_pm": 1234}),
             ("cat", {"cats": 2, "added": 12, "problem": "That is not one cat more."}),
             ("empty", {"say": "Put one cat on the base. Let go."}),
             ("corner", {"corners": 2, "say": "Move the cat above the right-back cell."}),
             ("corner", {"corners": 4, "gain_pm": [1012, 998, 1003, 987]})]
    session = Session(_Tray(4), 0, None)
    screen = Screen(session)
    from catnip.ui.calibrate import _title

    for step, fields in pages:
        screen.page = (_title(step, fields), figures_text(step, fields))
        census.look("calibrate page %s %r" % (step, fields), lambda fb: screen.draw(0, fb))
    for why in ("The tray moved while it was weighed: try again, hands off.",
                "Weigh the empty base first."):
        screen.page = ("Not taken", why)
        census.look("calibrate refusal", lambda fb: screen.draw(0, fb))
    return census


def test_every_calibration_screen_fits():
    calibration_census().verdict()
