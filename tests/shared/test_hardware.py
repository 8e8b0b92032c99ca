# micropython-only: the canvas is MicroPython's built-in framebuf.
#
# The firmware's hardware layer, built from both shipped boards, running on
# the simulated table built from the same boards: routing, button numbering,
# unplugging and replugging, the shared mux, the tray's faults. What the
# screens do runs on every panel the boards may name (tablerig.PANELS).
from check import message
from tablerig import PANELS, Rig, draw, load, put, shown

from catnip.board import BoardError
from catnip.drivers.debounce import ONLINE
from catnip.parts.hardware import BACK, DOWN, OK, TABLE, UP, Hardware
from catnip.parts.screen import SCREEN

MUX = 0x70


def mux_writes(bus):
    return len([t for t in bus.transactions if t[0] == MUX and t[1] == "w"])


def of(events, station):
    return [e for e in events if e[0] == station]


def test_each_station_draws_on_its_own_panel_for_every_player_count():
    for name, panel in [(n, p) for n in ("direct", "mux") for p in PANELS]:
        board = load(name, panel=panel)
        for players in range(2, len(board.stations) + 1):
            with Rig(board, players) as rig:
                for k in range(players):
                    draw(rig.hw.screens[k], k)
                if rig.hw.table is not None:
                    draw(rig.hw.table, 9, "table")
                rig.run(10)
                for k in range(players):
                    screen, station = rig.station(k)
                    problem = shown(screen, station.oled)
                    assert not problem, "%s (%s), %d players, station %d: %s" % (
                        name, panel, players, k, problem)
                for station in rig.table.stations[players:]:
                    assert not station.oled.lit() and not station.oled.data_bytes
                online = [(k, "online", 0) for k in range(players)]
                if rig.hw.table is not None:
                    assert not shown(rig.hw.table, rig.table.display)
                    online.append((TABLE, "online", 0))
                assert rig.events == online, rig.events
                if players == len(board.stations):
                    for k in range(players):
                        assert rig.table.stations[k].lines() == ["Station %d" % (k + 1)]


def test_a_press_on_station_k_arrives_as_station_ks_button():
    def scrambled(data):
        # MCP23017s with the buttons on port B, in no particular order.
        for s in data["stations"]:
            s["buttons"]["expander"].update(chip="mcp23017",
                                            pins={"up": 11, "down": 8, "ok": 15, "back": 9})

    for board in (load("direct"), load("mux"), load("mux", scrambled)):
        players = min(7, len(board.stations))
        with Rig(board, players) as rig:
            rig.run(20)
            rig.events.clear()
            for k in range(players):
                for n, name in enumerate(("up", "down", "ok", "back")):
                    rig.table.stations[k].tap(name, hold_ms=60)
                    got = rig.run(200)
                    assert got == [(k, "press", n), (k, "release", n)], (board.name, k, name, got)


def test_up_and_down_repeat_while_ok_and_back_give_long():
    with Rig(load("mux"), 3) as rig:
        rig.run(20)
        station = rig.table.stations[1]
        station.press("down")
        station.press("ok")
        got = rig.run(1000)
        station.release("down")
        station.release("ok")
        got += rig.run(100)
        kinds = [(e[1], e[2]) for e in got]
        assert kinds.count(("repeat", DOWN)) >= 3 and ("repeat", OK) not in kinds
        assert kinds.count(("long", OK)) == 1 and ("long", DOWN) not in kinds
        assert kinds[-2:] in ([("release", DOWN), ("release", OK)],
                              [("release", OK), ("release", DOWN)])


def test_unplugging_a_station_mid_game_is_one_offline_and_replugging_one_online():
    for panel in PANELS:
        _unplugging_a_station_mid_game(panel)


def _unplugging_a_station_mid_game(panel):
    with Rig(load("mux", panel=panel), 7) as rig:
        hw, table = rig.hw, rig.table
        for k in range(7):
            draw(hw.screens[k], k)
        rig.run(50)
        rig.events.clear()
        away = table.stations[3]
        away.unplug()
        draw(hw.screens[3], 3, "while away")  # the game keeps drawing
        table.stations[5].tap("ok", table.now_ms() + 300, 80)
        got = rig.run(600)
        draw(hw.screens[6], 6, "your turn")
        got += rig.run(1400)
        assert of(got, 3) == [(3, "offline", 0)], got
        assert hw.missing(3) == 1 | 1 << SCREEN and not hw.online(3)
        assert [e for e in got if e[0] != 3] == [(5, "press", OK), (5, "release", OK)], got
        assert not shown(hw.screens[6], table.stations[6].oled)
        assert table.stations[6].lines() == ["Station 7", "your turn"]
        away.plug()
        got = rig.run(1500)
        assert got == [(3, "online", 0)], got
        assert hw.online(3) and not hw.missing(3)
        assert away.oled.lit() and not shown(hw.screens[3], away.oled)
        assert away.lines() == ["Station 4", "while away"]
        away.tap("back")
        assert rig.run(200) == [(3, "press", BACK), (3, "release", BACK)]


class Attempts:
    """An I2C port that counts the transfers tried through it."""

    def __init__(self, port):
        self.port = port
        self.count = 0

    def writeto(self, addr, buf, stop=True):
        self.count += 1
        return self.port.writeto(addr, buf, stop)

    def readfrom_into(self, addr, buf, stop=True):
        self.count += 1
        self.port.readfrom_into(addr, buf, stop)


def test_an_absent_panel_is_tried_every_half_second():
    with Rig(load("mux"), 2) as rig:
        screen, station = rig.station(1)
        rig.run(20)
        station.unplug()
        rig.run(1100)  # noticed by the probe
        attempts = screen.panel.i2c = Attempts(screen.panel.i2c)
        rig.run(3000)
        assert 5 <= attempts.count <= 7, attempts.count
        assert of(rig.events, 1) == [(1, "online", 0), (1, "offline", 0)]


def test_a_mux_that_reset_behind_the_cache_is_selected_again():
    with Rig(load("mux"), 1) as rig:
        hw = rig.hw
        draw(hw.screens[0], 0)
        rig.run(20)
        rig.events.clear()
        hw.mux_reset.value(0)  # a glitch: the mux wakes with no channel on
        hw.mux_reset.value(1)
        assert hw.mux.selected == 0 and rig.table.mux.model.control == 0
        draw(hw.screens[0], 0, "after")
        got = rig.run(1500)
        assert got == [(0, "offline", 0), (0, "online", 0)], got
        assert rig.table.stations[0].lines() == ["Station 1", "after"]


def test_a_held_button_is_released_before_its_station_goes_offline():
    with Rig(load("mux"), 2) as rig:
        rig.run(20)
        rig.events.clear()
        station = rig.table.stations[0]
        station.press("ok")
        got = rig.run(100)
        station.unplug()
        got += rig.run(1500)
        assert got == [(0, "press", OK), (0, "release", OK), (0, "offline", 0)], got


def test_buttons_held_when_only_the_screen_goes_are_released_first():
    with Rig(load("direct"), 2, stuck_ms=2000) as rig:
        rig.run(20)
        rig.events.clear()
        station = rig.table.stations[0]
        station.press("ok")
        rig.run(1000)
        station.press("up")
        rig.run(1100)  # ok is stuck by now, up is not
        station.oled.unplug()  # the panel alone: the GPIO buttons still read
        got = rig.run(1200)
        assert got[-4:] == [(0, "release", UP), (0, "release", OK), (0, "unstuck", OK),
                            (0, "offline", 0)], got
        station.release("up")
        station.release("ok")
        station.tap("down", rig.table.now_ms() + 100)
        assert rig.run(400) == []  # nothing from a station that is away
        station.oled.plug()
        assert rig.run(600) == [(0, "online", 0)]
        station.tap("back")
        assert rig.run(200) == [(0, "press", BACK), (0, "release", BACK)]


def test_a_direct_station_unplugged_is_its_screen_missing():
    with Rig(load("direct"), 4) as rig:
        hw, table = rig.hw, rig.table
        for k in range(4):
            draw(hw.screens[k], k)
        rig.run(20)
        rig.events.clear()
        away = table.stations[1]
        away.unplug()
        away.tap("ok", table.now_ms() + 100)  # the cable is cut: nothing arrives
        got = rig.run(1500)
        assert got == [(1, "offline", 0)], got
        assert hw.missing(1) == 1 << SCREEN  # GPIO buttons cannot tell
        draw(hw.screens[1], 1, "back again")
        away.plug()
        got = rig.run(1000)
        assert got == [(1, "online", 0)], got
        assert away.lines() == ["Station 2", "back again"]
        table.stations[2].tap("up")
        assert rig.run(200) == [(2, "press", UP), (2, "release", UP)]


def test_a_panel_power_cycled_between_flushes_is_caught_by_the_probe():
    for panel in PANELS:
        with Rig(load("mux", panel=panel), 2) as rig:
            screen, station = rig.station(0)
            draw(screen, 0)
            rig.run(20)
            rig.events.clear()
            station.oled.unplug()
            station.oled.plug()  # back at once: dark, its RAM noise
            assert not station.oled.lit()
            rig.run(1100)
            assert screen.restarts == 1 and not shown(screen, station.oled), panel
            assert rig.events == []  # it never stopped answering


def test_a_station_missing_from_the_start_is_one_offline_until_plugged():
    board = load("mux")
    with Rig(board, 3) as rig:
        rig.table.stations[2].unplug()
        got = rig.run(1200)
        # Its expander is missed at the first poll, before any screen flushed.
        assert got == [(2, "offline", 0), (0, "online", 0), (1, "online", 0),
                       (TABLE, "online", 0)], got
        draw(rig.hw.screens[2], 2)
        rig.table.stations[2].plug()
        assert rig.run(600) == [(2, "online", 0)]
        assert not shown(rig.hw.screens[2], rig.table.stations[2].oled)


def test_the_mux_held_in_reset_takes_every_station_away_and_back():
    with Rig(load("mux"), 4) as rig:
        hw = rig.hw
        for k in range(4):
            draw(hw.screens[k], k)
        rig.run(20)
        rig.events.clear()
        assert hw.mux_reset.value() == 1
        hw.mux_reset.value(0)
        got = rig.run(1200)
        assert sorted(got) == [(k, "offline", 0) for k in range(4)], got  # not the table display
        hw.mux_reset.value(1)
        got = rig.run(1000)
        assert sorted(got) == [(k, "online", 0) for k in range(4)], got
        for k in range(4):
            assert not shown(hw.screens[k], rig.table.stations[k].oled)


def test_the_mux_is_switched_only_when_the_channel_changes():
    with Rig(load("mux"), 7) as rig:
        hw = rig.hw
        for k in range(7):
            draw(hw.screens[k], k)
        rig.run(20)
        now = rig.table.ticks_ms()
        bus = rig.table.bus(0)
        bus.clear()
        hw.flush(now)
        hw.poll(now)
        assert bus.transactions == []  # nothing changed, INT idle: a silent bus
        put(hw.screens[2], "a", 64, 30)
        hw.flush(now)
        assert mux_writes(bus) == 1
        put(hw.screens[2], "b", 72, 30)
        hw.flush(now)
        assert mux_writes(bus) == 1  # still on channel 2
        put(hw.screens[2], "c", 80, 30)
        put(hw.screens[4], "d", 80, 30)
        hw.flush(now)
        assert mux_writes(bus) == 2
        rig.table.stations[0].tap("ok")  # station 0's expander signals on INT
        rig.table.update()
        hw.poll(now)
        assert mux_writes(bus) == 3 and hw.mux.selected == 0  # the read went to channel 0
        put(hw.screens[4], "e", 88, 30)
        hw.flush(now)
        assert mux_writes(bus) == 4  # back to channel 4, and only there
        assert rig.table.mux.model.writes == hw.mux.selects


def test_wiring_catnip_cannot_read_is_refused_by_name():
    def two_lines(data):
        data["stations"][1]["buttons"]["expander"]["int"] = 7

    with Rig(load("mux"), 2) as rig:
        board = load("mux", two_lines)
        text = message(BoardError, Hardware, board, 2, rig.table.clock)
        assert "GP3, GP7" in text and "one pin" in text
        Hardware(board, 1, rig.table.clock)  # station 2 is not in this game

    with Rig(load("mux"), 2) as rig:
        text = message(BoardError, Hardware, load("direct"), 5, rig.table.clock)
        assert "5-player game" in text


def test_run_flushes_and_polls_on_its_own():
    import asyncio

    with Rig(load("direct"), 2) as rig:
        hw = rig.hw
        for k in range(2):
            draw(hw.screens[k], k)
        got = []

        async def main():
            task = asyncio.create_task(hw.run(frame_ms=10))
            for _ in range(2):
                got.append(await asyncio.wait_for(hw.get(), 2))
            task.cancel()

        asyncio.run(main())
        assert sorted(got) == [(0, ONLINE, 0), (1, ONLINE, 0)], got
        for k in range(2):
            assert not shown(hw.screens[k], rig.table.stations[k].oled)
