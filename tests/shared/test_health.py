# Folding each station's parts into one online/offline state, and keeping
# the button events' promises across it.
from check import message
from healthplay import ACTIONS, STATIONS, play

from catnip.drivers.debounce import (OFFLINE, ONLINE, PRESS, RELEASE, STUCK, UNSTUCK,
                                     EventQueue, pack, unpack)
from catnip.parts.health import StationEvents
from catnip.rules.rng import Rng


def run(fold, *codes):
    queue = EventQueue(16)
    for code in codes:
        queue.push(code)
    out = []
    while True:
        code = fold.take(queue)
        if code < 0:
            return out
        out.append(unpack(code))


def test_a_station_is_online_once_both_parts_answer():
    fold = StationEvents(2)
    assert run(fold, pack(0, ONLINE, 0)) == []  # the screen has not said yet
    assert run(fold, pack(0, ONLINE, 1)) == [(0, ONLINE, 0)]
    assert fold.online(0) and not fold.online(1) and fold.missing(0) == 0


def test_unplugging_is_one_offline_and_replugging_one_online_in_either_order():
    for first, second in ((0, 1), (1, 0)):
        fold = StationEvents(2)
        run(fold, pack(1, ONLINE, 0), pack(1, ONLINE, 1))
        assert run(fold, pack(1, OFFLINE, first)) == [(1, OFFLINE, 0)]
        assert run(fold, pack(1, OFFLINE, second)) == []
        assert fold.missing(1) == 3
        assert run(fold, pack(1, ONLINE, second)) == []
        assert fold.missing(1) == 1 << first and not fold.online(1)
        assert run(fold, pack(1, ONLINE, first)) == [(1, ONLINE, 0)]


def test_a_part_missing_from_the_start_is_one_offline():
    fold = StationEvents(1)
    assert run(fold, pack(0, ONLINE, 0), pack(0, OFFLINE, 1), pack(0, OFFLINE, 1)) == [
        (0, OFFLINE, 0)]


def test_presses_only_from_an_online_station():
    fold = StationEvents(1)
    assert run(fold, pack(0, ONLINE, 0), pack(0, PRESS, 2), pack(0, RELEASE, 2)) == []
    assert run(fold, pack(0, ONLINE, 1), pack(0, PRESS, 2), pack(0, RELEASE, 2)) == [
        (0, ONLINE, 0), (0, PRESS, 2), (0, RELEASE, 2)]


def test_held_buttons_are_released_before_the_offline():
    fold = StationEvents(1)
    run(fold, pack(0, ONLINE, 0), pack(0, ONLINE, 1))
    run(fold, pack(0, PRESS, 3), pack(0, PRESS, 1), pack(0, STUCK, 3))
    got = run(fold, pack(0, OFFLINE, 1), pack(0, RELEASE, 1), pack(0, RELEASE, 3),
              pack(0, UNSTUCK, 3), pack(0, ONLINE, 1), pack(0, PRESS, 1))
    assert got == [(0, RELEASE, 1), (0, RELEASE, 3), (0, UNSTUCK, 3), (0, OFFLINE, 0),
                   (0, ONLINE, 0), (0, PRESS, 1)], got


def test_other_reporters_pass_with_button_zero():
    fold = StationEvents(2)
    assert run(fold, pack(254, OFFLINE, 1), pack(255, ONLINE, 0)) == [(254, OFFLINE, 0),
                                                                      (255, ONLINE, 0)]


def test_a_report_names_a_real_part():
    fold = StationEvents(2)
    assert "parts 0..1" in message(ValueError, fold.report, 0, OFFLINE, 2)
    assert "1 to 8 parts" in message(ValueError, StationEvents, 2, 9)


def test_seeded_streams_keep_every_promise():
    rng = Rng("station health")
    for _ in range(40):
        steps = [(rng.below(STATIONS), rng.below(ACTIONS), rng.below(8)) for _ in range(60)]
        play(steps)
