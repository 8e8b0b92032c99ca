# A game's log read back from the journal (catnip.flash.journal_log): the
# table keeps only the count in RAM, and what it reads back is what the
# game's own Log would have held, packed the same, under both interpreters.
from test_journal import actions, scratch

from catnip import rules
from catnip.flash.journal import Journal
from catnip.flash.journal_log import JournalLog
from catnip.rules.log import Log

HEADER = {"game": "heist", "config": {"players": 3}, "seed": "s", "seed_commit": "c"}


def test_the_journal_log_reads_back_what_a_log_holds():
    j = Journal(scratch())
    gid = j.begin(HEADER)
    log, kept = JournalLog(j, gid), Log()
    for player, action in actions(120):  # past a seal of the journal's tail
        log.add(player, action)
        kept.add(player, action)
        j.action(player, action)
    assert len(log) == len(kept) == 120
    assert list(log) == list(kept)
    assert log == list(kept) and log == kept and not log != kept
    assert log[0] == kept[0] and log[-1] == kept[-1] and log[57] == kept[57]
    assert log.pack() == kept.pack() and log.nbytes() == kept.nbytes()
    assert log.copy() == kept
    try:
        log[120]
    except IndexError:
        pass
    else:
        raise AssertionError("an index past the end was read")


def test_a_game_with_the_journal_log_plays_and_replays_as_with_its_own():
    j = Journal(scratch())
    game = rules.new("heist", {"players": 3}, "log seed")
    alone = rules.new("heist", {"players": 3}, "log seed")
    header = game.journal()
    del header["log"], header["finished"]
    gid = j.begin(header)
    game.log = JournalLog(j, gid, len(game.log))
    while game.result() is None:
        player = game.to_act()[0]
        action = game.legal(player)[0]
        assert game.act(player, action) == alone.act(player, action)
        j.action(player, action)
    assert len(game.log) == len(alone.log) and game.log == alone.log
    assert game.record()["log"] == alone.record()["log"]  # (each game has its own salt)
    again = rules.replay(game.record())
    assert again == game and again.result() == alone.result()
