# The pure debouncer, fed sample masks and ms ticks directly: no sleeping, so
# timing is exact and identical under both interpreters.
from buttoncheck import check_stream
from check import message

from catnip.drivers.debounce import (LONG, NAMES, PRESS, RELEASE, REPEAT, STUCK, Debouncer,
                                     EventQueue, pack, ticks_add, ticks_diff, unpack)

POLL = 10


def events(q):
    out = []
    while q.count:
        s, k, b = unpack(q.pop())
        out.append((s, NAMES[k], b))
    return out


def feed(d, samples, start=0, step=POLL):
    """samples: one mask per poll; returns [(t, event), ...] relative to start."""
    out = []
    for n, mask in enumerate(samples):
        t = n * step
        d.update(mask, ticks_add(start, t))
        out.extend((t, e) for e in events(d.queue))
    return out


def at_times(polls):
    """polls: (t, mask) at irregular times, as late polls come on the Pico;
    returns [(t, event), ...]."""
    d = Debouncer(EventQueue(), release_ms=30)
    out = []
    for t, mask in polls:
        d.update(mask, t)
        out.extend((t, e) for e in events(d.queue))
    return out


def hold(ms, mask=1):
    return [mask] * (ms // POLL)


def test_press_counts_at_first_sample_release_after_release_ms():
    d = Debouncer(EventQueue(), release_ms=30)
    got = feed(d, [0, 1, 1, 1, 0, 0, 0, 0, 0])
    assert got == [(10, (0, "press", 0)), (70, (0, "release", 0))], got


def test_bouncing_samples_give_one_press_and_one_release():
    d = Debouncer(EventQueue(), release_ms=30)
    bouncy = [1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    got = feed(d, bouncy)
    assert [e for _, e in got] == [(0, "press", 0), (0, "release", 0)], got
    assert got[-1][0] == 170  # three released samples after the last flicker


def test_chatter_shorter_than_release_ms_while_held_keeps_one_hold():
    d = Debouncer(EventQueue(), release_ms=30, long_ms=800)
    samples = hold(200) + [0, 0, 1, 0, 1, 0, 0, 1] + hold(700) + [0] * 4
    got = [e for _, e in feed(d, samples)]
    assert got == [(0, "press", 0), (0, "long", 0), (0, "release", 0)], got


def test_a_second_press_between_sparse_polls_is_not_taken_for_chatter():
    # Polls late while the app draws (seen on the Pico): the button reads
    # released twice, 16 ms apart, then pressed again 52 ms after it first
    # read released. It was let go and pressed anew.
    got = at_times(((0, 1), (40, 1), (57, 0), (73, 0), (109, 1), (150, 1), (170, 0), (200, 0)))
    assert got == [(0, (0, "press", 0)), (109, (0, "release", 0)), (109, (0, "press", 0)),
                   (200, (0, "release", 0))], got


def test_a_release_seen_after_a_busy_gap_is_a_release_at_once():
    # Seen on the Pico: the last read held at 106 ms, then nothing for 105 ms
    # while the flash was erased; the button was let go meanwhile, read
    # released once, and pressed again 4 ms later: released at that read, so
    # the press that follows is a press of its own.
    got = at_times(((0, 1), (14, 1), (106, 1), (211, 0), (215, 1), (300, 1), (310, 0),
                    (320, 0), (345, 0)))
    assert got == [(0, (0, "press", 0)), (211, (0, "release", 0)), (215, (0, "press", 0)),
                   (345, (0, "release", 0))], got


def test_a_release_seen_after_a_short_gap_still_waits_out_release_ms():
    # 25 ms without a poll is shorter than release_ms: a released read and a
    # pressed one 5 ms later are chatter, one press.
    got = at_times(((0, 1), (10, 1), (35, 0), (40, 1), (60, 1), (70, 0), (85, 0), (105, 0)))
    assert got == [(0, (0, "press", 0)), (105, (0, "release", 0))], got


def test_long_press_once_at_long_ms():
    d = Debouncer(EventQueue(), long_ms=800)
    got = feed(d, hold(2000) + [0] * 5)
    assert got[:2] == [(0, (0, "press", 0)), (800, (0, "long", 0))], got
    assert [e for _, e in got].count((0, "long", 0)) == 1


def test_short_press_gives_no_long():
    d = Debouncer(EventQueue(), long_ms=800)
    got = [e for _, e in feed(d, hold(790) + [0] * 5)]
    assert got == [(0, "press", 0), (0, "release", 0)], got


def test_repeat_after_delay_then_every_repeat_ms_and_no_long():
    d = Debouncer(EventQueue(), repeat=0b10, repeat_delay_ms=450, repeat_ms=120, long_ms=800)
    got = feed(d, hold(1000, 0b10) + [0] * 5)
    times = [t for t, e in got if e == (0, "repeat", 1)]
    assert times == [450, 570, 690, 810, 930], times
    assert not [e for _, e in got if e[1] == "long"]


def test_repeat_keeps_its_cadence_when_polls_do_not_divide_it():
    d = Debouncer(EventQueue(), repeat=1, repeat_delay_ms=400, repeat_ms=100)
    got = feed(d, [1] * 80, step=7)
    times = [t for t, e in got if e[1] == "repeat"]
    # each repeat at the first poll at or after 400 + 100k: no drift
    assert times == [7 * ((400 + 100 * k + 6) // 7) for k in range(len(times))], times
    assert len(times) == 2


def test_a_late_poll_gives_one_repeat_not_a_burst():
    d = Debouncer(EventQueue(), repeat=1, repeat_delay_ms=400, repeat_ms=100)
    d.update(1, 0)
    d.update(1, 1000)  # the task was starved for a second
    d.update(1, 1050)
    d.update(1, 1100)
    got = events(d.queue)
    assert got == [(0, "press", 0), (0, "repeat", 0), (0, "repeat", 0)], got


def test_stuck_reported_once_then_recovers_on_release():
    d = Debouncer(EventQueue(), repeat=1, stuck_ms=15000, repeat_delay_ms=450, repeat_ms=120)
    got = feed(d, hold(40000) + [0] * 5, step=POLL)
    stuck = [t for t, e in got if e[1] == "stuck"]
    assert stuck == [15000], stuck
    assert not [t for t, e in got if e[1] == "repeat" and t > 15000]
    tail = [e for _, e in got][-2:]
    assert tail == [(0, "release", 0), (0, "unstuck", 0)], tail
    check_stream([e for _, e in got])
    # and a later press works normally
    got = [e for _, e in feed(d, [1, 1, 0, 0, 0, 0], start=50000)]
    assert got == [(0, "press", 0), (0, "release", 0)], got


def test_buttons_are_independent():
    d = Debouncer(EventQueue(), station=5, repeat=0b100)
    got = [e for _, e in feed(d, [0b001, 0b101, 0b101, 0b100, 0b100, 0b100, 0b100, 0])]
    assert got == [(5, "press", 0), (5, "press", 2), (5, "release", 0)], got


def test_sixteen_buttons():
    d = Debouncer(EventQueue())
    got = [e for _, e in feed(d, [0x8001, 0x8001])]
    assert got == [(0, "press", 0), (0, "press", 15)], got


def test_release_all_releases_held_and_unsticks():
    d = Debouncer(EventQueue(), stuck_ms=1000)
    feed(d, [0b11] * 120)
    events(d.queue)
    d.release_all()
    got = events(d.queue)
    assert got == [(0, "release", 0), (0, "unstuck", 0), (0, "release", 1), (0, "unstuck", 1)]
    assert d.down == 0 and d.stuck == 0


def test_tick_wraparound():
    # Start just before the tick counter wraps (2**30 on the Pico; the
    # module's ticks_add gives this port's own period).
    start = ticks_add(0, -25)
    assert ticks_diff(ticks_add(start, 30), start) == 30
    d = Debouncer(EventQueue(), long_ms=800, repeat=0b10, repeat_delay_ms=450, repeat_ms=120)
    got = feed(d, hold(1000, 0b11) + [0] * 5, start=start)
    assert (800, (0, "long", 0)) in got, got
    assert [t for t, e in got if e[1] == "repeat"] == [450, 570, 690, 810, 930]
    assert [e for _, e in got][-2:] == [(0, "release", 0), (0, "release", 1)]


def test_queue_drops_when_full_and_counts():
    q = EventQueue(4)
    for n in range(6):
        q.push(pack(1, PRESS, n))
    assert q.count == 4 and q.dropped == 2
    assert [unpack(q.pop()) for _ in range(4)] == [(1, PRESS, n) for n in range(4)]
    q.push(pack(2, RELEASE, 3))
    assert unpack(q.pop()) == (2, RELEASE, 3)
    assert "no button event" in message(IndexError, q.pop)


def test_pack_round_trip():
    for s, k, b in ((0, PRESS, 0), (255, STUCK, 15), (6, LONG, 9), (3, REPEAT, 1)):
        assert unpack(pack(s, k, b)) == (s, k, b)


def test_bad_timing_is_refused():
    q = EventQueue()
    assert "release_ms < long_ms" in message(ValueError, Debouncer, q, release_ms=900)
    assert "stuck_ms" in message(ValueError, Debouncer, q, long_ms=30000)
    assert "16" in message(ValueError, Debouncer, q, repeat=1 << 16)
    assert "0..255" in message(ValueError, Debouncer, q, station=256)


def test_the_queue_tells_whether_a_press_is_waiting_without_taking_it():
    # The journal's work between moves stops for a press waiting, not for
    # the release of the one before; the events stay for the loop, in order.
    q = EventQueue(size=4)
    assert not q.waiting(PRESS)
    for _ in range(3):  # around the ring's end
        q.push(2 << 8 | RELEASE << 4 | 1)
        q.pop()
    q.push(2 << 8 | RELEASE << 4 | 1)
    assert q.waiting(RELEASE) and not q.waiting(PRESS)
    q.push(3 << 8 | PRESS << 4 | 2)
    q.push(3 << 8 | RELEASE << 4 | 2)
    assert q.waiting(PRESS) and q.count == 3
    assert q.pop() == 2 << 8 | RELEASE << 4 | 1 and q.pop() == 3 << 8 | PRESS << 4 | 2
    assert not q.waiting(PRESS)
