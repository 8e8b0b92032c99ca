# Scenario runners shared by the seeded MicroPython tests and the hypothesis
# property tests: what a person does with the buttons goes in, the event
# stream comes out, and the invariants of buttoncheck are checked on it.
from buttoncheck import check_stream

from catnip.drivers.debounce import NAMES, Debouncer, EventQueue, ticks_add, unpack
from inputrig import drain, gpio_buttons

PINS = (10, 11, 12, 13)
MIN_HOLD_MS = 20  # a tap shorter than two polls may fall between samples
MIN_GAP_MS = 60  # release bounce, then release_ms of quiet, then a poll
# Chatter on a shorter tap can hide it completely, as on a real worn button:
# from this hold on, a clean stretch longer than a poll is left either side.
CHATTER_HOLD_MS = 80


def play_taps(taps, phase=0):
    """taps: (button, gap_ms, hold_ms, chatter_ms) in order. A tap starts
    gap_ms after the previous tap started, or after its own button's last
    release if that is later (buttons overlap freely), and chatters for
    chatter_ms (under 25) mid-hold if it is held for CHATTER_HOLD_MS or more.
    Checks the stream and that every tap is exactly one press and release."""
    buttons, keys = gpio_buttons(PINS)
    t = 10 + phase
    ends = [0] * len(PINS)
    for button, gap, hold, chatter in taps:
        t = max(t, ends[button]) + gap
        keys[button].press(t)
        if chatter and hold >= CHATTER_HOLD_MS:
            keys[button].chatter(t + hold // 2, chatter)
        keys[button].release(t + hold)
        ends[button] = t + hold
    events = []
    for now in range(0, max(ends) + 2000):
        for k in keys:
            k.advance(now)
        if now % 10 == 0:
            buttons.poll(now)
            events.extend(drain(buttons))
    check_stream(events)
    for b in range(len(PINS)):
        want = len([1 for tap in taps if tap[0] == b])
        got = events.count((0, "press", b))
        assert got == want and events.count((0, "release", b)) == want, (b, want, got, events)
    return events


def random_taps(rng, count):
    taps = []
    for _ in range(count):
        taps.append((rng.below(len(PINS)), MIN_GAP_MS + rng.below(200),
                     MIN_HOLD_MS + rng.below(1500), rng.below(26) if rng.below(2) else 0))
    return taps


def play_samples(masks, steps, repeat=0b0101, stuck_ms=2000):
    """Arbitrary sample masks at arbitrary poll steps straight into a
    debouncer (starting just before a tick wrap): the stream stays well formed."""
    d = Debouncer(EventQueue(512), 3, repeat, release_ms=30, long_ms=400,
                  repeat_delay_ms=300, repeat_ms=70, stuck_ms=stuck_ms)
    now = ticks_add(0, -1000)
    events = []
    for mask, step in zip(masks, steps):
        now = ticks_add(now, step)
        d.update(mask, now)
        while d.queue.count:
            s, k, b = unpack(d.queue.pop())
            events.append((s, NAMES[k], b))
    d.release_all()
    while d.queue.count:
        s, k, b = unpack(d.queue.pop())
        events.append((s, NAMES[k], b))
    check_stream(events)
    assert d.queue.dropped == 0
    return events


def random_samples(rng, count):
    masks, steps = [], []
    mask = 0
    for _ in range(count):
        if rng.below(4) == 0:
            mask ^= 1 << rng.below(4)
        masks.append(mask)
        steps.append(1 + rng.below(60))
    return masks, steps
