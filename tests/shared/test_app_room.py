# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The heap a game's code needs on stock MicroPython (catnip as .mpy files,
# its code in the heap): the room catnip.start keeps for the first game, and
# a game whose code finds no room.
import tablebot
from test_app_table import _rig


def test_the_room_held_since_power_up_goes_to_the_first_game():
    # On stock MicroPython catnip.start hands the app a room of heap taken at
    # power-up; the game's code loads into it, so the app lets it go first.
    rig = _rig("room")
    try:
        rig.app.room = bytearray(1024)
        rig.run(100)
        assert rig.app.room is not None  # setup keeps it
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        assert rig.app.room is None
        assert rig.app.game is not None
    finally:
        rig.close()


def test_a_game_whose_code_finds_no_room_leaves_the_table_in_setup_saying_so():
    # Stock MicroPython on a Pico whose heap is in pieces: the game's code
    # does not load. The table stays up, setup says what to do, nothing is
    # journaled, and the next try that fits starts the game.
    from catnip import rules
    from catnip.table.app import NO_ROOM

    rig = _rig("noroom")
    real_new, tried = rules.new, []

    def new(name, config=None, seed=None):
        tried.append(name)
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    options = {"variant": "standard", "gems": "digital"}
    try:
        rules.new = new
        while not tried:
            assert rig.app.scene.kind == "setup"
            rig.tap(0, tablebot.NAMES[tablebot.setup_press(rig.app.scene, "heist", options,
                                                            [0, 1])])
        assert tried == ["heist"] and rig.app.scene.kind == "setup"
        assert rig.app.scene.problem == NO_ROOM
        rig.run(100)
        assert "try again" in rig.lines(0), rig.lines(0)  # the whole of it fits the screen
        assert rig.app.journal.games() == [] and rig.app.game is None
        rules.new = real_new
        tablebot.start(rig, "heist", options, [0, 1])
        assert rig.app.scene.kind == "play" and len(rig.app.journal.games()) == 1
    finally:
        rules.new = real_new
        rig.close()
