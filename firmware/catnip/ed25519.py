# Ed25519 signatures (RFC 8032, section 5.1), the table's side: its public
# key and its signatures, in plain Python for MicroPython and CPython alike.
# The laptop checks them with the `cryptography` library; this module never
# verifies.
#
# The RP2040's MicroPython has hashlib.sha256 but no sha512, so SHA-512
# (FIPS 180-4) is here too, used when hashlib lacks it. Both the hash and the
# scalar multiplication are generators that yield between bounded pieces of
# work: the table runs a signature a few milliseconds per idle turn, so a
# press never waits for it (catnip.table.seal). sign() and public_key() run
# them through at once (tests, the laptop's tools).
#
# Not constant-time: whoever can time the table's signing to the microsecond
# has the Pico in hand, and with it the key on its flash (docs/records.md).
#
# PURE: imports nothing of catnip.
try:
    from hashlib import sha512 as _sha512
except ImportError:  # the rp2 port
    _sha512 = None

P = (1 << 255) - 19  # the field
L = (1 << 252) + 27742317777372353535851937790883648493  # the base point's order
D2 = 2 * 37095705934669439343138083508754565189542113879843219016388785533085940283555 % P
BX = 15112221349535400772501151409588531511454012693041857206046113283949847762202
BY = 46316835694926478169428394003475163141307993866256225615783033603165251855960
# Work between two yields, each under 1 ms on the Pico (docs/pico.md): half
# a point doubling or addition (4-5 products mod P), 2 bits of an inversion,
# a round of SHA-512. The table stops between any two for a press.
INVERT_BITS = 2
ROUNDS_PER_STEP = 1

_M64 = (1 << 64) - 1
_H0 = bytes.fromhex(
    "6a09e667f3bcc908bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1"
    "510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179")
_K = bytes.fromhex(
    "428a2f98d728ae227137449123ef65cdb5c0fbcfec4d3b2fe9b5dba58189dbbc3956c25bf348b538"
    "59f111f1b605d019923f82a4af194f9bab1c5ed5da6d8118d807aa98a303024212835b0145706fbe"
    "243185be4ee4b28c550c7dc3d5ffb4e272be5d74f27b896f80deb1fe3b1696b19bdc06a725c71235"
    "c19bf174cf692694e49b69c19ef14ad2efbe4786384f25e30fc19dc68b8cd5b5240ca1cc77ac9c65"
    "2de92c6f592b02754a7484aa6ea6e4835cb0a9dcbd41fbd476f988da831153b5983e5152ee66dfab"
    "a831c66d2db43210b00327c898fb213fbf597fc7beef0ee4c6e00bf33da88fc2d5a79147930aa725"
    "06ca6351e003826f142929670a0e6e7027b70a8546d22ffc2e1b21385c26c9264d2c6dfc5ac42aed"
    "53380d139d95b3df650a73548baf63de766a0abb3c77b2a881c2c92e47edaee692722c851482353b"
    "a2bfe8a14cf10364a81a664bbc423001c24b8b70d0f89791c76c51a30654be30d192e819d6ef5218"
    "d69906245565a910f40e35855771202a106aa07032bbd1b819a4c116b8d2d0c81e376c085141ab53"
    "2748774cdf8eeb9934b0bcb5e19b48a8391c0cb3c5c95a634ed8aa4ae3418acb5b9cca4f7763e373"
    "682e6ff3d6b2b8a3748f82ee5defb2fc78a5636f43172f6084c87814a1f0ab728cc702081a6439ec"
    "90befffa23631e28a4506cebde82bde9bef9a3f7b2c67915c67178f2e372532bca273eceea26619c"
    "d186b8c721c0c207eada7dd6cde0eb1ef57d4f7fee6ed17806f067aa72176fba0a637dc5a2c898a6"
    "113f9804bef90dae1b710b35131c471b28db77f523047d8432caab7b40c724933c9ebe0a15c9bebc"
    "431d67c49c100d4c4cc5d4becb3e42b6597f299cfc657e2a5fcb6fab3ad6faec6c44198c4a475817")


def sign(seed, message, public=None):
    """The 64-byte signature of `message` (bytes) by the key of `seed` (its
    32 secret bytes); `public` is its public key when known (else worked out)."""
    return _run(signing(seed, message, public))


def public_key(seed):
    """The 32-byte public key of `seed`."""
    return _run(public_steps(seed))


def public_steps(seed):
    """public_key() a step at a time: yields None until it yields the key."""
    a, _ = yield from _expand(seed)
    point = yield from _times_base(a)
    yield (yield from _encode(point))


def signing(seed, message, public=None):
    """sign() a step at a time: a generator that yields None after each
    bounded piece of work, then the signature."""
    a, prefix = yield from _expand(seed)
    if public is None:
        public = yield from _encode((yield from _times_base(a)))
    r = _number((yield from sha512_steps(prefix + message))) % L
    big_r = yield from _encode((yield from _times_base(r)))
    k = _number((yield from sha512_steps(big_r + public + message))) % L
    yield big_r + ((r + k * a) % L).to_bytes(32, "little")


def sha512(data):
    """The SHA-512 digest of `data` (bytes): hashlib's when it has one."""
    if _sha512 is not None:
        return _sha512(data).digest()
    return _run(sha512_steps(data))


def sha512_steps(data):
    # Generator: hashlib's digest at once, else FIPS 180-4's a few rounds a
    # step. Returns (yield from) the digest.
    if _sha512 is not None:
        return _sha512(data).digest()
    n = len(data)
    padded = data + b"\x80" + bytes((111 - n) % 128) + (n * 8).to_bytes(16, "big")
    state = [int.from_bytes(_H0[i:i + 8], "big") for i in range(0, 64, 8)]
    for at in range(0, len(padded), 128):
        yield from _compress(state, padded[at:at + 128])
    out = b""
    for word in state:
        out += word.to_bytes(8, "big")
    return out


def _compress(state, block):
    w = [int.from_bytes(block[i:i + 8], "big") for i in range(0, 128, 8)]
    a, b, c, d, e, f, g, h = state
    for i in range(80):
        if i >= 16:  # the schedule, kept as the last 16 words
            x, y = w[(i - 15) & 15], w[(i - 2) & 15]
            s0 = _rotr(x, 1) ^ _rotr(x, 8) ^ (x >> 7)
            s1 = _rotr(y, 19) ^ _rotr(y, 61) ^ (y >> 6)
            w[i & 15] = (w[i & 15] + s0 + w[(i - 7) & 15] + s1) & _M64
        t1 = h + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)) + ((e & f) ^ ((e ^ _M64) & g)) \
            + int.from_bytes(_K[8 * i:8 * i + 8], "big") + w[i & 15]
        t2 = (_rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & _M64, c, b, a, (t1 + t2) & _M64
        if i % ROUNDS_PER_STEP == ROUNDS_PER_STEP - 1:
            yield None
    for i, v in enumerate((a, b, c, d, e, f, g, h)):
        state[i] = (state[i] + v) & _M64


def _rotr(x, n):
    return ((x >> n) | (x << (64 - n))) & _M64


def _expand(seed):
    # RFC 8032 5.1.5: the secret scalar (clamped) and the nonce's prefix.
    if len(seed) != 32:
        raise ValueError("an Ed25519 secret key is 32 bytes, not %d" % len(seed))
    h = yield from sha512_steps(bytes(seed))
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def _number(digest):
    return int.from_bytes(digest, "little")


def _times_base(n):
    # n times the base point, by double-and-add from bit 254 down, in extended
    # coordinates (X, Y, Z, T) (RFC 8032 5.1.4). Returns (yield from) it.
    base = (BX, BY, 1, BX * BY % P)
    acc = (0, 1, 1, 0)  # the neutral point
    for i in range(254, -1, -1):  # every scalar here is below 2**255
        acc = yield from _double(acc)
        if (n >> i) & 1:
            acc = yield from _add(acc, base)
    return acc


def _add(p, q):
    # Generator, a yield halfway and one at the end; returns p + q.
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 % P * t2 % P
    yield None
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    out = e * f % P, g * h % P, f * g % P, e * h % P
    yield None
    return out


def _double(p):
    # Generator, as _add; returns 2p.
    x1, y1, z1, _ = p
    a = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a + b
    s = x1 + y1
    e = h - s * s % P
    yield None
    g = a - b
    f = c + g
    out = e * f % P, g * h % P, f * g % P, e * h % P
    yield None
    return out


def _encode(point):
    # Generator: the point's 32 bytes (RFC 8032 5.1.2), 1/Z worked out as
    # Z**(P-2) by square-and-multiply, INVERT_BITS bits a step (pow() would
    # hold the Pico some 60 ms in one go, longer than a press lasts; a bit is
    # up to two products mod P, some 0.4 ms).
    x, y, z, _ = point
    zi = 1
    for i in range(254, -1, -1):  # P - 2 = 2**255 - 21
        zi = zi * zi % P
        if ((P - 2) >> i) & 1:
            zi = zi * z % P
        if i % INVERT_BITS == 0:
            yield None
    x, y = x * zi % P, y * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _run(steps):
    # A generator's answer: its first value that is not None, or its return's.
    try:
        while True:
            out = next(steps)
            if out is not None:
                return out
    except StopIteration as e:
        return e.value
