# The flash journal's refusals (a record refused changes nothing, a full game
# is refused before it is written) and its rotation (what goes first when the
# flash fills), under CPython and MicroPython.
import os
from check import message
from catnip.flash.journal import Journal, JournalError
from test_journal import HEADER, actions, entries_of, scratch


# ---- refusals ---------------------------------------------------------------


def test_refused_records_change_nothing():
    root = scratch() + "/journal"
    j = Journal(root)
    assert "begin() or resume()" in message(JournalError, j.action, 0, ("play", 1))
    assert "dict" in message(JournalError, j.begin, ["stack"])
    assert "leave out 'log'" in message(JournalError, j.begin, dict(HEADER, log=[]))
    for bad in (set(), {1: "int keys come back as strings"}, b"bytes", float("nan"), 1e999):
        assert "not JSON-ready" in message(JournalError, j.begin, dict(HEADER, seed=bad)), bad
    assert j.games() == []
    gid = j.begin(HEADER)
    j.action(0, ("play", 1))
    size = j.bytes_used()
    for player, action, why in (
            (0, ("play", 1.5), "words or whole numbers"), (0, ("play", True), "words or whole"),
            (0, ("play", 1 << 28), "below 2**28"), (0, (), "starts with its name"),
            (0, (3, "play"), "starts with its name"), (0, "play", "starts with its name"),
            (-1, ("play", 1), "players are numbers"), ("0", ("play", 1), "players are numbers")):
        assert why in message(JournalError, j.action, player, action), (player, action)
    assert "a note is a dict" in message(JournalError, j.note, "placed")
    assert "keep notes short" in message(JournalError, j.note, {"long": "x" * 3000})
    assert j.bytes_used() == size
    j.action(1, ("drew", "blue"))  # a word first seen after a refusal still decodes
    assert entries_of(Journal(root), gid) == [("action", 0, ("play", 1)),
                                              ("action", 1, ("drew", "blue"))]


def test_a_full_game_is_refused_before_writing_and_can_still_end():
    root = scratch() + "/journal"
    j = Journal(root, max_game_bytes=300)
    gid = j.begin(HEADER)
    n = 0
    while True:
        try:
            j.action(n % 3, ("place", n, 0))
        except JournalError as e:
            assert str(e) == ("game %d has filled the 300 bytes the journal keeps for a game; "
                              "end or abandon it" % gid), e
            break
        n += 1
    assert 200 < j.bytes_used() <= 300
    j.finish({"ranks": [1, 2, 3], "ended": "journal full"})
    got = entries_of(Journal(root), gid)
    assert len(got) == n + 1 and got[-1][0] == "end"


def test_finish_abandon_and_release_follow_the_game():
    root = scratch() + "/journal"
    j = Journal(root)
    assert "none to abandon" in message(JournalError, j.abandon)
    gid = j.begin(HEADER)
    assert "still in play" in message(JournalError, j.release, gid)
    assert "no game 9" in message(JournalError, j.release, 9)
    assert "no game 9" in message(JournalError, j.header, 9)
    assert "no game 9" in message(JournalError, entries_of, j, 9)
    j.finish({"ranks": [1, 2, 3]})
    assert "begin() or resume()" in message(JournalError, j.note, {"late": 1})
    assert "not in play (finished)" in message(JournalError, j.abandon, gid)
    assert "it is finished" in message(JournalError, j.resume, gid)
    j.release(gid)
    j.release(gid)
    assert j.games() == [(gid, "pulled")] and Journal(root).games() == [(gid, "pulled")]


# ---- rotation ------------------------------------------------------------------


def test_rotation_removes_pulled_games_first_then_the_oldest_ended():
    root = scratch() + "/journal"
    j = Journal(root, max_games=3)
    for _ in range(3):
        j.begin(HEADER)
        j.action(0, ("play", 1))
        j.finish({"ranks": [1, 2, 3]})
    j.release(2)
    assert j.begin(HEADER) == 4  # game 2 was pulled: it goes, quietly
    j.abandon()
    assert j.games() == [(1, "finished"), (3, "finished"), (4, "abandoned")]
    assert j.problems == []
    j.begin(HEADER)
    assert j.games() == [(3, "finished"), (4, "abandoned"), (5, "playing")]
    assert j.problems == ["game 1 (stack, finished) was removed to make room before a laptop "
                          "had pulled it"], j.problems
    assert Journal(root, max_games=3).games() == j.games()


def test_rotation_never_removes_the_game_in_play():
    root = scratch() + "/journal"
    j = Journal(root, max_games=1)
    j.begin(HEADER)
    j.action(0, ("play", 1))
    again = Journal(root, max_games=1)
    assert again.begin(HEADER) == 2  # game 1 was in play: kept, now abandoned
    assert again.games() == [(1, "abandoned"), (2, "playing")]
    again.begin(HEADER)
    assert again.games() == [(2, "abandoned"), (3, "playing")]
    assert "game 1 (stack, abandoned) was removed" in again.problems[0]


def test_a_cut_rotation_finishes_at_the_next_start():
    root = scratch() + "/journal"
    j = Journal(root)
    j.begin(HEADER)
    j.finish({"ranks": [1, 2, 3]})
    os.rename(root + "/1.finished", root + "/1.gone")  # cut before its pages were removed
    j = Journal(root)
    assert j.games() == [] and j.problems == [] and os.listdir(root) == []


def test_an_ended_game_whose_rename_was_cut_counts_as_finished():
    root = scratch() + "/journal"
    j = Journal(root)
    gid = j.begin(HEADER)
    j.action(0, ("play", 2))
    j.finish({"ranks": [1, 2, 3]})
    os.rename("%s/%d.finished" % (root, gid), "%s/%d.playing" % (root, gid))
    j = Journal(root)
    assert j.games() == [(gid, "finished")] and j.resumable() is None and j.problems == []


def test_the_folders_compaction_stops_for_a_press_and_carries_on_at_the_next_wait():
    # ready() makes the game's folder compact by empty commits while nobody
    # waits; between() is asked after each and, saying True (a press is
    # waiting), stops it: the next ready() does it, and the records are
    # those written, none lost and nothing added.
    import catnip.flash.journal_files as files

    root = scratch()
    j = Journal(root)
    gid = j.begin(HEADER)
    for player, action in actions(files.COMPACT_AFTER):
        j.action(player, action)
    asked = []
    j.ready(lambda: asked.append(1) or True)
    assert len(asked) == 1 and j._live.commits >= files.COMPACT_AFTER, (asked, j._live.commits)
    j.ready(lambda: asked.append(1) or False)
    assert j._live.commits == 0 and len(asked) > 1
    j.action(*actions(1)[0])
    assert "new" not in os.listdir(root + "/%d.playing" % gid)  # the empty commits' file
    assert [e[1:] for e in Journal(root).entries(gid)] == \
        [(p, tuple(a)) for p, a in actions(files.COMPACT_AFTER) + actions(1)]
