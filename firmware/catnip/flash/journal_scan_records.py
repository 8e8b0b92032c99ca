# The journal's records read back, one at a time (catnip.flash.journal_scan
# walks the files): a frame's kind, number, length and CRC checked in place,
# and a game's frames, in order, decoded into its header, actions, notes and
# end. It imports only the journal's file layout (catnip.flash.journal_files);
# the app drops it with journal_scan during a game.
import json
from binascii import crc32

from catnip.flash.journal_files import KINDS, RECORD_MAX

_OLD_KINDS = b"HWANE"  # records written before they were numbered and chained


class Decoder:
    """Turns one game's frames, in order, into entries."""

    def __init__(self):
        self.header = None
        self.words = {}
        self._list = []
        self.actions = 0
        self.ended = False
        self.records = 0  # records read
        self.chain = 0  # the CRC of the last one
        self._kinds = None  # the game's kinds: numbered (KINDS) or not (_OLD_KINDS)

    def decode(self, kind, number, payload, crc):
        """The entry of one frame (None for a header, a word); `crc` is its
        CRC, which the next numbered one carries on from."""
        entry = self._decode(kind, number, payload)
        self.chain = crc
        return entry

    def _decode(self, kind, number, payload):
        kinds = KINDS if kind in KINDS else _OLD_KINDS
        if kinds != self._kinds:  # an old game resumed by this firmware goes on numbered
            if self._kinds is KINDS:
                raise ValueError("an unnumbered record after numbered ones")
            self._kinds = kinds
        if number is not None and number != self.records & 0xFF:
            raise ValueError("record %d is numbered %d: one is missing, repeated or moved"
                             % (self.records, number))
        self.records += 1
        kind = kind.upper()
        if self.header is None:
            if kind != b"H":
                raise ValueError("the game does not start with its header")
            header = json.loads(payload)
            if not isinstance(header, dict):
                raise ValueError("the header is not a dict")
            self.header = header
            return None
        if self.ended:
            raise ValueError("a record follows the end of the game")
        if kind == b"A":
            entry = ("action",) + self._action(payload)
            self.actions += 1
            return entry
        if kind == b"W":
            word = payload.decode()
            self.words[word] = len(self._list)
            self._list.append(word)
            return None
        if kind == b"N":
            return ("note", json.loads(payload))
        if kind == b"E":
            self.ended = True
            return ("end", json.loads(payload))
        raise ValueError("a second header")

    def _action(self, payload):
        player, pos = _read_varint(payload, 0)
        items = []
        while pos < len(payload):
            v, pos = _read_varint(payload, pos)
            if v & 1:
                items.append(self._list[v >> 1])  # an unknown word: IndexError
            else:
                z = v >> 1
                items.append(-((z + 1) >> 1) if z & 1 else z >> 1)
        if not items or not isinstance(items[0], str):
            raise ValueError("an action without its name")
        return player, tuple(items)


def _frame_at(data, pos, chain):
    # (kind, number, payload start, payload stop) of a whole, intact frame
    # at pos; a numbered one's CRC carries on from `chain`.
    kind = data[pos:pos + 1]
    if kind in KINDS:
        number, start = (data[pos + 1] if pos + 1 < len(data) else -1), pos + 2
    elif kind in _OLD_KINDS:
        number, start, chain = None, pos + 1, 0
    else:
        return None
    n = shift = 0
    while True:
        if start >= len(data) or shift > 14:
            return None
        b = data[start]
        start += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
    stop = start + n
    if n > RECORD_MAX or stop + 4 > len(data):
        return None
    if crc32(memoryview(data)[pos:stop], chain) & 0xFFFFFFFF != \
            int.from_bytes(data[stop:stop + 4], "little"):
        return None
    return kind, number, start, stop


def _read_varint(data, pos):
    n = shift = 0
    while True:
        if pos >= len(data) or shift > 28:
            raise ValueError("a number runs past its record")
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7
