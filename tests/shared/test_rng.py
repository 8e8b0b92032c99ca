# The PRNG must give the same draws on CPython and MicroPython: these vectors
# were computed once and are checked under both interpreters.
from check import message, raises

from catnip.rules.rng import Rng, commit, new_salt, new_seed


def test_next16_vector():
    r = Rng("catnip")
    assert [r.next16() for _ in range(8)] == [63980, 33982, 25653, 18966, 19280, 23922, 31692, 34083]


def test_below_and_shuffle_vector():
    r = Rng("00112233445566778899aabbccddeeff")
    assert [r.below(6) for _ in range(12)] == [4, 0, 5, 0, 0, 4, 0, 0, 0, 2, 5, 0]
    items = list(range(10))
    r.shuffle(items)
    assert items == [2, 5, 1, 6, 0, 7, 9, 3, 4, 8]


def test_commitment_vector():
    # Reckoned independently: printf 'catnip-seed:<salt>:catnip' | sha256sum
    salt = "00112233445566778899aabbccddeeff"
    assert commit("catnip", salt) == (
        "a250c9f4d4a63ca9529cfc1994e7f016f0d32599f9d31cc6db2a4c6852210972")
    assert commit("catnip", "f" * 32) != commit("catnip", salt)


def test_below_is_roughly_uniform():
    r = Rng("uniform")
    counts = [0] * 7
    for _ in range(7000):
        counts[r.below(7)] += 1
    assert min(counts) > 850 and max(counts) < 1150, counts


def test_state_stays_small_int():
    # On the RP2040 ints past 2**30 allocate; the generator must never need one.
    r = Rng("small")
    for _ in range(2000):
        r.next16()
        assert max(r.state()) < 2 ** 30


def test_bad_arguments_are_named():
    assert "1 <= n <= 65536" in message(ValueError, Rng("x").below, 0)
    raises(ValueError, Rng, "")


def test_new_seed_is_fresh_hex():
    a, b = new_seed(), new_seed()
    assert a != b and len(a) == 32
    int(a, 16)


def test_new_salt_is_fresh_hex():
    a, b = new_salt(), new_salt()
    assert a != b and len(a) == 32 and all(ch in "0123456789abcdef" for ch in a)
