# The packed action log reads back exactly what was written.
from check import message, raises

from catnip.rules.log import Log
from catnip.rules.rng import Rng


def test_round_trip_of_numbers_and_words():
    entries = [
        (0, ("play", 3)),
        (5, ("gems", -5, 0, (1 << 28) - 1, -(1 << 28) + 1)),
        (1, ("drew", "red")),
        (0, ("declare",)),
        (3, ("drew", "red")),
    ]
    log = Log(entries)
    assert list(log) == entries and log == entries and len(log) == 5
    assert log[-1] == entries[-1] and log[1] == entries[1]
    raises(IndexError, log.__getitem__, 5)


def test_random_entries_round_trip():
    pick = Rng("log")
    entries = []
    for _ in range(500):
        action = ["w%d" % pick.below(5)]
        for _ in range(pick.below(6)):
            action.append(pick.below(65536) - 32768)
        entries.append((pick.below(8), tuple(action)))
    assert list(Log(entries)) == entries


def test_packed_is_small():
    log = Log((p % 7, ("offer", 10 + p % 50, 11 + p % 50)) for p in range(800))
    # player, count, word, two small numbers: five bytes; the few numbers
    # past 31 take a second byte (varints hold 6 value bits in the first).
    assert log.nbytes() < 800 * 7


def test_copy_is_independent():
    log = Log([(0, ("a", 1))])
    snapshot = log.copy()
    log.append((1, ("b", 2)))
    assert len(snapshot) == 1 and list(snapshot) == [(0, ("a", 1))]


def test_items_that_cannot_be_packed_are_refused_whole():
    log = Log([(0, ("a", 1))])
    for bad in (1.5, None, True, 1 << 40, [1]):
        assert "cannot log" in message(ValueError, log.append, (1, ("b", 2, bad)))
    assert list(log) == [(0, ("a", 1))]


def test_pack_round_trips_and_is_json_ready():
    import json

    entries = [(0, ("play", 3)), (2, ("drew", "red")), (1, ("gems", -1, 700))]
    packed = json.loads(json.dumps(Log(entries).pack()))
    assert packed["count"] == 3 and packed["words"] == ["play", "drew", "red", "gems"]
    assert list(Log.unpack(packed)) == entries


def test_a_damaged_packed_log_is_refused():
    good = Log([(0, ("play", 3)), (2, ("drew", "red"))]).pack()
    damaged = [
        dict(good, count=3),  # claims more actions than it holds
        dict(good, count=1),  # trailing bytes
        dict(good, words=["play"]),  # a word missing from the table
        dict(good, data="!!"),  # not base64
        {"words": [], "count": 0},  # no data at all
        dict(good, words=["play", "drew", "red", "extra"]),  # a word no action uses
        dict(good, data=good["data"][:-2] + "\n" + good["data"][-2:]),  # not as pack() writes it
        dict(good, count=True),
        [[0, ["play", 3]]],  # a hand-written list is replay's to read, entry by entry
    ]
    for packed in damaged:
        assert "damaged" in message(ValueError, Log.unpack, packed)


def test_replay_names_a_damaged_log():
    from catnip.rules.engine import RuleError, replay
    from test_engine import Race, finished

    record = finished().record()
    record["log"]["count"] += 1
    assert "damaged" in message(RuleError, replay, Race, record)


def _varint(n):
    out = []
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return out


def test_every_varint_width_packs_as_the_format_says():
    # Numbers on each side of the one-, two- and three-byte limits, both
    # signs, and words past the 64th (whose index needs a second byte).
    numbers = [0, 1, -1, 31, 32, -32, -33, 4095, 4096, -4096, -4097, (1 << 28) - 1,
               -(1 << 28) + 1]
    words = ["w%d" % i for i in range(70)]
    entries = [(200, tuple(["n"] + numbers))] + [(i % 8, (w, i)) for i, w in enumerate(words)]
    log, added = Log(entries), Log()
    for player, action in entries:
        added.add(player, action)
    expected, index = [], {}
    for player, action in entries:
        expected += _varint(player) + _varint(len(action))
        for item in action:
            if isinstance(item, str):
                index.setdefault(item, len(index))
                expected += _varint(index[item] << 1 | 1)
            else:
                expected += _varint((item << 1 if item >= 0 else ((-item) << 1) - 1) << 1)
    assert log == added and b"".join(log._pages) == bytes(expected)
    assert list(log) == entries


def test_a_long_log_grows_in_pages_that_no_entry_straddles():
    # One buffer would need its whole length free in one piece at every
    # resize: on the Pico's fragmented heap a long game's log did not find it.
    from catnip.rules.log import PAGE_BYTES, Log

    entries = [(k % 7, ("offer", k % 300, -k, "cat%d" % (k % 5))) for k in range(1500)]
    log = Log(entries)
    assert list(log) == entries
    assert len(log._pages) > 10
    for page in log._pages:
        assert len(page) < PAGE_BYTES + 32, len(page)
    again = Log.unpack(log.pack())
    assert again == log and list(again) == entries
    assert log.nbytes() == sum(len(p) for p in again._pages)
