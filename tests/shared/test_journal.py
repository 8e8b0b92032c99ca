# The flash journal, under CPython (a temporary folder) and MicroPython (a
# littlefs in RAM with the Pico's block and page sizes): what is written reads
# back, a power cut at any byte resumes from the last whole record, damage is
# reported and contained, and old games make room in the agreed order.
import os
import sys

from check import message, raises

from catnip.flash.journal import AHEAD_BYTES, PAGE_BYTES, Journal, JournalError

MICROPYTHON = sys.implementation.name == "micropython"
HEADER = {"game": "stack", "config": {"players": 3, "mode": "composure"}, "seed": "s33d",
          "seed_commit": "c0ffee"}
_flash = []


def pico_flash():
    """One RAM flash with the Pico's geometry (fewer blocks), made once: a
    fresh one per test would fragment the unix port's heap."""
    from devsim.blockdev import Flash

    if not _flash:
        _flash.append(Flash(blocks=96))
    return _flash[0]


def scratch():
    """A fresh, empty folder to keep journals in."""
    if MICROPYTHON:
        from devsim.blockdev import mount

        path = "/journal-test"
        mount(pico_flash(), path, fresh=True)
        return path
    import atexit
    import shutil
    import tempfile

    path = tempfile.mkdtemp(prefix="catnip-journal-")
    atexit.register(shutil.rmtree, path, True)
    return path


def actions(n):
    """n actions of every shape the games use."""
    shapes = [("play", 3), ("place", 4, 0), ("offer", 18, 20), ("gems", 1, 0, 2),
              ("declare",), ("accept", 7, 40, 41, 42, 43), ("drew", "red"),
              ("height", -(1 << 28) + 1, (1 << 28) - 1)]
    return [(i % 7, shapes[i % len(shapes)]) for i in range(n)]


def record_game(root, moves, notes_every=25, end=None):
    """Record a game; returns (journal, gid, [(entry, bytes on flash after it)],
    the offsets where its tail files started)."""
    j = Journal(root)
    gid = j.begin(HEADER)
    written = [(None, j.bytes_used())]
    starts = set()

    def saved(entry):
        written.append((entry, j.bytes_used()))
        starts.update(tail_starts(root, gid))

    for i, (player, action) in enumerate(moves):
        j.action(player, list(action) if i % 3 == 0 else action)  # lists come back as tuples
        saved(("action", player, action))
        if i % notes_every == notes_every - 1:
            note = {"tray": "placed", "height": i, "confidence": 0.75, "answer": "yes"}
            j.note(note)
            saved(("note", note))
    if end is not None:
        j.finish(end)
        written.append((("end", end), j.bytes_used()))
    return j, gid, written, sorted(starts)


def folder_of(root, gid):
    for name in os.listdir(root):
        if name.startswith("%d." % gid):
            return root + "/" + name
    raise AssertionError("no game %d in %s" % (gid, root))


def tail_starts(root, gid):
    return [int(n) for n in os.listdir(folder_of(root, gid)) if n.isdigit()]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def stream(root, gid):
    """A game's bytes: its log, then its tail."""
    folder = folder_of(root, gid)
    data = read(folder + "/log") if "log" in os.listdir(folder) else b""
    for start in tail_starts(root, gid):
        assert start == len(data), (start, len(data))
        data += read("%s/%d" % (folder, start))
    return data


def lay_out(root, gid, status, data, sealed):
    """Write a game's folder by hand: data[:sealed] as its log, the rest as its tail."""
    remove_tree(root)
    os.mkdir(root)
    folder = "%s/%d.%s" % (root, gid, status)
    os.mkdir(folder)
    if sealed:
        write(folder + "/log", data[:sealed])
    write("%s/%d" % (folder, sealed), data[sealed:])  # a game always has its tail


def remove_tree(path):
    try:
        mode = os.stat(path)[0]
    except OSError:
        return
    if mode & 0x4000:
        for name in os.listdir(path):
            remove_tree(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


def entries_of(j, gid):
    return list(j.entries(gid))


# ---- round trip --------------------------------------------------------------


def test_round_trip_of_a_finished_game():
    root = scratch() + "/journal"
    moves = actions(60)
    end = {"ranks": [2, 1, 3], "reasons": ["player 1 has the most points"]}
    j, gid, written, _ = record_game(root, moves, end=end)
    again = Journal(root)
    assert again.problems == [] and again.games() == [(gid, "finished")]
    assert again.header(gid) == HEADER and again.resumable() is None
    got = entries_of(again, gid)
    assert got == [e for e, _ in written[1:]], got
    for entry in got:
        if entry[0] == "action":
            assert type(entry[2]) is tuple and type(entry[1]) is int
    assert again.bytes_used() == written[-1][1] == j.bytes_used()


def test_compact_frames_and_a_small_tail():
    root = scratch() + "/journal"
    j, gid, written, starts = record_game(root, [(3, ("offer", 18, 20))] * 200, 1000)
    per_action = (written[-1][1] - written[1][1]) / 199
    assert per_action == 11, per_action  # kind, number, length, 4 payload bytes, CRC
    assert len(starts) >= 4, starts
    names = sorted(os.listdir(folder_of(root, gid)))
    assert names == [str(starts[-1]), "log"], names
    assert len(read(folder_of(root, gid) + "/" + names[0])) <= PAGE_BYTES


def test_ready_seals_a_nearly_full_tail_so_the_next_record_does_not():
    # The seal copies a block of the log (an erase on the Pico); the table
    # asks for it while nobody waits, and the next move is one small commit.
    root = scratch() + "/journal"
    move = (3, ("offer", 18, 20))  # eleven bytes on flash
    j, gid, _, _ = record_game(root, [move] * 10, 1000)
    j.ready()  # 100 bytes in the tail: room enough, nothing is done
    assert sorted(os.listdir(folder_of(root, gid))) == ["0"]
    while len(read(folder_of(root, gid) + "/0")) <= PAGE_BYTES - AHEAD_BYTES:
        j.action(*move)
    before = list(j.entries(gid))
    j.ready()
    names = sorted(os.listdir(folder_of(root, gid)))
    sealed = str(len(read(folder_of(root, gid) + "/log")))
    assert names == [sealed, "log"], names  # sealed: the next record goes in a new, empty tail
    assert len(read(folder_of(root, gid) + "/" + sealed)) == 0
    assert Journal(root).resumable()[2] == len(before)  # a cut now loses nothing
    j.action(*move)
    names = sorted(os.listdir(folder_of(root, gid)))
    assert len(names) == 2 and len(read(folder_of(root, gid) + "/" + names[0])) == 11, names
    assert list(j.entries(gid)) == before + [("action",) + move]
    again = Journal(root)
    assert again.resumable()[2] == len(before) + 1, again.resumable()


def test_resume_carries_on_the_same_game():
    root = scratch() + "/journal"
    moves = actions(30)
    record_game(root, moves[:20])
    j = Journal(root)
    gid, header, n = j.resumable()
    assert (header, n) == (HEADER, 20) and j.games() == [(gid, "playing")]
    j.resume(gid)
    for player, action in moves[20:]:
        j.action(player, action)
    j.finish({"ranks": [1, 1, 1]})
    got = [e[1:] for e in entries_of(Journal(root), gid) if e[0] == "action"]
    assert got == moves


def test_begin_abandons_an_unresumed_game():
    root = scratch() + "/journal"
    record_game(root, actions(5))
    j = Journal(root)
    old = j.resumable()[0]
    new = j.begin(HEADER)
    assert new == old + 1
    assert j.games() == [(old, "abandoned"), (new, "playing")]
    assert j.resumable() == (new, HEADER, 0)
    j.abandon()
    assert Journal(root).games() == [(old, "abandoned"), (new, "abandoned")]


# ---- power cuts --------------------------------------------------------------


def test_a_cut_at_every_byte_resumes_the_last_whole_record():
    base = scratch()
    moves = actions(40)
    j, gid, written, starts = record_game(base + "/whole", moves, notes_every=20)
    data = stream(base + "/whole", gid)
    assert len(starts) == 2, starts  # the cuts fall in the log and in the tail
    ends = [size for _, size in written]
    header_end = ends[0]
    root = base + "/cut"
    torn = 0
    for cut in range(len(data) + 1):
        lay_out(root, gid, "playing", data[:cut], max(s for s in starts if s <= cut))
        j = Journal(root)
        if cut < header_end:
            assert j.resumable() is None and j.games() == [], cut
            assert "before anything of it was saved" in j.problems[0], j.problems
            continue
        whole = [e for e, size in written[1:] if size <= cut]
        n = len([e for e in whole if e[0] == "action"])
        assert j.resumable() == (gid, HEADER, n), (cut, j.resumable())
        assert entries_of(j, gid) == whole, cut
        if cut in ends:
            assert j.problems == [], (cut, j.problems)
        elif j.problems:
            torn += 1
            assert len(j.problems) == 1 and "cut off by a power loss" in j.problems[0], j.problems
        if cut % 5 and cut not in ends and cut - 1 not in ends:
            continue
        # The table carries on: the new record follows the whole ones.
        j.resume(gid)
        j.action(2, ("after", cut))
        again = Journal(root)
        assert again.problems == [] and entries_of(again, gid) == whole + [
            ("action", 2, ("after", cut))], cut
    assert torn > len(data) * 3 // 4, (torn, len(data))


def test_damage_anywhere_never_yields_a_wrong_record():
    base = scratch()
    j, gid, written, starts = record_game(base + "/whole", actions(30), notes_every=15)
    data = stream(base + "/whole", gid)
    truth = [e for e, _ in written[1:]]
    root = base + "/bad"
    for pos in range(len(data)):
        hurt = bytearray(data)
        hurt[pos] ^= 0x24
        lay_out(root, gid, "playing", hurt, starts[-1])
        j = Journal(root)
        got = []
        try:
            for entry in j.entries(gid):
                got.append(entry)
        except JournalError as e:
            assert "is damaged" in str(e), e
        assert got == truth[:len(got)], (pos, got[-1:])
        assert j.resumable() is None or entries_of(j, gid) == got


def test_a_cut_while_the_tail_moves_to_the_log_is_undone():
    base = scratch()
    j, gid, written, starts = record_game(base + "/whole", actions(60))
    data = stream(base + "/whole", gid)
    truth = [e for e, _ in written[1:]]
    sealed = starts[-1]
    tail = data[sealed:]
    root = base + "/cut"
    for appended in (len(tail), len(tail) // 2, 1, 0):  # the whole tail, half, a byte, none
        lay_out(root, gid, "playing", data, sealed)
        folder = folder_of(root, gid)
        write("%s/%d" % (folder, len(data)), b"")  # the next tail: made before the copy
        write(folder + "/log", data[:sealed] + tail[:appended])
        j = Journal(root)
        assert j.problems == [] and j.resumable() == (gid, HEADER, 60), (appended, j.problems)
        assert entries_of(j, gid) == truth
        assert read(folder + "/log") == data[:sealed + (appended == len(tail)) * len(tail)]
        j.resume(gid)
        j.action(0, ("more", appended))
        assert entries_of(Journal(root), gid) == truth + [("action", 0, ("more", appended))]


# ---- damage ------------------------------------------------------------------


def test_a_damaged_middle_refuses_that_game_and_keeps_the_others():
    root = scratch() + "/journal"
    record_game(root, actions(20), end={"ranks": [1, 2, 3]})
    j, gid, written, _ = record_game(root, actions(90))
    before = entries_of(Journal(root), 1)
    log = folder_of(root, gid) + "/log"
    data = bytearray(read(log))
    data[len(data) // 2] ^= 0xFF
    write(log, data)
    j = Journal(root)
    assert j.resumable() is None
    assert j.games() == [(1, "finished"), (gid, "broken")]
    assert len(j.problems) == 1, j.problems
    assert j.problems[0].startswith("game %d is damaged (the record at byte " % gid), j.problems
    assert "cannot be resumed" in j.problems[0] and "kept" in j.problems[0]
    assert entries_of(j, 1) == before
    e = raises(JournalError, entries_of, j, gid)
    assert "cannot be resumed" in str(e)
    assert message(JournalError, j.resume, gid) == "game %d cannot be resumed: it is broken" % gid
    assert Journal(root).games() == [(1, "finished"), (gid, "broken")]
    j.release(gid)  # what could be read was pulled
    assert j.games()[-1] == (gid, "pulled")


def test_damage_in_the_last_page_before_its_end_is_not_a_torn_tail():
    root = scratch() + "/journal"
    j, gid, written, starts = record_game(root, actions(10))
    tail = folder_of(root, gid) + "/0"
    data = bytearray(read(tail))
    data[-17] ^= 0x01  # inside the second-last record's payload: a good one follows
    write(tail, data)
    j = Journal(root)
    assert j.resumable() is None and j.games() == [(gid, "broken")], j.problems


def test_missing_records_or_a_finished_game_gone_bad_are_reported():
    root = scratch() + "/journal"
    j, gid, written, starts = record_game(root, actions(120), end={"ranks": [1, 2, 3]})
    os.remove(folder_of(root, gid) + "/log")
    j = Journal(root)  # an ended game nobody pulled is read through at start-up too
    assert j.games() == [(gid, "broken")]
    assert j.problems == ["game %d is damaged (records are missing after byte 0): it cannot be "
                          "resumed, and is kept so a laptop can pull what is readable" % gid], \
        j.problems
    e = raises(JournalError, entries_of, j, gid)
    assert "records are missing after byte 0" in str(e), e
    write("%s/%d.broken/log" % (root, gid), b"not a header")
    assert "(its header cannot be read)" in message(JournalError, j.header, gid)


def test_bad_folder_contents_are_reported_and_left_alone():
    root = scratch() + "/journal"
    record_game(root, actions(3), end={"ranks": [1, 2, 3]})
    with open(root + "/notes.txt", "w") as f:
        f.write("shopping list")
    with open(root + "/3.finished", "w") as f:
        f.write("a file, not a game folder")
    for name in ("cats", "4.eaten", "5", "6.gone"):
        os.mkdir(root + "/" + name)
    os.mkdir(root + "/7.playing")  # begun, cut before its header was saved
    j = Journal(root)
    assert j.games() == [(1, "finished")], j.games()
    found = sorted(j.problems)
    assert len(found) == 6, found
    for name in ("notes.txt", "3.finished", "cats", "4.eaten", "5"):
        assert "%s/%s is not a catnip game; it was left alone" % (root, name) in found, name
    assert "game 7 was cut off by a power loss before anything of it was saved" in found[-1]
    names = sorted(os.listdir(root))
    assert names == ["1.finished", "3.finished", "4.eaten", "5", "cats", "notes.txt"], names
    gid = j.begin(HEADER)  # numbering goes on past what is ours
    assert gid == 2 and Journal(root).problems == found[:-1]


def test_a_journal_folder_that_cannot_be_made():
    base = scratch()
    with open(base + "/journal", "w") as f:
        f.write("in the way")
    j = Journal(base + "/journal")
    assert len(j.problems) == 1 and "cannot be used" in j.problems[0], j.problems
    assert j.games() == [] and j.resumable() is None
    assert "cannot be used" in message(JournalError, j.begin, HEADER)
