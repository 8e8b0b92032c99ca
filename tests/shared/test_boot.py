# micropython-only: boot draws on the panels with MicroPython's framebuf.
#
# Power-up on the simulated table: a missing or broken board.json is named
# on the line and on every panel that answers, and BACK held at power-up
# leaves the REPL without starting the app.
import json

from catnip import boot
from devsim.table import Table
from tablerig import load
from test_app_games import _fresh


def _boot(board_text, hold_back=None, unplug=None, layout="direct", panel=None):
    _fresh("boot")
    if board_text is not None:
        with open("board.json", "w") as f:
            f.write(board_text)
    said = []
    boot.out = said.append
    table = Table(load(layout, panel=panel))
    try:
        if unplug is not None:
            table.stations[unplug].unplug()
        if hold_back is not None:
            table.stations[hold_back].press("back")
            table.advance(100)
        started = []
        real_start = boot.start
        boot.start = lambda board, hw, room=None: started.append((board.name, boot._missing(board, hw)))
        try:
            assert boot.main() is None
        finally:
            boot.start = real_start
            boot.out = print
        return said, started, [table.stations[k].lines() for k in range(4)]
    finally:
        table.close()


def test_no_board_file_says_how_to_add_one_on_the_line_and_the_screens():
    said, started, screens = _boot(None)
    assert not started
    assert any("no board.json" in s and "mpremote cp" in s for s in said), said
    for rows in screens:
        assert rows[0].startswith("board.json"), rows
        assert any("board.json" in r for r in rows[1:]), rows


def test_a_broken_board_file_lists_its_problems_everywhere():
    said, started, screens = _boot('{"name": "direct", "i2c": []}')
    assert not started
    assert said[0] == "catnip: board.json has problems:"
    assert len(said) > 1
    for rows in screens:
        assert rows[0].startswith("board.json"), rows


def test_a_broken_board_is_shown_on_the_sh1106_panels_it_names():
    with open(_shipped()) as f:
        board = json.load(f)
    for station in board["stations"]:
        station["oled"]["panel"] = "sh1106"
    board["i2c"][0]["freq"] = 9  # the one problem
    said, started, screens = _boot(json.dumps(board), panel="sh1106")
    assert not started and "board.json has problems:" in said[0], said
    for rows in screens:  # read back from the SH1106 models: not shifted, not garbled
        assert rows and rows[0].startswith("board.json"), rows
        assert any("freq" in r for r in rows[1:]), rows


def test_a_file_that_is_not_json_is_named_as_such():
    said, started, screens = _boot("{this is not json")
    assert not started
    assert any("board.json" in s for s in said), said


def test_back_held_at_power_up_keeps_the_repl():
    for layout in ("direct", "mux"):
        with open(_shipped(layout)) as f:
            text = f.read()
        said, started, screens = _boot(text, hold_back=2, layout=layout)
        assert not started, layout
        assert any("BACK held" in s for s in said), (layout, said)
        assert any("REPL" in r for r in screens[0]), (layout, screens[0])


def test_a_good_board_starts_the_app():
    with open(_shipped()) as f:
        text = f.read()
    said, started, screens = _boot(text)
    assert started == [("direct", [])], said


def test_a_station_that_does_not_answer_is_named_in_plain_words():
    with open(_shipped()) as f:
        text = f.read()
    said, started, screens = _boot(text, unplug=2)
    # Buttons on GPIO read as released with their wires cut: the screen tells.
    assert started == [("direct", ["Station 3: screen not answering: check its cable"])], started


def _shipped(layout="direct"):
    from boardcheck import BOARDS

    return BOARDS + "/%s.json" % layout


def test_power_up_makes_room_for_the_modules_and_leaves_no_name_behind():
    import sys

    from catnip import room_for_modules

    before = set(sys.modules)
    room_for_modules(len(before) + 40)
    assert set(sys.modules) == before
    room_for_modules(1)  # more are loaded already: nothing to do
    assert set(sys.modules) == before


def test_the_app_drops_what_micropythons_boot_left_behind():
    # _boot.py (MicroPython's, frozen) leaves rp2 among __main__'s names.
    import sys

    import __main__

    from catnip import start

    marker = object()  # stands in for the rp2 module
    __main__.__dict__["rp2"] = marker
    sys.modules["rp2"] = marker
    start._unboot()
    assert "rp2" not in __main__.__dict__ and sys.modules.get("rp2") is not marker
