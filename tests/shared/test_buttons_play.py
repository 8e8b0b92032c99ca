# Seeded runs of the property scenarios (tests/test_buttons_props.py runs
# many more under hypothesis on CPython).
from buttonplay import play_samples, play_taps, random_samples, random_taps

from catnip.rules.rng import Rng


def test_random_taps_each_give_one_press_and_release():
    for seed in ("taps 1", "taps 2", "taps 3"):
        rng = Rng(seed)
        play_taps(random_taps(rng, 8), phase=rng.below(10))


def test_arbitrary_samples_keep_the_stream_well_formed():
    for seed in ("samples 1", "samples 2", "samples 3"):
        masks, steps = random_samples(Rng(seed), 600)
        events = play_samples(masks, steps)
        assert [e for e in events if e[1] == "press"]


def test_stuck_in_arbitrary_samples():
    events = play_samples([1] * 200 + [0] * 10, [20] * 210, stuck_ms=2000)
    assert events.count((3, "stuck", 0)) == 1 and events[-1] == (3, "unstuck", 0)
