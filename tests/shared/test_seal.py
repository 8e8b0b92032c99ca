# The table's signer on its own (catnip.table.seal), under CPython and
# MicroPython: a fresh flash gets a key, made a step at a time and kept; a
# finished game waits for its signature, which is made between games only
# (work under way when a game starts is dropped and begun again after it),
# kept beside the game's records and announced with a "signed" frame.
import os

from catnip import ed25519, record_digest
from catnip.flash import flashfile, seals
from catnip.flash.journal import Journal
from catnip.link.line import _uid
from catnip.table.seal import KEY_FILE, Seal
from scratch import scratch

ROOT = scratch("catnip-seal")
HOME = os.getcwd()  # each test works in a folder of its own (the key file is relative), then back


class Clock:  # every reading a millisecond later: a step does a few pieces
    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        self.ms += 1
        return self.ms


def _fresh(name):
    path = ROOT + "-" + name
    os.mkdir(path)
    os.chdir(path)
    return path


def _journal_with_a_finished_game(path):
    journal = Journal(path + "/journal")
    gid = journal.begin({"game": "heist", "config": {"players": 2}, "seed": "s", "salt": "t",
                         "seed_commit": "c", "seats": [0, 1]})
    journal.action(0, ("play", 3))
    journal.note({"clock": "ended", "at": None, "ms": 7})
    journal.finish({"winners": [0]})
    return journal, gid


def _until_idle(seal, most=5000):
    for _ in range(most):
        if not seal.busy():
            return
        seal.step()
    raise AssertionError("the seal never finished")


def test_a_fresh_table_makes_its_key_a_step_at_a_time_and_keeps_it():
    try:
        path = _fresh("key")
        sent = []
        seal = Seal(Journal(path + "/journal"), Clock(), lambda kind, **f: sent.append((kind, f)))
        assert seal.public is None and seal.shown() is None and seal.busy()
        seal.step()
        assert seal.public is None  # one step is not the whole key
        _until_idle(seal)
        kept = flashfile.load(KEY_FILE)
        assert ed25519.public_key(bytes.fromhex(kept["secret"])) == seal.public
        assert seal.shown() == (record_digest.fingerprint(seal.public), seal.public.hex())
        again = Seal(Journal(path + "/journal"), Clock(), lambda kind, **f: None)
        assert again.public == seal.public and not again.busy()
    finally:
        os.chdir(HOME)


def test_a_finished_game_is_signed_between_games_only():
    try:
        path = _fresh("game")
        sent = []
        journal, gid = _journal_with_a_finished_game(path)
        seal = Seal(journal, Clock(), lambda kind, **f: sent.append((kind, f)))
        _until_idle(seal)  # the key first; then the game found unsigned on flash
        assert seal.waits(gid) is False and seals.load(journal, gid) is not None
        assert sent == [("signed", {"gid": gid})]
        kept = flashfile.load(KEY_FILE)
        digest = record_digest.digest(_uid(), gid, "finished", journal.header(gid),
                                      list(journal.entries(gid)))
        assert seals.load(journal, gid) == ed25519.sign(bytes.fromhex(kept["secret"]), digest)
    finally:
        os.chdir(HOME)


def test_work_under_way_stops_for_a_game_and_begins_again_after_it():
    try:
        path = _fresh("paused")
        journal, gid = _journal_with_a_finished_game(path)
        seal = Seal(journal, Clock(), lambda kind, **f: None)
        while seal.public is None:
            seal.step()
        assert seal.waits(gid)
        for _ in range(5):
            seal.step()
        assert seal._work is not None
        seal.step(between_games=False)  # a game began
        assert seal._work is None and seal.waits(gid)  # dropped, still waiting
        for _ in range(50):
            seal.step(between_games=False)
        assert seals.load(journal, gid) is None
        _until_idle(seal)
        assert not seal.waits(gid) and seals.load(journal, gid) is not None
    finally:
        os.chdir(HOME)


def test_a_heap_with_no_room_to_sign_leaves_the_games_unsigned_and_says_so():
    # Stock MicroPython keeps the signing code in the heap: importing it, or
    # a step of it, may not fit. The table plays on; its games go unsigned.
    class Cramped(Seal):
        def _next(self):
            raise MemoryError("memory allocation failed")

    try:
        path = _fresh("cramped")
        journal, gid = _journal_with_a_finished_game(path)
        sent = []
        seal = Cramped(journal, Clock(), lambda kind, **f: sent.append((kind, f)))
        seal.finished(gid)
        seal.step()
        assert seal.problem and "unsigned" in seal.problem
        assert [kind for kind, f in sent] == ["say"] and not seal.waits(gid)
        seal.step()  # said once; nothing more is tried this power-up
        assert len(sent) == 1 and seal.shown() is None
        seal = Cramped(journal, Clock(), lambda kind, **f: sent.append((kind, f)))
        seal.frozen = True  # the image: the next power-up signs them (its heap is clean then)
        seal.step()
        assert "next power-up" in seal.problem and sent[-1][1]["text"] == seal.problem
        assert seals.unsigned(journal) == [gid]
    finally:
        os.chdir(HOME)


def _journal_with_a_long_game(path, actions=200):
    # Some 2 KB of records: the log and its tail read back in several chunks.
    journal = Journal(path + "/journal")
    gid = journal.begin({"game": "heist", "config": {"players": 2}, "seed": "s", "salt": "t",
                         "seed_commit": "c", "seats": [0, 1], "names": ["Ann", "Bo"]})
    for i in range(actions):
        journal.action(i % 2, ("play", i % 13))
    journal.finish({"winners": [0]})
    return journal, gid


class Noted:
    """A function of the flash's (a listing, a chunk read, a write) that
    notes the clock's reading at each call."""

    def __init__(self, module, name, clock, at):
        self.module, self.name, self.clock, self.at = module, name, clock, at
        self.was = getattr(module, name)
        setattr(module, name, self)

    def __call__(self, *args):
        self.at.append((self.name, self.clock.ms))
        return self.was(*args)

    def undo(self):
        setattr(self.module, self.name, self.was)


def test_each_read_from_and_write_to_flash_begins_a_turn_of_its_own():
    # A read from flash (the game's folder listed, a chunk of its records:
    # 2.5 ms each on the Pico) and the signature's write (a commit, some
    # 4 ms) are long pieces: each begins a turn, so no other piece comes
    # before it in the turn that waits for it. The header comes from the
    # same walk: the journal is read through once.
    from catnip.flash import journal_scan as scan

    try:
        path = _fresh("turns")
        journal, gid = _journal_with_a_long_game(path)
        clock = Clock()
        seal = Seal(journal, clock, lambda kind, **f: None)
        while seal.public is None:
            seal.step()
        at = []
        noted = [Noted(scan, "sizes", clock, at), Noted(scan, "read_at", clock, at),
                 Noted(seals, "save", clock, at)]
        turns = []
        try:
            while seal.waits(gid):
                turns.append(clock.ms + 2)  # the clock as the step's first piece begins
                seal.step()
        finally:
            for n in noted:
                n.undo()
        what = [w for w, _ in at]
        assert what[0] == "sizes" and what[-1] == "save" and what.count("sizes") == 1, what
        assert what.count("read_at") >= 4, what  # the records, a chunk at a time
        for name, ms in at:
            assert ms in turns, (name, ms, turns[:10])  # nothing read the clock before it
        kept = flashfile.load(KEY_FILE)
        digest = record_digest.digest(_uid(), gid, "finished", journal.header(gid),
                                      list(journal.entries(gid)))
        assert seals.load(journal, gid) == ed25519.sign(bytes.fromhex(kept["secret"]), digest)
    finally:
        os.chdir(HOME)


def test_a_signature_cut_off_in_its_write_is_made_again_at_the_next_power_up():
    # The signature is written in one go, no copy renamed over: a cut
    # leaves no file, or (littlefs: the file made, its bytes not yet
    # committed) an empty one, or on other filesystems a short one. Each
    # reads as unsigned, and the next power-up signs the game again.
    try:
        path = _fresh("cut")
        journal, gid = _journal_with_a_finished_game(path)
        seal = Seal(journal, Clock(), lambda kind, **f: None)
        _until_idle(seal)
        whole = seals.load(journal, gid)
        for left in (b"", whole[:40]):
            with open(journal.file(gid, seals.SIG), "wb") as f:
                f.write(left)
            again = Journal(path + "/journal")
            assert seals.load(again, gid) is None and seals.unsigned(again) == [gid]
            sent = []
            seal = Seal(again, Clock(), lambda kind, sent=sent, **f: sent.append((kind, f)))
            _until_idle(seal)
            assert seals.load(again, gid) == whole and sent == [("signed", {"gid": gid})]
    finally:
        os.chdir(HOME)


def test_a_signature_the_flash_refuses_leaves_the_game_unsigned():
    # No "signed" frame; the next power-up tries again.
    try:
        path = _fresh("refused")
        journal, gid = _journal_with_a_finished_game(path)
        sent = []
        seal = Seal(journal, Clock(), lambda kind, **f: sent.append((kind, f)))
        while seal.public is None:
            seal.step()

        def refuse(journal, gid, sig):
            raise OSError(28)

        was, seals.save = seals.save, refuse
        try:
            _until_idle(seal)
        finally:
            seals.save = was
        assert sent == [] and seals.unsigned(journal) == [gid] and not seal.busy()
        again = Seal(Journal(path + "/journal"), Clock(), lambda kind, **f: sent.append((kind, f)))
        _until_idle(again)
        assert sent == [("signed", {"gid": gid})] and seals.unsigned(journal) == []
    finally:
        os.chdir(HOME)


def test_on_the_image_the_standings_load_the_signings_code():
    # So no step waits for an import (5-16 ms a module on the Pico), and the
    # code comes into the heap the game's screens left, not beside them; on
    # the image it is frozen into flash and takes little heap.
    import sys

    from catnip import forget

    try:
        path = _fresh("loads")
        journal, gid = _journal_with_a_finished_game(path)
        seal = Seal(journal, Clock(), lambda kind, **f: None)
        _until_idle(seal)  # the key; the game signed
        names = ("catnip.ed25519", "catnip.record_digest", "catnip.flash.journal_scan")
        for name in names:
            forget(name)
        seal.prepare()
        assert [n for n in names if n in sys.modules] == []  # no game waits
        seal.frozen = False
        seal.finished(gid + 1)
        seal.prepare()
        assert [n for n in names if n in sys.modules] == []  # stock: the steps load it
        seal.frozen = True
        seal.finished(gid + 2)
        assert [n for n in names if n in sys.modules] == []  # the last move is still up
        seal.prepare()
        assert [n for n in names if n in sys.modules] == list(names)
    finally:
        os.chdir(HOME)


def test_on_the_image_each_read_opens_its_file_in_a_piece_kept_since_power_up():
    # A file opened takes 1.1 KB of heap in one piece; the heap a game
    # leaves is in crumbs, so the signer keeps ROOM bytes from power-up,
    # lets them go just before each read opens its file, and keeps them
    # again once it is closed (and as the next game begins, after the
    # signature's own write). Stock MicroPython keeps none (a tighter heap).
    from catnip.flash import journal_scan as scan
    from catnip.table import seal as sealing

    was = sealing._frozen
    try:
        path = _fresh("room")
        journal, gid = _journal_with_a_long_game(path)
        sealing._frozen = lambda: True
        seal = Seal(journal, Clock(), lambda kind, **f: None)
        assert seal.room() == sealing.ROOM
        at_reads = []  # the room as each read opens its file
        read_at = scan.read_at

        def noted(*args):
            at_reads.append(seal.room())
            return read_at(*args)

        scan.read_at = noted
        rooms = [seal.room()]
        try:
            while seal.busy():
                seal.step()
                if seal.room() != rooms[-1]:
                    rooms.append(seal.room())
        finally:
            scan.read_at = read_at
        assert seals.kept(journal, gid)
        assert len(at_reads) >= 4 and set(at_reads) == {0}, at_reads  # lent to every read
        full = sealing.ROOM
        assert rooms == [full, 0], rooms  # back after each read, at every step's end; then the write
        assert seal.room() == 0  # the standings are still up: nothing taken back yet
        seal.step(between_games=False)  # the next game begins
        assert seal.room() == full
        sealing._frozen = lambda: False
        assert Seal(journal, Clock(), lambda kind, **f: None).room() == 0
    finally:
        sealing._frozen = was
        os.chdir(HOME)
