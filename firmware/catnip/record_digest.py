# What a table's signature covers of a finished game (docs/records.md,
# "Signatures"): one canonical byte string made of the table's id, the
# game's number, its status, its journal header (game, config, seed, salt,
# commitment, seats, names) and every journal entry in order (each action,
# each note, the dated "clock" notes among them, and the end with the
# result). Its SHA-256 is what Ed25519 signs, so the table hashes a long
# record with the Pico's own hashlib, an entry at a time.
#
# The encoding, the same from the table's journal (tuples, float32) and the
# laptop's JSON (lists, doubles):
#   None n, True t, False f, an int i<decimal>;, a float x<%.6g>; (six
#   significant digits: what both ends agree on), text s<UTF-8 length>:<bytes>,
#   a list or tuple l<items>e, a dict d<key value ...>e with its keys (text)
#   in sorted order.
#
# PURE: imports nothing of catnip.
import hashlib

MAGIC = b"catnip signed game 1\n"


PIECE = 64  # bytes encoded between two of steps()'s yields (a ms or two on the Pico)


class Digest:
    """The SHA-256 of a game's canonical bytes, fed a piece at a time:
    Digest(uid, gid, status, header), then entry() for each entry, then
    digest(). The table feeds the header and each entry through steps()
    instead, a few values at a time: Digest(uid, gid, status), steps(header,
    b"l"), steps(entry) for each entry, digest()."""

    def __init__(self, uid, gid, status, header=None):
        self._hash = hashlib.sha256(MAGIC)
        out = bytearray()
        for value in (str(uid), gid, str(status)):
            encode(value, out)
        if header is not None:
            encode(header, out)
            out += b"l"  # the entries follow, each as a list
        self._hash.update(out)

    def entry(self, entry):
        out = bytearray()
        encode(entry, out)
        self._hash.update(out)

    def steps(self, value, more=b""):
        """Hash `value` as encode() does, then the bytes `more`: a generator
        that yields None each time some PIECE bytes were hashed."""
        out = bytearray()
        yield from _pieces(value, out, self._hash)
        out += more
        self._hash.update(out)

    def digest(self):
        self._hash.update(b"e")
        return self._hash.digest()


def digest(uid, gid, status, header, entries):
    """The whole record's digest at once (the laptop, tests)."""
    d = Digest(uid, gid, status, header)
    for e in entries:
        d.entry(e)
    return d.digest()


def encode(value, out):
    """Add `value`'s canonical bytes to the bytearray `out`."""
    kind = type(value)  # bool apart from int: True is not 1 here
    if kind is str:
        data = value.encode()
        out += ("s%d:" % len(data)).encode()
        out += data
    elif kind is int:
        out += ("i%d;" % value).encode()
    elif kind is list or kind is tuple:
        out += b"l"
        for item in value:
            encode(item, out)
        out += b"e"
    elif kind is dict:
        out += b"d"
        for key in sorted(value):
            if type(key) is not str:
                raise ValueError("a record's keys are text, not %r" % (key,))
            encode(key, out)
            encode(value[key], out)
        out += b"e"
    elif value is None:
        out += b"n"
    elif value is True:
        out += b"t"
    elif value is False:
        out += b"f"
    elif kind is float:
        out += ("x%.6g;" % value).encode()
    else:
        raise ValueError("a record holds no %s" % kind.__name__)


def _pieces(value, out, hashed):
    # encode(), a value at a time: once `out` holds PIECE bytes, they are
    # hashed, `out` emptied and a step ends.
    kind = type(value)
    if kind is list or kind is tuple:
        out += b"l"
        for item in value:
            yield from _pieces(item, out, hashed)
        out += b"e"
    elif kind is dict:
        out += b"d"
        for key in sorted(value):
            if type(key) is not str:
                raise ValueError("a record's keys are text, not %r" % (key,))
            encode(key, out)
            yield from _pieces(value[key], out, hashed)
        out += b"e"
    else:
        encode(value, out)
        if len(out) >= PIECE:
            hashed.update(out)
            out[:] = b""
            yield None


def fingerprint(public):
    """A table key's short fingerprint, to read aloud and compare: the first
    8 bytes of its SHA-256, hex in groups of four ("1a2b:3c4d:5e6f:7a8b")."""
    h = hashlib.sha256(bytes(public)).digest()[:8]
    text = "".join("%02x" % b for b in h)
    return ":".join(text[i:i + 4] for i in range(0, 16, 4))
