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


class Digest:
    """The SHA-256 of a game's canonical bytes, fed a piece at a time:
    Digest(uid, gid, status, header), then entry() for each entry, then
    digest(). The table hashes the header a key at a time: Digest(uid, gid,
    status), then header_steps(header) run through."""

    def __init__(self, uid, gid, status, header=None):
        self._hash = hashlib.sha256(MAGIC)
        out = bytearray()
        for value in (str(uid), gid, str(status)):
            encode(value, out)
        if header is not None:
            encode(header, out)
            out += b"l"  # the entries follow, each as a list
        self._hash.update(out)

    def header_steps(self, header):
        """Hash the header, a dict, as encode() does, a key and its value a
        step: a generator that yields None after each."""
        self._hash.update(b"d")
        for key in sorted(header):
            if type(key) is not str:
                raise ValueError("a record's keys are text, not %r" % (key,))
            out = bytearray()
            encode(key, out)
            encode(header[key], out)
            self._hash.update(out)
            yield None
        self._hash.update(b"el")  # the dict ends; the entries follow, each as a list

    def entry(self, entry):
        out = bytearray()
        encode(entry, out)
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


def fingerprint(public):
    """A table key's short fingerprint, to read aloud and compare: the first
    8 bytes of its SHA-256, hex in groups of four ("1a2b:3c4d:5e6f:7a8b")."""
    h = hashlib.sha256(bytes(public)).digest()[:8]
    text = "".join("%02x" % b for b in h)
    return ":".join(text[i:i + 4] for i in range(0, 16, 4))
