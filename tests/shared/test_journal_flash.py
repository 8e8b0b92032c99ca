# micropython-only: littlefs (vfs.VfsLfs2) exists only in MicroPython.
# The journal on real littlefs, on a RAM flash with the Pico's block and page
# sizes, through power cuts at every program and erase of a whole game.
from test_journal import HEADER, actions, pico_flash

from devsim.blockdev import mount
from catnip.flash.journal import Journal, JournalError

MOUNT = "/pico"
ROOT = MOUNT + "/journal"
END = {"ranks": [1, 3, 2], "reasons": []}


def script(n):
    """The calls of a whole game: begin, actions with a note now and then, finish."""
    calls = [("begin", HEADER)]
    for i, (player, action) in enumerate(actions(n)):
        calls.append(("action", player, action))
        if i % 9 == 4:
            calls.append(("note", {"tray": "placed", "height": i, "confidence": 0.5}))
    calls.append(("finish", END))
    return calls


def entry(call):
    return {"action": lambda c: ("action", c[1], c[2]), "note": lambda c: ("note", c[1]),
            "finish": lambda c: ("end", c[1])}[call[0]](call)


def play(j, calls):
    """Make the calls; returns how many returned (were acknowledged)."""
    done = 0
    for call in calls:
        try:
            if call[0] == "begin":
                j.begin(call[1])
            else:
                getattr(j, call[0])(*call[1:])
        except JournalError:
            return done
        done += 1
    return done


def saved_calls(j):
    """How many of the script's calls the flash holds."""
    games = j.games()
    if not games:
        return 0
    assert len(games) == 1 and games[0][1] in ("playing", "finished"), games
    return 1 + len(list(j.entries(games[0][0])))


def test_a_power_cut_at_any_write_loses_nothing_acknowledged():
    _cut_at_every_write(script(60), play)


def play_idle(j, calls):
    """As play(), with the idle turn's work on flash after each call (a tail
    sealed ahead, the folder made to compact)."""
    done = 0
    for call in calls:
        if play(j, [call]) == 0:
            return done
        done += 1
        try:
            j.ready()
        except JournalError:
            return done
    return done


def test_a_power_cut_while_nobody_waits_loses_nothing_either():
    _cut_at_every_write(script(24), play_idle)


def test_a_power_cut_in_a_seal_made_in_two_steps_loses_nothing():
    # The idle turn that fills the log's flash block with the tail's first
    # bytes, then seals the rest, and the calls after it: cut at every write.
    calls = script(480)
    mount(pico_flash(), MOUNT, fresh=True)
    ahead = _until_split(Journal(ROOT), calls) - 1
    _cut_at_every_write(calls[:ahead + 6] + calls[-1:], play_idle, ahead)  # then the end


def test_a_seal_stopped_between_its_two_steps_loses_nothing():
    # A press between them leaves the tail's first bytes at the end of the
    # log as well: the game reads the same then, while more records come,
    # once ended, and after a power-up (which takes them off the log).
    calls = script(480)
    truth = [entry(c) for c in calls[1:]]
    for power_up in (False, True):
        flash = pico_flash()
        mount(flash, MOUNT, fresh=True)
        j = Journal(ROOT)
        done = _until_split(j, calls)
        gid = j.games()[0][0]
        assert list(j.entries(gid)) == truth[:done - 1]
        if power_up:
            mount(flash, MOUNT)
            j = Journal(ROOT)
            assert j.problems == [] and list(j.entries(gid)) == truth[:done - 1]
            j.resume(gid)
        assert play(j, calls[done:]) == len(calls) - done  # no idle turn: a record seals
        again = Journal(ROOT)
        assert again.problems == [] and again.games() == [(gid, "finished")]
        assert list(again.entries(gid)) == truth


def _until_split(j, calls):
    # Make the calls, the idle turn after each, until one stops between a
    # seal's two steps (a press came); how many calls were made.
    def between():
        return j._live.logged > 0

    for done, call in enumerate(calls, 1):
        assert play(j, [call]) == 1
        j.ready(between)
        if j._live.logged:
            return done
    raise AssertionError("no seal was made in two steps")


def _cut_at_every_write(calls, play, ahead=0):
    # The power cut at every write after the first `ahead` calls.
    truth = [entry(c) for c in calls[1:]]
    flash = pico_flash()
    mount(flash, MOUNT, fresh=True)
    j = Journal(ROOT)
    assert play(j, calls[:ahead]) == ahead
    formatted = flash.writes
    assert play(j, calls[ahead:]) == len(calls) - ahead
    writes = flash.writes - formatted
    assert writes > len(calls) - ahead, writes
    cuts = 0
    for n in range(1, writes + 1):
        mount(flash, MOUNT, fresh=True)
        j = Journal(ROOT)
        play(j, calls[:ahead])
        flash.cut_after(n)
        acknowledged = ahead + play(j, calls[ahead:])
        assert acknowledged < len(calls), n
        mount(flash, MOUNT)  # the next power-up
        j = Journal(ROOT)
        for problem in j.problems:
            assert "damaged" not in problem and "not a catnip game" not in problem, problem
        saved = saved_calls(j)
        assert saved in (acknowledged, acknowledged + 1), (n, acknowledged, saved)
        cuts += saved == acknowledged
        # Carry on from the flash and finish: the same game as without the cut.
        if saved == 0:
            gid = j.begin(HEADER)
            saved = 1
        else:
            gid = j.games()[0][0]
            if saved < len(calls):
                j.resume(gid)
        assert play(j, calls[saved:]) == len(calls) - saved
        again = Journal(ROOT)
        assert again.games() == [(gid, "finished")] and list(again.entries(gid)) == truth, n
    assert 0 < cuts < writes  # some cuts lost the call in flight, some did not


def test_wear_stays_well_below_one_erase_per_action():
    flash = pico_flash()
    mount(flash, MOUNT, fresh=True)
    j = Journal(ROOT)
    before = flash.erase_count()
    j.begin(HEADER)
    for player, action in actions(300):
        j.action(player, action)
    j.finish(END)
    erases = flash.erase_count() - before
    # One file appended and flushed 300 times would take about 300 erases.
    assert erases < 100, erases
    assert len(list(Journal(ROOT).entries(1))) == 301


def test_a_tail_file_is_opened_once_for_many_records_and_let_go_before_a_remount():
    import catnip.flash.journal_files as journal_module  # where the held file is opened

    opened = []

    def counted(path, mode="r"):
        opened.append((path, mode))
        return open(path, mode)

    flash = pico_flash()
    mount(flash, MOUNT, fresh=True)
    journal_module.open = counted
    try:
        j = Journal(ROOT)
        gid = j.begin(HEADER)
        for i in range(20):  # some 150 bytes with the header: no seal
            j.action(i % 6, ("play", i % 7))
    finally:
        del journal_module.open
    assert [m for _, m in opened] == ["ab"], opened  # one open for 21 records
    mount(flash, MOUNT)  # closes the file first: a file left open would outlive its littlefs
    assert len(list(Journal(ROOT).entries(gid))) == 20
    j = Journal(ROOT)
    j.resume(gid)
    j.action(0, ("play", 1))
    j.close()
    j.action(1, ("play", 2))  # the next record opens it again
    j.finish(END)
    got = list(Journal(ROOT).entries(gid))
    assert got[-3:] == [("action", 0, ("play", 1)), ("action", 1, ("play", 2)), ("end", END)]


def test_the_idle_turn_takes_the_folders_compactions_off_the_records():
    # littlefs compacts a folder's metadata block when a commit does not fit
    # (an erase: 45 ms on the Pico, where a record otherwise takes some 5
    # ms). ready(), called while nobody waits, has it compact then, so no
    # record after it waits for one.
    on_erase_clock(records_after_idle_turns)


def records_after_idle_turns(flash):
    j = Journal(ROOT)
    j.begin(HEADER)
    j.ready()
    start = flash.erase_count()
    waited = between = 0
    for i, (player, action) in enumerate(actions(300)):
        before = flash.erase_count()
        j.action(player, action)
        if i % 9 == 4:
            j.note({"tray": "placed", "height": i, "confidence": 0.5})
        waited += flash.erase_count() > before

        def sampled():
            nonlocal between
            between += 1

        j.ready(sampled)
    erases = flash.erase_count() - start
    assert waited == 0, waited
    assert between > 0, between  # the buttons are read between its commits
    assert erases < 150, erases  # one in two or three moves: the erases are moved, not many more
    j.finish(END)
    notes = len([i for i in range(300) if i % 9 == 4])
    assert len(list(Journal(ROOT).entries(1))) == 300 + notes + 1


def on_erase_clock(body):
    """body(flash) on a fresh flash whose clock is its erases (45 ms each,
    as on the Pico), so the journal tells a compaction from a commit."""
    import catnip.flash.journal as journal_module
    import catnip.flash.journal_files as files

    flash = pico_flash()
    mount(flash, MOUNT, fresh=True)
    clocks = files.ticks_ms, journal_module.ticks_ms
    files.ticks_ms = journal_module.ticks_ms = lambda: 45 * flash.erase_count()
    try:
        body(flash)
    finally:
        files.ticks_ms, journal_module.ticks_ms = clocks


def test_a_press_waits_for_one_erase_at_most_while_the_journal_gets_ready():
    # ready() runs while nobody waits, but a press can come at any moment:
    # it asks between() (the buttons read) before each step that may erase,
    # so a press waits for one erase at most (45 ms on the Pico), not two.
    # littlefs compacts a folder a second time on the next commit of a file
    # opened when its metadata block was full, so a file made and closed
    # (two commits) may erase twice; and a seal whose append carries the log
    # into its next flash block erases two (a copy of the block it ends in,
    # and the next), so the log's block is filled first, on its own.
    on_erase_clock(erases_between_presses)


def erases_between_presses(flash):
    j = Journal(ROOT)
    j.begin(HEADER)
    worst = [0]
    since = [flash.erase_count()]

    def between():
        worst[0] = max(worst[0], flash.erase_count() - since[0])
        since[0] = flash.erase_count()
        return False

    waited = 0
    for i, (player, action) in enumerate(actions(480)):
        before = flash.erase_count()
        j.action(player, action)
        waited += flash.erase_count() > before
        if i % 9 == 4:
            j.note({"tray": "placed", "height": i, "confidence": 0.5})
        since[0] = flash.erase_count()
        j.ready(between)
        between()
    assert j._live.sealed > 2 * 4096, j._live.sealed  # two blocks filled
    assert worst[0] == 1, worst[0]
    assert waited == 0, waited  # and no record waits for one
    j.finish(END)
    assert len(list(Journal(ROOT).entries(1))) == 480 + len(range(4, 480, 9)) + 1


def test_a_power_cut_in_a_signatures_write_leaves_it_whole_or_missing():
    # The signature is written in one go (no copy beside it renamed over):
    # on littlefs, cut at any of its programs and erases, the next power-up
    # finds the whole signature or none (the game is signed again), never
    # part of one, and the game's records as they were.
    from catnip.flash import seals

    calls = script(20)
    sig = bytes(range(64))
    flash = pico_flash()
    mount(flash, MOUNT, fresh=True)
    assert play(Journal(ROOT), calls) == len(calls)
    before = flash.writes
    seals.save(Journal(ROOT), 1, sig)
    writes = flash.writes - before
    assert writes >= 1
    found = set()
    for n in range(1, writes + 1):
        mount(flash, MOUNT, fresh=True)
        assert play(Journal(ROOT), calls) == len(calls)
        j = Journal(ROOT)
        flash.cut_after(n)
        try:
            seals.save(j, 1, sig)
        except OSError:
            pass
        mount(flash, MOUNT)  # the next power-up
        j = Journal(ROOT)
        kept = seals.load(j, 1)
        assert kept in (None, sig), (n, kept)
        assert seals.unsigned(j) == ([1] if kept is None else [])
        assert list(j.entries(1)) == [entry(c) for c in calls[1:]], n
        found.add(kept)
    assert None in found, "no cut left the game unsigned"
