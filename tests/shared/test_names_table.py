# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Names from the laptop: the table keeps them on flash by station, the setup
# and the game's screens show them in place of P1, P2, ... (cut to what a
# station has room for), the game's journal header carries them for the
# records, and names the table cannot take are refused with the reason,
# changing nothing.
import json

from calibrig import Maker
from catnip.flash import flashfile


def _answer(maker):
    got = [f for f in maker.out.take() if f[0] in ("named", "err")]
    assert len(got) == 1, got
    return got[0]


def test_names_are_kept_shown_and_journaled():
    m = Maker("names")
    try:
        m.command("names", names=["Ana", "Bartholomew", "", "Dee"])
        kind, fields = _answer(m)
        assert kind == "named" and fields["names"] == ["Ana", "Bartholomew", "", "Dee"]
        assert flashfile.load("names.json") == ["Ana", "Bartholomew", "", "Dee"]
        m.rig.run(200)
        assert m.rig.shows(0, "You: Ana")
        assert m.rig.shows(1, "You: Barth")  # cut to the five a station shows
        assert m.rig.shows(2, "You: P3")  # nobody named at station 3
        m.rig.tap(0, "ok")  # Start game
        assert m.app.scene.kind == "play"
        begin = [f for k, f in m.out.take() if k == "begin"]
        assert begin[0]["names"] == ["Ana", "Bartholomew", "", "Dee"]
        header = m.app.journal.header(m.app.gid)
        assert header["names"] == ["Ana", "Bartholomew", "", "Dee"]
        m.rig.run(300)
        assert m.rig.shows(0, "Ana") and m.rig.shows(1, "Barth")
        assert not any("Bartholomew" in row for row in m.rig.lines(1))
        for k in range(4):  # the title row, where the seat's name is, keeps to 16 columns
            assert len(m.rig.lines(k)[0]) <= 16, m.rig.lines(k)
    finally:
        m.close()


def test_names_survive_a_power_cut():
    m = Maker("names-power")
    try:
        m.command("names", names=["Ana", "Bo"])
        assert _answer(m)[0] == "named"
        path = m.path
    finally:
        m.close()
    again = Maker("names-power-2")
    try:
        with open(path + "/names.json") as f:
            saved = json.load(f)
        with open(again.path + "/names.json", "w") as f:
            json.dump(saved, f)
        from catnip.table.app import App

        table = App(again.rig.hw, again.app.journal, clock=again.app.clock)
        assert table.names == ["Ana", "Bo"]
    finally:
        again.close()


def test_names_the_table_cannot_take_change_nothing():
    m = Maker("names-bad")
    try:
        m.command("names", names=["Ana", "Bo"])
        assert _answer(m)[0] == "named"
        for bad, why in ((["A", "B", "C", "D", "E"], "at most 4"),
                         (["Ana", "Bartholomew-Jones"], "17 characters"),
                         (["Ana\x1b[2J"], "station 1"),
                         (["Alexander", "alexandra"], "stations 1 and 2"),
                         (["Ana", 7], "must be str")):
            m.command("names", names=bad)
            kind, fields = _answer(m)
            assert kind == "err" and why in fields["why"], (bad, fields)
            assert m.app.names == ["Ana", "Bo"]
            assert flashfile.load("names.json") == ["Ana", "Bo"]
    finally:
        m.close()


def test_a_damaged_names_file_is_no_names():
    m = Maker("names-damaged")
    try:
        for text in ('["' + "x" * 40 + '"]', "not json", '{"a": 1}', '["A","B","C","D","E"]'):
            with open("names.json", "w") as f:
                f.write(text)
            assert flashfile.names(4) == [], text
    finally:
        m.close()


def test_a_resumed_game_keeps_its_names():
    m = Maker("names-resume")
    try:
        m.command("names", names=["Ana", "Bo"])
        assert _answer(m)[0] == "named"
        m.rig.tap(0, "ok")  # Start game
        assert m.app.scene.kind == "play"
        m.command("names", names=["Cy", "Di"])  # for the next game: this one keeps its own
        assert _answer(m)[0] == "named"
        m.rig.run(300)
        assert m.rig.shows(0, "Ana")
        from apprig import AppRig
        from catnip.flash.journal import Journal

        m.rig.close()
        m.rig = AppRig(Journal(m.path + "/journal"))  # the power comes back
        m.app = m.rig.app
        assert m.app.scene.kind == "setup" and m.app.scene.resume is not None
        m.rig.tap(0, "ok")  # Resume, offered first
        assert m.app.scene.kind == "play"
        m.rig.run(300)
        assert m.rig.shows(0, "Ana") and m.rig.shows(1, "Bo")
        assert not m.rig.shows(0, "Cy")
    finally:
        m.close()
