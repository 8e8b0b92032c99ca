# Nothing finished is lost unsaid: a game removed to make room before a
# laptop pulled it is kept on flash as "lost" until a laptop acknowledges
# it; an ended game that went bad is found at start-up, and a broken game's
# readable records are still read. (The app's and the line's words for it:
# test_app_lost.py.)
import os

from test_journal import HEADER, actions, entries_of, folder_of, read, record_game, scratch, write

from catnip.flash.journal import Journal


def _finished_games(root, n):
    for k in range(n):
        j = Journal(root)
        gid = j.begin(dict(HEADER, seed_commit="c%d" % k))
        for player, action in actions(3):
            j.action(player, action)
        j.finish({"ranks": [1, 2, 3]})
    return j, gid


def test_a_game_removed_unpulled_is_kept_as_lost_until_a_laptop_hears_of_it():
    root = scratch() + "/journal"
    j, _ = _finished_games(root, 12)
    j = Journal(root)
    j.release(2)  # pulled: the first to go, without a word
    j.begin(HEADER)
    assert j.lost == [] and j.games()[0] == (1, "finished")
    j = Journal(root)
    j.begin(HEADER)  # no pulled game left: the oldest ended one goes, unpulled
    assert j.lost == [(1, "finished", "stack")], j.lost
    assert any("game 1 (stack, finished) was removed" in p for p in j.problems), j.problems
    again = Journal(root)  # kept on flash, and numbers go on past it
    assert again.lost == [(1, "finished", "stack")] and again.problems == []
    assert [g for g, _ in again.games()][-1] == 14
    again.release(1)  # a laptop has heard of it
    assert again.lost == [] and Journal(root).lost == []


def test_an_ended_game_gone_bad_is_found_at_start_up_and_its_readable_records_read():
    root = scratch() + "/journal"
    j, gid, written, starts = record_game(root, actions(80), end={"ranks": [1, 2, 3]})
    log = folder_of(root, gid) + "/log"
    data = bytearray(read(log))
    data[len(data) // 2] ^= 0x40
    write(log, data)
    j = Journal(root)
    assert j.games() == [(gid, "broken")], j.games()
    assert len(j.problems) == 1 and "game %d is damaged" % gid in j.problems[0], j.problems
    got = []
    try:
        for entry in j.entries(gid):
            got.append(entry)
    except Exception as e:  # noqa: BLE001 (the damage ends what can be read)
        assert "is damaged" in str(e)
    truth = [e for e, _ in written[1:]]
    assert 0 < len(got) < len(truth) and got == truth[:len(got)]


def test_a_record_dropped_repeated_or_swapped_in_the_tail_is_never_resumed_into():
    base = scratch()
    j, gid, written, starts = record_game(base + "/whole", actions(12), notes_every=100)
    folder = folder_of(base + "/whole", gid)
    tail = read(folder + "/" + str(starts[-1]))
    sizes = [size for _, size in written]
    bounds = [s - starts[-1] for s in sizes if s > starts[-1]]  # record ends in the tail
    records = [tail[a:b] for a, b in zip([0] + bounds[:-1], bounds)]
    truth = [e for e, _ in written[1:]]
    for k in range(1, len(records) - 1):
        for name, bent in (("dropped", records[:k] + records[k + 1:]),
                           ("repeated", records[:k + 1] + records[k:]),
                           ("swapped", records[:k] + [records[k + 1], records[k]] +
                            records[k + 2:])):
            root = base + "/bent"
            _lay(root, folder, starts[-1], b"".join(bent))
            j = Journal(root)
            found = j.resumable()
            if found is None:
                assert j.games() == [(gid, "broken")], (name, k)
                continue
            got = entries_of(j, gid)
            assert got == truth[:len(got)], (name, k, got[-2:])  # a game that was played
            assert j.problems, (name, k)  # and what was dropped is said


def _lay(root, folder, sealed, tail):
    from test_journal import remove_tree

    remove_tree(root)
    os.mkdir(root)
    name = folder.split("/")[-1]
    os.mkdir(root + "/" + name)
    if sealed:
        write(root + "/" + name + "/log", read(folder + "/log"))
    write("%s/%s/%d" % (root, name, sealed), tail)
