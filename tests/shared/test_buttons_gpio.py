# Buttons wired straight to GPIO pins, with bouncing contacts, polled through
# the fake machine.Pin; and the asyncio face of the poller.
import asyncio

from buttoncheck import check_stream
from check import message

from catnip.drivers.buttons import Buttons, GpioSource
from devsim import pins
from inputrig import drain, fresh, gpio_buttons

PINS = (10, 11, 12, 13)


def run(buttons, keys, start, stop, step=1):
    """Move the contacts every ms, poll every 10 ms."""
    got = []
    for now in range(start, stop, step):
        for k in keys:
            k.advance(now)
        if now % 10 == 0:
            buttons.poll(now)
            got.extend(drain(buttons))
    return got


def test_pins_get_pull_ups_and_read_active_low():
    fresh()
    source = GpioSource(PINS)
    assert [pins.board.pin(p).pull for p in PINS] == [pins.PULL_UP] * 4
    assert source.read() == 0
    pins.board.drive(11, 0)
    pins.board.drive(13, 0)
    assert source.read() == 0b1010


def test_active_high_buttons_use_pull_downs():
    fresh()
    source = GpioSource((2, 3), active_low=False)
    assert pins.board.pin(2).pull == pins.PULL_DOWN
    pins.board.drive(3, 1)
    assert source.read() == 0b10


def test_bouncing_taps_at_every_phase_give_one_press_each():
    buttons, keys = gpio_buttons(PINS)
    got = run(buttons, keys, 0, 10)
    assert got == [(0, "online", 0)]
    t = 10
    for n in range(20):
        keys[n % 4].tap(t + n % 10, 60 + 13 * n)  # every offset within a poll
        t += 400
    got = run(buttons, keys, 10, t)
    check_stream([(0, "online", 0)] + got)
    assert [e[1] for e in got].count("press") == 20, got
    assert [e[1] for e in got].count("release") == 20
    assert sum(k.transitions for k in keys) > 80  # the contacts really bounced


def test_chatter_while_held_is_one_press():
    buttons, keys = gpio_buttons(PINS)
    run(buttons, keys, 0, 10)
    keys[2].press(20)
    keys[2].chatter(200, 25)
    keys[2].chatter(420, 20)
    keys[2].release(600)
    got = run(buttons, keys, 10, 800)
    assert got == [(0, "press", 2), (0, "release", 2)], got
    assert keys[2].transitions > 12


def test_gpio_poll_allocates_nothing():
    fresh()
    buttons = Buttons()
    buttons.add(GpioSource(PINS), repeat=1)
    buttons.poll(0)
    buttons.queue.clear()
    check_heap_free_gpio(buttons)


def check_heap_free_gpio(buttons):
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return
    seen = 0
    heap_lock()
    try:
        for now in range(10, 3000, 10):
            pins.board.pins[10].external = 0 if now // 700 % 2 else None
            buttons.poll(now)
            while buttons.queue.count:
                buttons.queue.pop()
                seen += 1
    finally:
        heap_unlock()
    assert seen > 4, seen


def test_gpio_group_size_checked():
    fresh()
    assert "1..16 pins" in message(ValueError, GpioSource, ())
    assert "1..16 pins" in message(ValueError, GpioSource, tuple(range(17)))


def test_poller_task_and_awaiting_events():
    buttons, keys = gpio_buttons(PINS, poll_ms=5)

    async def scenario():
        task = asyncio.create_task(buttons.run())
        assert await asyncio.wait_for(buttons.get(), 1) == (0, 7, 0)  # ONLINE
        keys[1].press(0)
        keys[1].settle()
        assert await asyncio.wait_for(buttons.get(), 1) == (0, 0, 1)  # PRESS
        keys[1].release(0)
        keys[1].settle()
        assert await asyncio.wait_for(buttons.get(), 1) == (0, 1, 1)  # RELEASE
        assert buttons.next() is None
        task.cancel()

    asyncio.run(scenario())
