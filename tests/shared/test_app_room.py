# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The heap a game's code needs on stock MicroPython (catnip as .mpy files,
# its code in the heap): the room catnip.start keeps for the first game, and
# a game whose code finds no room.
import tablebot
from check import raises
from test_app_table import _rig

from catnip.room import Room


def test_the_room_held_since_power_up_goes_to_the_first_game():
    # On stock MicroPython catnip.start hands the app a room of heap taken at
    # power-up; the game's code loads into it, so the app lets it go first.
    rig = _rig("room")
    try:
        rig.app.room = room = Room(1024)
        rig.run(100)
        assert rig.app.room is room and room.piece is not None  # setup keeps it
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        assert rig.app.room is None  # its last holder let go of it
        assert rig.app.game is not None
    finally:
        rig.close()


def test_a_scene_whose_code_finds_no_other_room_is_given_the_room():
    # Stock MicroPython at a power-up that found a game to resume: the setup
    # scene's code finds no piece of the heap its size but the room's. The
    # room goes to it and the scene is made; with no room left, the
    # MemoryError is the caller's, as before.
    room, made = Room(1024), []

    def setup_scene(name):
        if room.piece is not None:
            _no_room()
        made.append(name)
        return name

    assert room.spare(setup_scene, "setup") == "setup" and made == ["setup"]
    assert room.piece is None
    assert room.spare(setup_scene, "again") == "again"  # nothing held: made at once
    raises(MemoryError, room.spare, _no_room)


def _no_room():
    raise MemoryError("memory allocation failed, allocating 1280 bytes")


def test_a_power_up_whose_setup_finds_no_room_but_the_rooms_shows_setup():
    # The retry is App.change's, the one place scenes change: at power-up
    # the setup scene that first finds no room is made once the room goes.
    from apprig import AppRig
    from catnip.flash.journal import Journal
    from catnip.table import scenes
    from test_app_table import _fresh

    real_setup, tries = scenes.setup, []

    def setup(app, resume):
        tries.append(app.room.piece is not None)
        if app.room.piece is not None:
            _no_room()
        return real_setup(app, resume)

    rig = None
    try:
        scenes.setup = setup
        rig = AppRig(Journal(_fresh("spare") + "/journal"), room=Room(1024))
        assert tries == [True, False] and rig.app.scene.kind == "setup"
        assert "Start game" in rig.lines(0), rig.lines(0)
    finally:
        scenes.setup = real_setup
        if rig is not None:
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
