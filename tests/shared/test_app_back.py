# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# BACK has a short action and a long one: a long BACK does only the long one
# (the menu), a short BACK acts once it is let go.
import tablebot
from test_app_table import _rig

HEIST = {"variant": "standard", "gems": "digital"}


def _locked(rig):
    """P1 locks the card under the cursor; P2's station says so."""
    rig.tap(0, "ok")
    rig.tap(0, "ok")
    rig.run(300)
    assert rig.shows(1, "Locked 1.."), rig.lines(1)


def test_a_long_back_opens_the_menu_and_leaves_a_locked_card_locked():
    rig = _rig("long back")
    try:
        tablebot.start(rig, "heist", HEIST, [0, 1, 2])
        _locked(rig)
        moves = len(rig.app.game.log)
        rig.hold(0, "back", 1000)
        assert rig.shows(0, "Menu"), rig.lines(0)
        assert len(rig.app.game.log) == moves and not rig.app.scene.banner, rig.app.scene.banner
        rig.tap(0, "back")  # the menu closes
        rig.run(300)
        assert rig.shows(1, "Locked 1.."), rig.lines(1)
        assert len(rig.app.game.log) == moves and not rig.shows(0, "Menu"), rig.lines(0)
    finally:
        rig.close()


def test_a_short_back_acts_once_it_is_let_go():
    rig = _rig("short back")
    try:
        tablebot.start(rig, "heist", HEIST, [0, 1, 2])
        _locked(rig)
        moves = len(rig.app.game.log)
        rig.table.stations[0].press("back")
        rig.run(300)
        assert len(rig.app.game.log) == moves, "held: not yet"
        rig.table.stations[0].release("back")
        rig.run(150)
        assert len(rig.app.game.log) == moves + 1, "let go: the card is unlocked"
        assert not rig.shows(1, "Locked 1.."), rig.lines(1)
    finally:
        rig.close()


def test_a_long_back_in_stack_o_cats_asks_nothing_of_the_last_report():
    rig = _rig("long back stack")
    try:
        tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                      "draw": "digital"}, [0, 1])
        app = rig.app
        tablebot.do(rig, 0, ("draw",))
        tablebot.do(rig, 0, ("place", 1, 0))
        assert app.game.corrector() == 0, "P1 may take the report back"
        rig.hold(0, "back", 1000)
        assert rig.shows(0, "Menu") and app.scene.local[0].confirm is None, rig.lines(0)
    finally:
        rig.close()
