# micropython-only: the panels draw into MicroPython's built-in framebuf.
#
# The panels keep no copy of what they show: they send from the one canvas
# every station is drawn on. What a station took and had not sent when the
# canvas was begun over must never reach its glass as someone else's
# picture; it is drawn again, and so is a panel that restarted.
from catnip.ui import draw
from catnip.ui.frame import Frame
from catnip.ui.scene import Scene as Base
from tablerig import Rig, load


class Scene(Base):
    """Each station shows its own number and the scene's note."""

    kind = "setup"

    def __init__(self):
        self.note = ""

    def draw(self, k, fb):
        draw.clear(fb)
        fb.text("Station %d %s" % (k + 1, self.note), 0, 0, 1)


class Clock:
    def __init__(self, table):
        self.ticks_ms = table.ticks_ms


def _table(players=3):
    rig = Rig(load("mux"), players)
    rig.run(100)  # the panels and buttons come up
    frame = Frame(rig.hw, Clock(rig.table))
    return rig, frame


def _pass(rig, frame, scene):
    if frame.scene is not scene:
        frame.show(scene)
    now = rig.table.ticks_ms()
    for k in range(len(frame.dirty)):
        if frame.dirty[k]:
            frame.redraw(k)
        frame.flush(k, now)


def _first_line(rig, k):
    return rig.table.stations[k].lines()[0].strip()


def test_a_picture_taken_and_not_sent_is_drawn_again_not_sent_from_another():
    rig, frame = _table()
    with rig:
        scene = Scene()
        _pass(rig, frame, scene)
        assert [_first_line(rig, k) for k in range(3)] == ["Station 1", "Station 2", "Station 3"]
        scene.note = "two"
        frame.all_dirty()
        frame.redraw(0)  # drawn, not sent yet: a press comes
        frame.redraw(1)
        assert frame.dirty[0], "station 1's picture is gone from the canvas: it is drawn again"
        now = rig.table.ticks_ms()
        frame.flush(0, now)
        assert _first_line(rig, 0) == "Station 1", "nothing of station 2's picture on station 1"
        frame.flush(1, now)
        assert _first_line(rig, 1) == "Station 2 two"
        _pass(rig, frame, scene)
        assert [_first_line(rig, k) for k in range(3)] == \
            ["Station 1 two", "Station 2 two", "Station 3 two"]
        assert frame.dirty == [False] * 3


def test_a_panel_that_restarted_is_cleared_then_drawn_again():
    rig, frame = _table()
    with rig:
        scene = Scene()
        _pass(rig, frame, scene)
        frame.redraw(2)  # the canvas holds station 3 from here on
        frame.flush(2, rig.table.ticks_ms())
        panel = rig.table.stations[0].oled
        panel.unplug()
        panel.plug()  # power-cycled between two transfers: dark, GDDRAM noise
        rig.table.advance(1100)  # the next probe finds it reset
        frame.flush(0, rig.table.ticks_ms())
        assert rig.hw.screens[0].restarts == 1
        assert not any(rig.table.stations[0].screen()), "cleared, not noise nor station 3"
        assert frame.dirty[0], "and drawn again at the next pass"
        _pass(rig, frame, scene)
        assert _first_line(rig, 0) == "Station 1"
