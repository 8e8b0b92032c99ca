# Deterministic PRNG shared by the Pico and the laptop.
#
# `random` differs between MicroPython and CPython, so every draw a game makes
# comes from here. Three 16-bit multiply-with-carry generators (Marsaglia) are
# combined by xor. Each step computes a*x + c < 2**30, so on the RP2040 every
# intermediate stays a small int: no heap allocation per draw. Each multiplier
# makes a*2**16 - 1 a safe prime, giving each generator a period near 2**29 and
# the combination one near 2**87.
import hashlib

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


_A0 = const(16380)
_A1 = const(16365)
_A2 = const(16275)
_MASK = const(0xFFFF)
SEED_BYTES = const(16)


def new_seed():
    """A fresh 128-bit seed as 32 hex digits, from the board's entropy source."""
    return _random_hex()


def new_salt():
    """A fresh 128-bit salt for the seed's commitment, as 32 hex digits."""
    return _random_hex()


def _random_hex():
    import os

    return _hex(os.urandom(SEED_BYTES))


def _hex(data):
    import binascii

    return binascii.hexlify(data).decode()


def commit(seed, salt):
    """Public commitment to a seed: SHA-256 of the salt and the seed, in hex.
    The salt stays secret with the seed, so even a short seed chosen for a
    demo cannot be found by trying seeds against the commitment; revealing
    both later lets anyone check them against it."""
    return _hex(hashlib.sha256(("catnip-seed:%s:%s" % (salt, seed)).encode()).digest())


class Rng:
    __slots__ = ("_x0", "_c0", "_x1", "_c1", "_x2", "_c2")

    def __init__(self, seed):
        if not isinstance(seed, str) or not seed:
            raise ValueError("seed must be a non-empty string")
        d = hashlib.sha256(b"catnip-rng:" + seed.encode()).digest()
        w = [d[i] << 8 | d[i + 1] for i in range(0, 12, 2)]
        # A carry in [1, a-1] keeps every generator off its two fixed points.
        self._x0, self._c0 = w[0], w[1] % (_A0 - 1) + 1
        self._x1, self._c1 = w[2], w[3] % (_A1 - 1) + 1
        self._x2, self._c2 = w[4], w[5] % (_A2 - 1) + 1

    def next16(self):
        """Next 16 uniformly distributed bits."""
        t = _A0 * self._x0 + self._c0
        self._x0 = t & _MASK
        self._c0 = t >> 16
        t = _A1 * self._x1 + self._c1
        self._x1 = t & _MASK
        self._c1 = t >> 16
        t = _A2 * self._x2 + self._c2
        self._x2 = t & _MASK
        self._c2 = t >> 16
        return self._x0 ^ self._x1 ^ self._x2

    def below(self, n):
        """Uniform int in [0, n) for 1 <= n <= 65536, without modulo bias."""
        if n < 1 or n > 65536:
            raise ValueError("below(n) needs 1 <= n <= 65536")
        limit = 65536 - 65536 % n
        r = self.next16()
        while r >= limit:
            r = self.next16()
        return r % n

    def shuffle(self, items):
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        return items[self.below(len(items))]

    def state(self):
        return (self._x0, self._c0, self._x1, self._c1, self._x2, self._c2)
