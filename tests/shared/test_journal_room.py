# micropython-only: the heap's free blocks (gc.mem_free) are MicroPython's.
# The journal holds a place in the heap for the file each record opens: it
# is free the moment the record needs it, with no collection in between, and
# held again once the record is written and the heap collected.
import gc

from test_journal import HEADER, actions, scratch

from catnip.flash.journal import Journal
from catnip.flash.journal_files import ROOM_SLOTS, Room


def test_a_room_given_up_is_free_at_once():
    gc.collect()
    room = Room()
    held = gc.mem_free()
    room.give()
    freed = gc.mem_free() - held  # no collection: the list shrank where it was
    assert freed >= ROOM_SLOTS * 4 - 32, freed
    room.take()
    assert gc.mem_free() < held + 64
    room.give()
    room.give()  # nothing held: nothing to give


def test_the_journal_holds_the_room_between_records():
    j = Journal(scratch() + "/journal")
    assert j._room._slots is not None  # held from the start
    j.begin(HEADER)
    for player, action in actions(20):
        j.action(player, action)
        assert j._room._slots is None  # given to the record's file
        gc.collect()
        j.ready()  # as the app does once a press's screens are out
        assert j._room._slots is not None
    assert len(list(j.entries(j.games()[0][0]))) == 20
