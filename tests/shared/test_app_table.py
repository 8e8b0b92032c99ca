# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# The parts of the table beyond the stations: the table display, the
# buzzer, a station unplugged in the middle of a game, a refused action.
import sys

import tablebot
from apprig import AppRig
from test_app_games import _fresh

from catnip.flash.journal import Journal


def _rig(tag, board="direct"):
    path = _fresh(tag)
    return AppRig(Journal(path + "/journal"), board=board)


def test_the_table_display_shows_the_public_state():
    rig = _rig("display", "mux")
    try:
        assert rig.table.display is not None
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        rig.run(100)
        text = " ".join(rig.table.display and _lines(rig.table.display))
        assert "Heist 1/" in text and "Locked ..." in text, text
        tablebot.do(rig, 1, ("play", rig.app.game.view(1)["hand"][0]))
        rig.run(100)
        assert "Locked .2." in " ".join(_lines(rig.table.display))
    finally:
        rig.close()


def _lines(panel):
    from devsim import glyphs

    return glyphs.lines(panel.screen(), panel.height)


def test_the_buzzer_sounds_the_reveal_and_falls_silent():
    rig = _rig("buzzer")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        assert _silent(rig)
        tablebot.do(rig, 0, ("play", 1))
        rig.table.stations[1].tap("ok", hold_ms=40)  # the last card: the reveal follows
        heard = []
        for _ in range(40):
            rig.run(10)
            heard.append(not _silent(rig))
        assert any(heard), heard
        rig.run(1000)
        assert _silent(rig)
    finally:
        rig.close()


def _silent(rig):
    tone = rig.table.buzzer()
    return tone is None or tone[1] == 0


def test_a_station_unplugged_mid_game_is_named_and_comes_back_with_the_game():
    rig = _rig("unplug")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        tablebot.do(rig, 0, ("play", 1))
        rig.table.stations[2].unplug()
        rig.run(1200)
        assert any("Station 3" in r and "not" in r for r in rig.lines(0)), rig.lines(0)
        tablebot.do(rig, 1, ("play", 2))  # the table plays on
        rig.table.stations[2].plug()
        rig.run(1500)
        assert rig.shows(2, "Heist 1/"), rig.lines(2)
        assert rig.shows(2, "Locked 12."), rig.lines(2)
        tablebot.do(rig, 2, ("play", 3))
        assert rig.app.game.public()["round"] == 2
    finally:
        rig.close()


def test_a_refused_action_says_why_and_changes_nothing():
    rig = _rig("refused")
    try:
        tablebot.start(rig, "stack", {"mode": "composure", "black_cat": False,
                                      "draw": "physical"}, [0, 1])
        app = rig.app
        before = app.game.state()
        app.act(0, ("drew", "no such colour"))
        rig.run(100)
        assert app.game.state() == before
        assert len(app.game.log) == 0
        assert any("not" in r for r in rig.lines(0)), rig.lines(0)
        assert any("possible" in r for r in rig.lines(0)), rig.lines(0)
    finally:
        rig.close()


def test_a_journal_that_fails_every_move_says_so_once_and_the_game_goes_on():
    path = _fresh("nojournal")
    rig = AppRig(Journal(path + "/missing/journal"))  # a folder that cannot be made
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        moves = 0
        while rig.app.game.result() is None:
            rig.app.act(*tablebot.choose(rig.app.game, "heist"))
            moves += 1
            notices = rig.app.frame.notices
            assert len(notices) == len(set(notices)), notices
            assert 0 < len(notices) <= 4, notices
        assert any("journal" in n.lower() for n in notices), notices
        assert len(rig.app.game.log) == moves, "the game went on in RAM"
        tablebot.read_out(rig.app)
        assert rig.app.scene.kind == "end", "and reached its standings"
    finally:
        rig.close()


def test_an_announcement_goes_over_each_stations_own_view_and_takes_no_press():
    # Every station keeps its own screen under the announcement; every press
    # goes to that screen, OK too (it locks a card), and the announcement
    # steps aside on the station that pressed while the others keep it.
    rig = _rig("over own view", "mux")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        app = rig.app
        while not app.scene.banner:
            app.act(*tablebot.choose(app.game, "heist"))
        app.frame.all_dirty()
        rig.run(100)
        shown = draw_first(app.scene.banner[0])
        screens = [rig.lines(k) for k in range(3)]
        for k in range(3):
            assert shown in " ".join(screens[k]), screens[k]
            assert "P%d" % (k + 1) in screens[k][0], screens[k]  # its own title
        assert screens[0] != screens[1]
        game = app.game
        seat = [p for p in game.to_act() if not game.public()["seats"][p]["committed"]][0]
        cursor = app.scene.local[seat].cursor.at
        banners = len(app.scene.banner)
        rig.tap(seat, "down")
        assert app.scene.local[seat].cursor.at != cursor, "the press went to its screen"
        assert len(app.scene.banner) == banners
        moves = len(game.log)
        rig.tap(seat, "ok")
        assert len(game.log) == moves + 1, "OK locked the card under the cursor"
        assert len(app.scene.banner) >= banners
        rig.run(100)
        assert shown not in " ".join(rig.lines(seat)), rig.lines(seat)
        other = (seat + 1) % 3
        assert shown in " ".join(rig.lines(other)), rig.lines(other)
    finally:
        rig.close()


def test_the_announcement_ok_brings_up_has_its_time_too():
    # After the game OK moves the announcements on, and each stays 2.5 s
    # otherwise: the one OK brought up too. Left up, the standings after a
    # game's last move would wait for a press nobody knows is due.
    from catnip.ui.play import BANNER_MS

    rig = _rig("ok then time")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        app = rig.app
        while app.game.result() is None:
            tablebot.read_out(app)
            app.act(*tablebot.choose(app.game, "heist"))
        assert len(app.scene.banner) >= 3, app.scene.banner
        rig.run(100)
        banners = len(app.scene.banner)
        rig.tap(0, "ok")
        assert len(app.scene.banner) == banners - 1
        rig.run(BANNER_MS - 200)
        assert len(app.scene.banner) == banners - 1, "it had its whole time"
        rig.run(400)
        assert len(app.scene.banner) == banners - 2, "and went by itself"
    finally:
        rig.close()


def test_the_last_move_is_shown_on_every_station_before_the_standings():
    # The last safe's reveal is the game's climax: it runs like any other,
    # and the standings follow once it has been read (OK, or its time).
    from catnip import forget

    rig = _rig("last")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        forget("catnip.ui.end")  # as the Pico is during a game (an earlier test's may linger)
        app = rig.app
        while app.game.result() is None:
            tablebot.read_out(app)
            app.act(*tablebot.choose(app.game, "heist"))
        rig.run(50)
        assert app.scene.kind == "play" and app.scene.banner, "no reveal before the standings"
        assert app.journal.games()[-1][1] == "finished", "the end is journaled while it is read"
        assert "catnip.ui.end" in sys.modules, "and the standings' code is loaded by then"
        shown = app.scene.banner[0]
        assert draw_first(shown) in " ".join(rig.lines(0)) and \
            draw_first(shown) in " ".join(rig.lines(1)), (shown, rig.lines(0), rig.lines(1))
        rig.tap(0, "down")  # not a move: the game is over
        assert app.scene.kind == "play" and app.scene.banner[0] == shown
        for _ in range(len(app.scene.banner)):
            rig.tap(1, "ok")
        rig.run(50)
        assert app.scene.kind == "end", rig.lines(0)
        assert "1." in " ".join(rig.lines(0)), rig.lines(0)
    finally:
        rig.close()


def draw_first(text):
    from catnip.ui import draw

    return draw.wrap(text)[0]


def _heist_minding_tidy(tag, mind):
    """A two-player Meow Heist started on a rig whose loop calls mind(rig)
    where it would collect the heap (catnip.table.loop.tidy), until
    rig.close()."""
    import catnip.table.loop as loop_module

    rig = _rig(tag)
    real, close = loop_module.tidy, rig.close

    def closing():
        loop_module.tidy = real
        close()

    rig.close = closing
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        rig.run(200)
    except Exception:
        rig.close()
        raise
    loop_module.tidy = lambda: mind(rig)
    return rig


def test_the_heap_is_collected_once_a_press_has_its_screens_out():
    # On the Pico a collection holds the loop for 10-30 ms: the app makes it
    # while the players read a press's screens, not in the middle of a press.
    collected = []
    rig = _heist_minding_tidy("collect", lambda rig: collected.append(
        True not in rig.app.frame.dirty))
    try:
        app = rig.app
        rig.run(200)
        assert collected == []  # no press: nothing to collect
        rig.tap(1, "down")  # the cursor moves: one collection, its release none
        rig.run(200)
        assert collected == [True], collected
        tablebot.do(rig, 1, ("play", app.game.view(1)["hand"][0]))
        rig.run(200)
        assert len(collected) >= 2 and all(collected), collected  # a move's screens out too
    finally:
        rig.close()


def test_a_release_read_after_another_stations_press_leaves_that_station_first():
    # The station pressed last is redrawn and sent first: its player is
    # looking at it. A release is read 30 ms after the button came up, so one
    # may come after the next station's press; it is no one looking.
    rig = _rig("first")
    try:
        app = rig.app
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        rig.run(200)
        rig.table.stations[0].press("down")
        rig.run(60)
        rig.table.stations[0].release("down")
        rig.table.stations[2].press("down")  # read at the next poll, the release later
        rig.run(60)
        rig.table.stations[2].release("down")
        rig.run(10)
        order = []
        real = app.frame.redraw

        def redraw(k):
            order.append(k)
            real(k)

        app.frame.redraw = redraw
        app.frame.all_dirty()
        rig.run(10)
        assert order and order[0] == 2, order
    finally:
        rig.close()


def test_the_idle_turn_waits_until_every_button_is_up():
    # The idle turn reads no button while it works (a game's end: some 150 ms
    # on the Pico). Over a release that no poll saw, a press and the next one
    # would read as a single press (an announcement left up, the standings
    # never shown): it waits until the press's button is up.
    collected = []
    rig = _heist_minding_tidy("held", lambda rig: collected.append(rig.table.ticks_ms()))
    try:
        app = rig.app
        station = rig.table.stations[1]
        station.press("down")
        pressed = rig.table.ticks_ms()
        rig.run(400)  # its screens are out long before the button comes up
        assert collected == [], collected
        assert True not in app.frame.dirty
        station.release("down")
        released = rig.table.ticks_ms()
        rig.run(200)
        assert len(collected) == 1 and collected[0] > released >= pressed + 400, collected
        rig.hold(0, "ok", 1200)  # held past a long press: still one turn, after it
        assert len(collected) == 2, collected
    finally:
        rig.close()


def test_a_press_while_the_game_end_is_journaled_is_read():
    # A game's end holds the loop (journal writes and a rename, some 180 ms
    # on the Pico) right after the last move's release: a press made and let
    # go meanwhile must still be read, or every press after it lands a step
    # off. Here the end's first write takes 100 ms with a press going down,
    # the next 100 ms more, over its release.
    from catnip.drivers.debounce import PRESS, RELEASE

    rig = _rig("end-press")
    try:
        app = rig.app
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        journal = app.journal
        note, finish = journal.note, journal.finish
        station = rig.table.stations[1]

        def slow_note(data):
            note(data)
            station.tap("up", hold_ms=150)
            rig.table.advance(100)

        def slow_finish(result):
            finish(result)
            rig.table.advance(100)

        journal.note, journal.finish = slow_note, slow_finish
        seen = []
        real = app.on_event

        def on_event(event):
            if app.ended and event[0] == 1:
                seen.append(event[1])
            real(event)

        app.on_event = on_event
        while not app.ended:
            step = tablebot.next_press(app, "heist", {}, [0, 1])
            assert step is not None and app.scene.kind == "play", step
            rig.tap(step[0], tablebot.NAMES[step[1]])
        rig.run(300)
        assert seen == [PRESS, RELEASE], seen
    finally:
        rig.close()


def test_a_press_on_the_shared_int_line_is_read_at_once():
    # With the expanders' INT line wired, the line's fall wakes the button
    # reader: a press is read when it happens, not at the next 10 ms poll.
    import asyncio

    from catnip.drivers.debounce import PRESS

    rig = _rig("int-line", "mux")
    app = rig.app
    assert app.hw.buttons.changed is not None, "the mux board wires a shared INT line"
    read_at = []
    real = app.on_event

    def on_event(event):
        if event[1] == PRESS:
            read_at.append(rig.table.ticks_ms())
        real(event)

    app.on_event = on_event

    async def live(ms):  # rig.live, with the contacts moved every 1 ms, not 5
        clock = rig.table.clock
        end = clock.now_us() + ms * 1000
        while clock.now_us() < end:
            rig.table.update()
            rig.table.clear_traffic()
            await clock.pause_ms(1)

    async def taps():
        asyncio.create_task(app.loop.run())
        await live(300)
        delays = []
        for _ in range(10):
            pressed = rig.table.ticks_ms()
            rig.table.stations[0].tap("down", hold_ms=60)
            await live(253)  # not a multiple of the poll period
            delays.append(read_at[-1] - pressed)
        return delays

    try:
        delays = asyncio.run(taps())
        assert len(read_at) == 10, read_at
        # A poll every 10 ms alone left some of these presses unread for 11-12
        # ms (the screen loop takes its turns too); woken by the line, 5 at most.
        assert max(delays) <= 6, delays
    finally:
        rig.close()


def test_the_station_that_starts_a_game_says_so_while_its_code_loads():
    # On the Pico the game's rules and screens load from flash for a few
    # hundred ms after the press that starts it: that station says so at once.
    rig = _rig("loading")
    shown = []
    real_begin = rig.app.journal.begin

    def begin(header):  # the journal's header is written once the code is in
        shown.append(" ".join(rig.lines(rig.app.loop.pressed)))
        return real_begin(header)

    try:
        rig.app.journal.begin = begin
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        assert len(shown) == 1 and "Starting Meow Heist..." in shown[0], shown
        assert rig.app.scene.kind == "play"
        assert "Starting" not in " ".join(rig.lines(rig.app.loop.pressed))  # the game's screen now
    finally:
        rig.close()


def test_a_new_announcement_reaches_every_station_ahead_of_the_screen_under_it():
    # A move's announcement goes out to every station first (its rows only:
    # a few ms a panel on the Pico), then each screen under it. In between a
    # station shows its screen as it was, with the announcement over it; in
    # the end exactly what its own redraw gives.
    from catnip.drivers.ssd1306 import Canvas
    from oled import assert_shows

    rig = _rig("headline", "mux")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        app = rig.app
        rig.run(100)
        n = app.stations
        before = [rig.lines(k) for k in range(n)]
        while not app.scene.banner:
            app.act(*tablebot.choose(app.game, "heist"))
        frame = app.frame
        assert frame.headline(), "a new announcement is put up ahead"
        assert not frame.headline(), "and only once"
        for k in range(n):
            app.hw.screens[k].flush(rig.table.ticks_ms())
        shown = draw_first(app.scene.banner[0])
        for k in range(n):
            lines = rig.lines(k)
            assert shown in " ".join(lines), lines
            assert lines[0] == before[k][0], (lines, before[k])  # the screen above: as it was
        rig.run(100)
        for k in range(n):
            canvas = Canvas()
            app.scene.draw(k, canvas)
            assert_shows(rig.table.stations[k].oled, bytes(canvas.buf), "station %d whole" % k)
    finally:
        rig.close()


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


def test_the_loop_says_once_when_the_buttons_are_first_read():
    # catnip.start prints catnip.start.READY then: a press released before
    # the first read is never seen, so whoever presses (the pico tier's
    # rig) waits for it.
    import asyncio

    rig = _rig("ready")
    app = rig.app
    polls = []
    real_poll = app.hw.poll

    def poll(now):
        polls.append(now)
        return real_poll(now)

    app.hw.poll = poll
    said = []

    async def serving():
        app.loop.ready = lambda: said.append(len(polls))  # as Loop.serve(ready) sets it
        asyncio.create_task(app.loop.run())
        await rig.live(100)

    try:
        asyncio.run(serving())
        assert said == [1], said  # once, right after the first read
        assert len(polls) > 3, polls  # and not again as the loop polls on
        assert app.loop.ready is None
    finally:
        rig.close()


def test_a_press_that_moves_puts_its_announcement_on_every_station_at_once():
    # The buttons' task handles the press and, before the pressed station's
    # own screen, sends the move's announcement to every station: the other
    # players are not kept waiting for that screen to be drawn and sent, nor
    # for the screen loop's next turn (on the Pico that was 20-40 ms more to
    # the last of seven panels).
    from tablebot import NAMES

    rig = _rig("press-headline", "mux")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        app = rig.app
        for _ in range(30):  # moves until one is announced
            while app.scene.banner:
                app.scene.next_banner(None)
            rig.run(150)
            seat, action = tablebot.choose(app.game, "heist")
            station = app.seats[seat]
            model = rig.table.stations[station]
            before = len(app.game.log)
            for _ in range(40):
                name = NAMES[tablebot.press_for(app.scene, station, action)]
                model.press(name)
                for _ in range(8):  # the buttons' task alone: no screen loop pass
                    rig.table.advance(10)
                    app.loop._read_buttons()
                moved = len(app.game.log) > before
                if not moved:
                    model.release(name)
                    rig.run(150)
                if moved:
                    break
            assert moved, "the move went through"
            if app.scene.banner:
                break
            model.release(name)
            rig.run(150)
        assert app.scene.banner, "a move was announced"
        shown = draw_first(app.scene.banner[0])
        for k in range(app.stations):
            assert shown in " ".join(rig.lines(k)), (k, rig.lines(k))
        model.release(name)
        rig.run(150)
    finally:
        rig.close()


def _announcing(tag):
    """A three-player Meow Heist on the mux board with one announcement up
    and every screen out."""
    rig = _rig(tag, "mux")
    tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
    app = rig.app
    while not app.scene.banner:
        app.act(*tablebot.choose(app.game, "heist"))
    del app.scene.banner[1:]
    rig.run(100)
    assert True not in app.frame.dirty
    return rig


def test_an_announcements_time_ends_only_once_a_moves_screens_are_out():
    # Its change redraws stations: a move's own screens go first.
    from catnip.ui.play import BANNER_MS

    rig = _announcing("banner waits")
    try:
        app = rig.app
        due = app.scene.banner_at + BANNER_MS
        shown = app.scene.banner[0]
        app.act(*tablebot.choose(app.game, "heist"))  # every screen changes
        app.tick(due)
        assert app.scene.banner and app.scene.banner[0] == shown, "it waits for the move's screens"
        rig.run(100)  # they are out
        app.tick(due + 100)
        assert not app.scene.banner or app.scene.banner[0] != shown
    finally:
        rig.close()


def test_an_announcements_end_redraws_only_the_stations_that_showed_it():
    from catnip.ui.play import BANNER_MS

    rig = _announcing("banner stations")
    try:
        app = rig.app
        rig.tap(0, "down")  # station 0's player works under it: it stepped aside there
        assert not app.scene.headed(0) and app.scene.headed(1)
        assert True not in app.frame.dirty
        app.tick(app.scene.banner_at + BANNER_MS)
        assert not app.scene.banner
        assert app.frame.dirty == [False] + [True] * (app.stations - 1), app.frame.dirty
        assert not app.frame.table_dirty, "the table display shows no announcement"
    finally:
        rig.close()


def test_a_press_mid_pass_puts_its_screens_ahead_of_what_the_pass_had_left():
    # On the app's own loop: a move pressed on station 5 while the stations
    # are redrawn from station 0 on; the rest follow from station 5 round.
    import asyncio

    rig = _rig("pass order", "mux")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2])
        rig.run(100)
        app = rig.app
        order = []
        redraw = app.frame.redraw

        def spy(k):
            order.append(k)
            if len(order) == 2:  # the press's handling, as the buttons' task does it
                app.loop.pressed = 5
                app.frame.all_dirty()
            redraw(k)

        app.frame.redraw = spy
        app.loop.pressed = 0
        app.frame.all_dirty()

        async def serve():
            asyncio.create_task(app.loop.run())
            await rig.live(500)

        asyncio.run(serve())
        asyncio.new_event_loop()  # MicroPython's: the loop's tasks go with this rig
        n = app.stations
        after = [(5 + i) % n for i in range(n) if (5 + i) % n != 1]
        assert order[:n + 1] == [0, 1] + after, order
    finally:
        rig.close()
