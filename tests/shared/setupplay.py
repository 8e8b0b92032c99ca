# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Presses from power-on to the first lock: the table app on the simulated
# mux board (eight stations) is switched on, a player walks its setup menu
# to a title and a player count by the shortest way the menu allows (read
# from the menu's own state, as a player reads the screen), starts the game
# and presses OK on the first player's station until the rules accept a move
# (the first card locked, cat drawn or offer made). Every press is a tap on
# a simulated button; the count is the taps it took.
#
# "factory": a table fresh from the box (no setup remembered). "previous":
# the same group played that title at that count in the last game, which
# ended, and the table was switched off and on again.
import os

from apprig import AppRig, remove_tree
from catnip.flash.journal import Journal
from catnip.ui.setup import player_range

BOARD = "mux"
BUTTON = {"up": "up", "down": "down", "ok": "ok"}
MAX_GAME_PRESSES = 12


def counts(game, stations=8):
    """The player counts worth measuring for `game`: 2 (or the fewest it
    takes), 4 and the most, with its default settings, on `stations`."""
    lo, hi = player_range(game, {})
    return sorted(set([max(2, lo), 4, min(hi, stations)]))


class Counted:
    """The app on the board, every tap counted."""

    def __init__(self, folder):
        self.rig = AppRig(Journal(folder + "/journal"), board=BOARD)
        self.app = self.rig.app
        self.taps = 0

    def tap(self, station, button):
        self.taps += 1
        self.rig.tap(station, button)

    def close(self):
        self.rig.close()


def _toward(at, target, n):
    """The button that moves a wrapping list's cursor from `at` to `target`
    the short way; "ok" once there."""
    if at == target:
        return "ok"
    forward = (target - at) % n
    return "down" if forward <= n - forward else "up"


def setup_button(setup, game, players):
    """The next press towards `game` with `players` (the first stations),
    then Start."""
    rows = setup.rows
    kinds = [r[0] for r in rows]
    if setup.game != game:
        target = kinds.index("game")
    elif len(setup.seats) != players:
        target = kinds.index("players")
    else:
        target = kinds.index("go")
    return _toward(setup.cursor.at, target, len(rows))


def first_lock(table, game, players):
    """Press from setup to the first move the rules accept; the taps it took."""
    before = table.taps
    for _ in range(60):
        if table.app.scene.kind != "setup":
            break
        table.tap(0, setup_button(table.app.scene, game, players))
    app = table.app
    assert app.scene.kind == "play" and app.name == game, "setup did not start %s" % game
    assert len(app.seats) == players, "started with %d players, not %d" % (
        len(app.seats), players)
    first = app.seats[app.game.config.get("start", 0)]
    for _ in range(MAX_GAME_PRESSES):
        if app.game.log:
            return table.taps - before
        table.tap(first, "ok")
    if app.game.log:
        return table.taps - before
    raise AssertionError("%s: no move accepted after %d presses of OK: %s" % (
        game, MAX_GAME_PRESSES, table.rig.lines(first)))


def measure(folder, game, players, previous):
    """Presses from power-on to the first lock of `game` with `players`."""
    here = os.getcwd()
    remove_tree(folder)
    os.mkdir(folder)
    os.chdir(folder)  # the app keeps setup.json beside it, as on the Pico's flash
    try:
        if previous:  # the last game, played and ended: the table remembers it
            table = Counted(folder)
            first_lock(table, game, players)
            table.app.end_game("the last game of the evening is over")
            table.close()
        table = Counted(folder)  # power on
        n = first_lock(table, game, players)
        table.close()
        return n
    finally:
        os.chdir(here)
        remove_tree(folder)
