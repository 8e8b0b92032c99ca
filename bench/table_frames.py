# Runs under the MicroPython unix port (the screens need the built-in framebuf):
#   micropython bench/table_frames.py
# with tests/shared on MICROPYPATH. Prints one JSON object: the I2C traffic of
# whole table frames (every station's screen flushed, one button poll) on the
# mux board with seven players, the firmware's CPU time for a frame, and the
# heap the assembled hardware takes.
import gc
import json
from time import ticks_diff, ticks_us

from stubi2c import StubI2C, StubPin
from tablerig import Rig, canvas, load

from catnip.drivers.tca9548a import TCA9548A
from catnip.parts.hardware import Channel

PLAYERS = 7
MENU = ("Play a cat", "Steal a gem", "Pass", "Look at safe", "Scores", "Rules")


def menu(screen, k, cursor, status):
    fb = canvas(screen)
    fb.fill(0)
    fb.text("Player %d" % (k + 1), 0, 0, 1)
    for i, item in enumerate(MENU[:5]):
        fb.text(item, 12, 10 + 9 * i, 1)
    fb.text(">", 2, 10 + 9 * cursor, 1)
    fb.fill_rect(0, 56, 128, 8, 0)
    fb.text(status, 0, 56, 1)
    screen.take(fb)


def frame(rig, change):
    """Bytes and bus µs of one frame: `change` draws, then a poll and a flush."""
    bus = rig.table.bus(0)
    change()
    rig.table.update()
    bus.clear()
    now = rig.table.ticks_ms()
    rig.hw.poll(now)
    rig.hw.flush(now)
    rig.take()
    return bus.bytes_sent(), bus.wire_us()


def traffic():
    out = {}
    with Rig(load("mux"), PLAYERS) as rig:
        hw, table = rig.hw, rig.table
        cursors = [0] * PLAYERS
        for k in range(PLAYERS):
            menu(hw.screens[k], k, 0, "Round 1")
        rig.run(100)
        bus = table.bus(0)
        bus.clear()
        rig.run(10000)
        out["idle_10s"] = (bus.bytes_sent(), bus.wire_us())

        def press_down():
            # Player 3 presses down: the poll reads station 3 on INT, the
            # game moves that player's cursor.
            table.stations[2].press("down")
            table.stations[2].key("down").settle()

        def cursor_moves():
            cursors[2] += 1
            menu(hw.screens[2], 2, cursors[2], "Round 1")

        out["press"] = frame(rig, press_down)
        out["cursor"] = frame(rig, cursor_moves)
        rig.run(20)
        table.stations[2].release("down")
        rig.run(100)

        def status_everywhere():
            for k in range(PLAYERS):
                menu(hw.screens[k], k, cursors[k], "Player 5 stole 2")

        out["status"] = frame(rig, status_everywhere)

        def cursor_everywhere():
            for k in range(PLAYERS):
                cursors[k] = (cursors[k] + 1) % 5
                menu(hw.screens[k], k, cursors[k], "Player 5 stole 2")

        out["cursor_all"] = frame(rig, cursor_everywhere)

        def new_round():
            for k in range(PLAYERS):
                fb = canvas(hw.screens[k])
                fb.fill(0)
                fb.text("Round 2", 36, 28, 1)
                fb.rect(30, 24, 68, 16, 1)
                hw.screens[k].take(fb)

        out["redraw"] = frame(rig, new_round)
        out["nothing"] = frame(rig, lambda: None)
        assert [e for e in rig.events if e[1] in ("offline", "online")] == \
            [(k, "online", 0) for k in range(PLAYERS)] + [(254, "online", 0)], rig.events
    return out


def cpu():
    """Firmware µs for a frame with every station's cursor moved, and for an
    idle frame, with the bus replaced by a stub (the models excluded)."""
    with Rig(load("mux"), PLAYERS) as rig:
        hw = rig.hw
        rig.run(20)
        stub = StubI2C()
        stub.port = 0x00  # status byte: display on
        mux = TCA9548A(stub)
        for k in range(PLAYERS):
            hw.screens[k].panel.i2c = Channel(stub, mux, k)
            hw.buttons.stations[k].source.expander.i2c = Channel(stub, mux, k)
        hw.table.panel.i2c = stub
        hw.buttons.irq = StubPin(1)
        now = rig.table.ticks_ms()
        for k in range(PLAYERS):
            menu(hw.screens[k], k, 0, "Round 1")
        hw.flush(now)
        n = 50
        busy = idle = 0
        for i in range(n):
            for k in range(PLAYERS):
                menu(hw.screens[k], k, (i + 1) % 5, "Round 1")
            now += 20
            t0 = ticks_us()
            hw.poll(now)
            hw.flush(now)
            busy += ticks_diff(ticks_us(), t0)
            now += 20
            t0 = ticks_us()
            hw.poll(now)
            hw.flush(now)
            idle += ticks_diff(ticks_us(), t0)
        return busy / n, idle / n


def heap():
    """Heap the assembled hardware for seven players takes (unix port)."""
    with Rig(load("mux"), 1) as rig:
        board = rig.table.board
        from catnip.parts.hardware import Hardware

        gc.collect()
        before = gc.mem_alloc()
        hw = Hardware(board, PLAYERS, clock=rig.table.clock)
        gc.collect()
        used = gc.mem_alloc() - before
        assert len(hw.screens) == PLAYERS
        return used


result = {"traffic": traffic()}
result["cpu_busy_us"], result["cpu_idle_us"] = cpu()
result["heap"] = heap()
print(json.dumps(result))
