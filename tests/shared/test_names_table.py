# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Names from the laptop: the table keeps them on flash by board and station, the setup
# and the game's screens show them in place of P1, P2, ... (cut to what a
# station has room for), the game's journal header carries them for the
# records, and names the table cannot take are refused with the reason,
# changing nothing.
import json

from calibrig import Maker
from catnip.flash import flashfile, tablenames


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
        assert tablenames.load("direct", 4)[0] == ["Ana", "Bartholomew", "", "Dee"]
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
            assert tablenames.load("direct", 4)[0] == ["Ana", "Bo"]
    finally:
        m.close()


def test_a_damaged_names_file_is_no_names():
    m = Maker("names-damaged")
    try:
        for text in ('["' + "x" * 40 + '"]', "not json", '{"a": 1}', '["A","B","C","D","E"]',
                     '{"boards": {"direct": ["A","B","C","D","E"]}, "known": 3}'):
            with open("names.json", "w") as f:
                f.write(text)
            assert tablenames.load("direct", 4)[0] == [], text
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


def test_names_follow_the_board_they_were_saved_for():
    m = Maker("names-boards")
    try:
        tablenames.save("mux", 8, ["Ana", "Bo", "Cy", "Dee", "Eve"])
        assert tablenames.load("direct", 4) == ([], ["Ana", "Bo", "Cy", "Dee", "Eve"])
        tablenames.save("direct", 4, ["Fay", "", "Gus"])
        assert tablenames.load("direct", 4)[0] == ["Fay", "", "Gus"]
        assert tablenames.load("mux", 8)[0] == ["Ana", "Bo", "Cy", "Dee", "Eve"]  # kept
        assert tablenames.load("direct", 4)[1][:2] == ["Fay", "Gus"]  # newest first
        with open("names.json", "w") as f:  # as tables kept them before: one list
            json.dump(["Hal", "Ivy"], f)
        assert tablenames.load("direct", 4) == ([], ["Hal", "Ivy"])
    finally:
        m.close()


def test_five_names_from_the_mux_board_hide_none_on_the_direct_board():
    m = Maker("names-mux-then-direct")
    try:
        flashfile.save("names.json", {"boards": {"mux": ["Ana", "Bo", "Cy", "Dee", "Eve"]},
                                      "known": ["Ana", "Bo", "Cy", "Dee", "Eve"]})
        m.command("names", names=["Fay", "Gus"])  # this table is the direct board
        assert _answer(m)[0] == "named"
        from catnip.table.app import App

        table = App(m.rig.hw, m.app.journal, clock=m.app.clock)
        assert table.names == ["Fay", "Gus"]
        assert tablenames.load("mux", 8)[0] == ["Ana", "Bo", "Cy", "Dee", "Eve"]
    finally:
        m.close()


def _to_row(m, kind):
    rows = m.app.scene.rows
    while rows[m.app.scene.cursor.at][0] != kind:
        m.rig.tap(0, "down")


def test_a_station_picks_a_known_name_at_setup_and_the_game_journals_it():
    m = Maker("names-pick")
    try:
        m.command("names", names=["Ana", "Bo", "Cy"])
        assert _answer(m)[0] == "named"
        m.command("names", names=[])  # the laptop takes them off: the table still knows them
        assert _answer(m)[0] == "named" and m.app.names == []
        _to_row(m, "name")
        m.rig.tap(2, "ok")  # station 3 opens its picker
        assert m.rig.shows(2, "Your name") and m.rig.shows(2, "Cy")
        assert m.rig.shows(0, "catnip setup")  # the others keep the setup
        m.rig.tap(2, "down")  # Ana, Bo, Cy, New name, No name: from "New name" (no name yet)
        m.rig.tap(2, "up", 3)
        m.rig.tap(2, "ok")
        assert m.app.names == ["", "", "Bo"], m.app.names
        assert m.rig.shows(2, "You: Bo")
        assert tablenames.load("direct", 4)[0] == ["", "", "Bo"]
        _to_row(m, "go")
        m.rig.tap(0, "ok")
        assert m.app.scene.kind == "play", m.rig.lines(0)
        assert m.app.journal.header(m.app.gid)["names"] == ["", "", "Bo", ""]
    finally:
        m.close()


def test_a_station_types_a_new_name_letter_by_letter():
    m = Maker("names-type")
    try:
        _to_row(m, "name")
        m.rig.tap(1, "ok")
        m.rig.tap(1, "ok")  # "New name" (nothing known yet): typing starts at "A"
        m.rig.tap(1, "down")  # B
        m.rig.tap(1, "ok")  # "B", then small letters from "a"
        m.rig.tap(1, "down", 14)  # o
        assert m.rig.shows(1, "B")
        m.rig.tap(1, "ok")
        m.rig.tap(1, "down")  # p: a slip,
        m.rig.tap(1, "ok")
        m.rig.tap(1, "back")  # rubbed out
        m.rig.tap(1, "up", 2)  # o, n... then "end" is UP from "a"
        m.rig.tap(1, "down")
        m.rig.tap(1, "up")
        assert m.rig.lines(1)[1] == "Boend", m.rig.lines(1)  # "end" lit after the letters
        m.rig.tap(1, "ok")
        assert m.app.names == ["", "Bo"]
        assert m.app.known == ["Bo"]
        assert m.rig.shows(1, "You: Bo")
    finally:
        m.close()


def test_a_name_two_stations_would_show_alike_is_refused_with_why():
    m = Maker("names-clash")
    try:
        m.command("names", names=["Ana", "Bo"])
        assert _answer(m)[0] == "named"
        _to_row(m, "name")
        m.rig.tap(1, "ok")
        m.rig.tap(1, "up")  # Bo, Ana, New...: from "Bo" (this station's) up to "Ana"
        m.rig.tap(1, "ok")
        assert m.app.names == ["Ana", "Bo"]
        assert m.rig.shows(1, "both show")
    finally:
        m.close()


def test_the_name_picker_leaves_the_heap_with_the_setup():
    import sys

    m = Maker("names-heap")
    try:
        _to_row(m, "name")
        m.rig.tap(0, "ok")
        assert "catnip.ui.names" in sys.modules
        m.rig.tap(0, "back")
        _to_row(m, "go")
        m.rig.tap(0, "ok")
        assert m.app.scene.kind == "play" and "catnip.ui.names" not in sys.modules
        # The table's side of it too (the names it keeps, a pick kept on flash).
        assert "catnip.table.naming" not in sys.modules
        assert "catnip.flash.tablenames" not in sys.modules
        m.app.end_game("ended")
        assert m.app.scene.kind == "setup" and "catnip.table.naming" in sys.modules
    finally:
        m.close()
