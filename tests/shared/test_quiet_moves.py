# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# A quiet move (a Meow Heist card locked while others still choose) changes
# one row on the other stations: they draw that row alone (a whole screen is
# 8-10 ms on the Pico, seven of them one after another), and every panel
# shows what a whole redraw would.
import tablebot
from test_app_table import _rig

HEIST = {"variant": "standard", "gems": "digital"}


def _screens(rig):
    return [bytes(s.screen()) for s in rig.table.stations]


def test_a_quiet_move_redraws_its_row_alone_on_the_other_stations():
    rig = _rig("quiet")
    try:
        tablebot.start(rig, "heist", HEIST, [0, 1, 2])
        app = rig.app
        game = app.game
        while game.phase != "play":
            tablebot.do(rig, *tablebot.choose(game, "heist"))
        tablebot.read_out(app)
        rig.run(200)
        assert rig.shows(0, "Locked ...") and rig.shows(3, "Locked ...")  # 3: nobody sits
        whole = []
        scene, draw = app.scene, app.scene.draw
        scene.draw = lambda k, fb: (whole.append(k), draw(k, fb))
        seat, action = tablebot.choose(game, "heist")
        assert action[0] == "play"
        tablebot.do(rig, seat, action)
        assert set(whole) == {app.seats[seat]}  # the mover's screen alone drawn whole
        locked = "Locked " + "".join(str(s + 1) if s == seat else "." for s in range(3))
        for k in range(len(rig.table.stations)):
            assert rig.shows(k, locked), (k, rig.lines(k))
        shown = _screens(rig)
        app.frame.all_dirty()
        rig.run(100)
        assert _screens(rig) == shown  # as a whole redraw draws them
    finally:
        rig.close()


def test_a_move_that_changes_more_redraws_every_station_whole():
    rig = _rig("loud")
    try:
        tablebot.start(rig, "heist", HEIST, [0, 1])
        app = rig.app
        game = app.game
        while game.phase != "play":
            tablebot.do(rig, *tablebot.choose(game, "heist"))
        tablebot.read_out(app)
        rig.run(200)
        tablebot.do(rig, *tablebot.choose(game, "heist"))  # the first lock: quiet
        whole = []
        scene, draw = app.scene, app.scene.draw
        scene.draw = lambda k, fb: (whole.append(k), draw(k, fb))
        tablebot.do(rig, *tablebot.choose(game, "heist"))  # the last: the reveal follows
        rig.run(100)
        assert {0, 1} <= set(whole) and set(whole) & {2, 3}  # 2, 3: the table's, drawn once
    finally:
        rig.close()
