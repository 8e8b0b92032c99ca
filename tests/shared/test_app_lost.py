# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# A finished game removed to make room before a laptop pulled it is said on
# every station and on the line when it happens, and again on the line at
# every power-up until a laptop acknowledges it.
import os

from apprig import AppRig, remove_tree
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from scratch import scratch

ROOT = scratch("catnip-lost")
HEADER = {"game": "heist", "config": {"players": 3}, "seed": "s", "seed_commit": "c",
          "seats": [0, 1, 2]}


class Out:
    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data.extend(b)

    def frames(self, kind):
        return [i[3] for i in wire.Reader().feed(bytes(self.data))
                if i[0] == "frame" and i[2] == kind]


def _power_up(path):
    out = Out()
    rig = AppRig(Journal(path), line=Line(None, out, None, boot="b"), seed="x")
    return rig, out


def test_a_game_removed_to_make_room_is_said_until_a_laptop_hears_it():
    remove_tree(ROOT)
    os.mkdir(ROOT)
    path = ROOT + "/journal"
    j = Journal(path)
    for k in range(12):
        j.begin(dict(HEADER, seed_commit="c%d" % k))
        j.action(0, ("play", 3))
        j.finish({"ranks": [1, 2, 3]})
    rig, out = _power_up(path)
    try:
        assert out.frames("lost") == []
        rig.app.start("heist", {"players": 3, "variant": "standard", "gems": "digital"},
                      [0, 1, 2])
        lost = out.frames("lost")
        assert [(f["gid"], f["game"], f["status"]) for f in lost] == [(1, "heist", "finished")]
        said = [f["text"] for f in out.frames("say")]
        assert any("Game 1 (Meow Heist, finished) was removed" in t for t in said), said
        assert "Game 1 (Meow Heist, finished) was removed" in rig.app.frame.notices[-1]
    finally:
        rig.close()
    rig, out = _power_up(path)  # kept on flash: said again at power-up
    try:
        assert [f["gid"] for f in out.frames("lost")] == [1]
        rig.app.journal.release(1)  # a laptop acknowledged it
    finally:
        rig.close()
    rig, out = _power_up(path)
    try:
        assert out.frames("lost") == []
    finally:
        rig.close()
    remove_tree(ROOT)
