# Invariants every button event stream keeps, checked by the example tests
# (both interpreters) and by the property tests (CPython, hypothesis).
#
# Per (station, button): PRESS and RELEASE alternate, starting with PRESS;
# LONG and REPEAT come only while held, LONG at most once per hold, never
# both kinds for one button; STUCK at most once per hold and UNSTUCK right
# after the RELEASE that ends a stuck hold; no button event while the
# station is offline; OFFLINE and ONLINE alternate.
from catnip.drivers.debounce import NAMES


def check_stream(events):
    """Raise AssertionError naming the first event that breaks an invariant.
    `events` are (station, kind name, button) tuples."""
    held = {}  # (station, button) -> dict of what this hold has seen
    kinds = {}  # (station, button) -> "long" or "repeat", once seen
    online = {}
    last_release_stuck = None
    for n, (station, kind, button) in enumerate(events):
        where = "event %d %r" % (n, (station, kind, button))
        assert kind in NAMES, where
        key = (station, button)
        if kind in ("offline", "online"):
            assert button == 0, where
            assert online.get(station) != (kind == "online"), where + ": said twice"
            if kind == "offline":
                assert not [k for k in held if k[0] == station], where + ": buttons still held"
            online[station] = kind == "online"
            last_release_stuck = None
            continue
        assert online.get(station, True), where + ": button event from an offline station"
        if kind == "unstuck":
            assert last_release_stuck == key, where + ": UNSTUCK not right after its RELEASE"
            last_release_stuck = None
            continue
        assert last_release_stuck is None, where + ": UNSTUCK missing"
        hold = held.get(key)
        if kind == "press":
            assert hold is None, where + ": pressed twice"
            held[key] = {"long": 0, "stuck": 0}
        elif kind == "release":
            assert hold is not None, where + ": released while not pressed"
            if hold["stuck"]:
                last_release_stuck = key
            del held[key]
        else:
            assert hold is not None, where + ": while not pressed"
            if kind in ("long", "repeat"):
                assert kinds.setdefault(key, kind) == kind, where + ": both LONG and REPEAT"
                assert not hold["stuck"], where + ": after STUCK"
            if kind in ("long", "stuck"):
                assert not hold[kind], where + ": twice in one hold"
                hold[kind] = 1
    assert last_release_stuck is None, "stream ends before UNSTUCK"


def presses(events, station=0, button=None):
    return len([e for e in events if e[1] == "press" and e[0] == station
                and (button is None or e[2] == button)])
