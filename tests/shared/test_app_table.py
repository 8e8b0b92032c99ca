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


def test_a_games_description_leaves_the_heap_once_its_game_is_under_way():
    # Its rules' settings and the play scene read it as the game starts;
    # Stack O' Cats's alone is some 850 bytes of the Pico's heap in play.
    rig = _rig("about")
    try:
        tablebot.start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1])
        assert "catnip.rules.heist_about" not in sys.modules
        tablebot.do(rig, 0, ("play", rig.app.game.view(0)["hand"][0]))
        rig.run(50)
        assert len(rig.app.game.log) == 1
    finally:
        rig.close()


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
