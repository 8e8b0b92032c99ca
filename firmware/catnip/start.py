# The table app from power-up to play; main.py calls run() (the flash's
# main.py on a stock MicroPython, the frozen one in the catnip image).
from catnip import forget

# On stock MicroPython (catnip as .mpy files on the flash) every import reads
# its file through littlefs, some 1.3 KB in one piece, and copies the code
# into the heap. By the time a game starts, power-up and setup have left the
# free heap in pieces of 1-4 KB, and the game's rules and screens (some 20 KB
# of code, a file opened for each module) no longer load. This room is taken
# first, at the bottom of an empty heap, and let go as the game's code loads
# (App.start and App.resume), so that code loads into one piece, or sooner
# if a scene's code finds no other room (catnip.room.Room.spare: the setup scene
# at a power-up that found a game to resume). The catnip image runs its
# code from flash and takes no room. 24 KB: with 28 the setup scene no longer
# loads at a first power-up (measured on the emulated RP2040, docs/pico.md),
# with 12 or none a Stack O' Cats game's code does not.
ROOM = 24 * 1024
# Said on the serial line once, when the app first reads the buttons: a
# press released before it is never seen (stock MicroPython takes longer
# to get there than the catnip image).
READY = "catnip: ready: the buttons are read"


def run():
    """catnip.boot reads the board and builds the app, then leaves the heap
    (its code is needed only now); the app serves until the power goes."""
    _unboot()
    room = _room()
    from catnip.boot import main

    try:
        app = main(room)
    except KeyboardInterrupt:  # before the journal opened (catnip.boot): nothing was written
        print("catnip: stopped by Ctrl-C while starting; the REPL is yours")
        return
    del main
    forget("catnip.boot")
    room = None  # the app's now: its first game lets it go
    if app is not None:
        app.loop.serve(_ready)


def _ready():
    print(READY)


def _unboot():
    """MicroPython's own _boot.py (it mounts the flash) leaves `rp2` among
    the power-up's names: its Python half, the PIO assembler, would hold
    1.3 KB of heap for the whole session. A board that reads its tray by PIO
    imports it again."""
    import sys

    import __main__

    __main__.__dict__.pop("rp2", None)
    sys.modules.pop("rp2", None)


def _room():
    """The room, held from now on where catnip's code runs from files."""
    if not _from_files():
        return None
    from catnip.room import Room

    return Room(ROOM)


def _from_files():
    """Whether catnip's code runs from .mpy files (stock MicroPython)."""
    try:
        from catnip import release
    except ImportError:  # a tree run as source: the laptop's heap
        return False
    return not release.FROZEN
