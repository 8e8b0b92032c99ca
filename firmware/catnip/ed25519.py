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
# As bytes literals, not bytes.fromhex(): frozen into the image, a literal
# stays in flash, where fromhex() would take 704 B of heap at each import.
_H0 = (
    b"\x6a\x09\xe6\x67\xf3\xbc\xc9\x08\xbb\x67\xae\x85\x84\xca\xa7\x3b"
    b"\x3c\x6e\xf3\x72\xfe\x94\xf8\x2b\xa5\x4f\xf5\x3a\x5f\x1d\x36\xf1"
    b"\x51\x0e\x52\x7f\xad\xe6\x82\xd1\x9b\x05\x68\x8c\x2b\x3e\x6c\x1f"
    b"\x1f\x83\xd9\xab\xfb\x41\xbd\x6b\x5b\xe0\xcd\x19\x13\x7e\x21\x79")
_K = (
    b"\x42\x8a\x2f\x98\xd7\x28\xae\x22\x71\x37\x44\x91\x23\xef\x65\xcd"
    b"\xb5\xc0\xfb\xcf\xec\x4d\x3b\x2f\xe9\xb5\xdb\xa5\x81\x89\xdb\xbc"
    b"\x39\x56\xc2\x5b\xf3\x48\xb5\x38\x59\xf1\x11\xf1\xb6\x05\xd0\x19"
    b"\x92\x3f\x82\xa4\xaf\x19\x4f\x9b\xab\x1c\x5e\xd5\xda\x6d\x81\x18"
    b"\xd8\x07\xaa\x98\xa3\x03\x02\x42\x12\x83\x5b\x01\x45\x70\x6f\xbe"
    b"\x24\x31\x85\xbe\x4e\xe4\xb2\x8c\x55\x0c\x7d\xc3\xd5\xff\xb4\xe2"
    b"\x72\xbe\x5d\x74\xf2\x7b\x89\x6f\x80\xde\xb1\xfe\x3b\x16\x96\xb1"
    b"\x9b\xdc\x06\xa7\x25\xc7\x12\x35\xc1\x9b\xf1\x74\xcf\x69\x26\x94"
    b"\xe4\x9b\x69\xc1\x9e\xf1\x4a\xd2\xef\xbe\x47\x86\x38\x4f\x25\xe3"
    b"\x0f\xc1\x9d\xc6\x8b\x8c\xd5\xb5\x24\x0c\xa1\xcc\x77\xac\x9c\x65"
    b"\x2d\xe9\x2c\x6f\x59\x2b\x02\x75\x4a\x74\x84\xaa\x6e\xa6\xe4\x83"
    b"\x5c\xb0\xa9\xdc\xbd\x41\xfb\xd4\x76\xf9\x88\xda\x83\x11\x53\xb5"
    b"\x98\x3e\x51\x52\xee\x66\xdf\xab\xa8\x31\xc6\x6d\x2d\xb4\x32\x10"
    b"\xb0\x03\x27\xc8\x98\xfb\x21\x3f\xbf\x59\x7f\xc7\xbe\xef\x0e\xe4"
    b"\xc6\xe0\x0b\xf3\x3d\xa8\x8f\xc2\xd5\xa7\x91\x47\x93\x0a\xa7\x25"
    b"\x06\xca\x63\x51\xe0\x03\x82\x6f\x14\x29\x29\x67\x0a\x0e\x6e\x70"
    b"\x27\xb7\x0a\x85\x46\xd2\x2f\xfc\x2e\x1b\x21\x38\x5c\x26\xc9\x26"
    b"\x4d\x2c\x6d\xfc\x5a\xc4\x2a\xed\x53\x38\x0d\x13\x9d\x95\xb3\xdf"
    b"\x65\x0a\x73\x54\x8b\xaf\x63\xde\x76\x6a\x0a\xbb\x3c\x77\xb2\xa8"
    b"\x81\xc2\xc9\x2e\x47\xed\xae\xe6\x92\x72\x2c\x85\x14\x82\x35\x3b"
    b"\xa2\xbf\xe8\xa1\x4c\xf1\x03\x64\xa8\x1a\x66\x4b\xbc\x42\x30\x01"
    b"\xc2\x4b\x8b\x70\xd0\xf8\x97\x91\xc7\x6c\x51\xa3\x06\x54\xbe\x30"
    b"\xd1\x92\xe8\x19\xd6\xef\x52\x18\xd6\x99\x06\x24\x55\x65\xa9\x10"
    b"\xf4\x0e\x35\x85\x57\x71\x20\x2a\x10\x6a\xa0\x70\x32\xbb\xd1\xb8"
    b"\x19\xa4\xc1\x16\xb8\xd2\xd0\xc8\x1e\x37\x6c\x08\x51\x41\xab\x53"
    b"\x27\x48\x77\x4c\xdf\x8e\xeb\x99\x34\xb0\xbc\xb5\xe1\x9b\x48\xa8"
    b"\x39\x1c\x0c\xb3\xc5\xc9\x5a\x63\x4e\xd8\xaa\x4a\xe3\x41\x8a\xcb"
    b"\x5b\x9c\xca\x4f\x77\x63\xe3\x73\x68\x2e\x6f\xf3\xd6\xb2\xb8\xa3"
    b"\x74\x8f\x82\xee\x5d\xef\xb2\xfc\x78\xa5\x63\x6f\x43\x17\x2f\x60"
    b"\x84\xc8\x78\x14\xa1\xf0\xab\x72\x8c\xc7\x02\x08\x1a\x64\x39\xec"
    b"\x90\xbe\xff\xfa\x23\x63\x1e\x28\xa4\x50\x6c\xeb\xde\x82\xbd\xe9"
    b"\xbe\xf9\xa3\xf7\xb2\xc6\x79\x15\xc6\x71\x78\xf2\xe3\x72\x53\x2b"
    b"\xca\x27\x3e\xce\xea\x26\x61\x9c\xd1\x86\xb8\xc7\x21\xc0\xc2\x07"
    b"\xea\xda\x7d\xd6\xcd\xe0\xeb\x1e\xf5\x7d\x4f\x7f\xee\x6e\xd1\x78"
    b"\x06\xf0\x67\xaa\x72\x17\x6f\xba\x0a\x63\x7d\xc5\xa2\xc8\x98\xa6"
    b"\x11\x3f\x98\x04\xbe\xf9\x0d\xae\x1b\x71\x0b\x35\x13\x1c\x47\x1b"
    b"\x28\xdb\x77\xf5\x23\x04\x7d\x84\x32\xca\xab\x7b\x40\xc7\x24\x93"
    b"\x3c\x9e\xbe\x0a\x15\xc9\xbe\xbc\x43\x1d\x67\xc4\x9c\x10\x0d\x4c"
    b"\x4c\xc5\xd4\xbe\xcb\x3e\x42\xb6\x59\x7f\x29\x9c\xfc\x65\x7e\x2a"
    b"\x5f\xcb\x6f\xab\x3a\xd6\xfa\xec\x6c\x44\x19\x8c\x4a\x47\x58\x17")


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
