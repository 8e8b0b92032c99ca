# A game's action log, packed into pages of bytes.
#
# A 7-player Purrfect game runs to about 1,000 actions; kept as a list of
# tuples that is ~36 KB of the Pico's heap in hundreds of small blocks.
# Packed, each action takes 3-6 bytes. The bytes go in pages of about
# PAGE_BYTES, an entry never split between two: one growing buffer would need
# its whole length in one free stretch of the heap at every resize, which a
# long game on the Pico's fragmented heap does not find (measured: a 4 KB
# resize failed with 86 KB free). Reading it back gives the same (player,
# action) tuples a list would, so callers need not care.
#
# Entry: player, item count, then each item as a varint: an int n as
# zigzag(n) << 1, a word as (its index in the word table) << 1 | 1.
#
# A record carries the log in the same packed form (pack()/unpack(): the word
# table and the bytes in base64), so a long game's record stays a few KB on
# the Pico instead of a list per action.
import binascii

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_LIMIT = const(1 << 28)  # |n| below this: a loggable whole number
PAGE_BYTES = const(256)  # a page is closed once it holds this many bytes


class Log:
    __slots__ = ("_pages", "_words", "_index", "_count")

    def __init__(self, entries=()):
        self._pages = [bytearray()]
        self._words = []
        self._index = {}
        self._count = 0
        for entry in entries:
            self.append(entry)

    def append(self, entry):
        """Add one (player, action); its items are ints (|n| < 2**28) or
        strings, and nothing is written unless all are."""
        player, action = entry
        for item in action:
            if type(item) is int:  # the common case first: no call
                if -_LIMIT < item < _LIMIT:
                    continue
            elif isinstance(item, str):
                continue
            if not _number(item):
                raise ValueError("cannot log %r: items are words or whole numbers below 2**28"
                                 % (item,))
        self.add(player, action)

    def add(self, player, action):
        """append() of an action known to be loggable: one the rules admitted
        (catnip.rules.vet.action_tuple lets only such items through)."""
        # Varints inlined up to two bytes (every item of every game so far):
        # a call per item costs more than the rest of an append on the Pico.
        data = self._pages[-1]
        if player <= 0x7F:
            data.append(player)
        else:
            put_varint(data, player)
        n = len(action)
        if n <= 0x7F:
            data.append(n)
        else:
            put_varint(data, n)
        for item in action:
            if isinstance(item, str):
                i = self._index.get(item)
                if i is None:
                    i = self._index[item] = len(self._words)
                    self._words.append(item)
                v = i << 1 | 1
            else:
                v = (item << 1 if item >= 0 else ((-item) << 1) - 1) << 1
            if v <= 0x7F:
                data.append(v)
            elif v <= 0x3FFF:
                data.append(v & 0x7F | 0x80)
                data.append(v >> 7)
            else:
                put_varint(data, v)
        self._count += 1
        if len(data) >= PAGE_BYTES:
            self._pages.append(bytearray())

    def __len__(self):
        return self._count

    def __iter__(self):
        words, left = self._words, self._count
        for data in self._pages:
            pos, end = 0, len(data)
            while pos < end and left:
                player, pos = _read(data, pos)
                n, pos = _read(data, pos)
                items = []
                for _ in range(n):
                    v, pos = _read(data, pos)
                    if v & 1:
                        items.append(words[v >> 1])
                    else:
                        z = v >> 1
                        items.append(-((z + 1) >> 1) if z & 1 else z >> 1)
                left -= 1
                yield (player, tuple(items))
        if left:
            raise IndexError("the log ends %d actions short" % left)

    def __getitem__(self, i):
        return entry_at(self, self._count, i)

    def __eq__(self, other):
        # Two logs of the same actions pack to the same bytes and word table:
        # comparing those allocates nothing, where unpacking a long game's
        # log into tuples would not fit the Pico's heap.
        if isinstance(other, Log):
            return (self._count == other._count and self._pages == other._pages
                    and self._words == other._words)
        if not isinstance(other, (list, tuple)) or len(other) != self._count:
            return False
        for mine, theirs in zip(self, other):
            if mine != theirs:
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def copy(self):
        c = Log()
        c._pages = [bytearray(p) for p in self._pages]
        c._words = list(self._words)
        c._index = dict(self._index)
        c._count = self._count
        return c

    def pack(self):
        """The log as JSON-ready data: {"words", "data" (base64), "count"}."""
        data = binascii.b2a_base64(b"".join(self._pages)).decode().strip()
        return {"words": list(self._words), "data": data, "count": self._count}

    @staticmethod
    def unpack(packed):
        """A Log from pack()'s output; ValueError if it is damaged. Only the
        exact output of pack() is taken, so both interpreters agree on it."""
        if (not isinstance(packed, dict) or len(packed) != 3
                or not all(k in packed for k in ("words", "data", "count"))):
            raise ValueError("the packed log is damaged: it must be a dict of 'words', 'data' and 'count'")
        words, text, count = packed["words"], packed["data"], packed["count"]
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ValueError("the packed log is damaged: its 'words' must be a list of words")
        if type(count) is not int or count < 0:
            raise ValueError("the packed log is damaged: its 'count' must be a number of actions")
        if not isinstance(text, str):
            raise ValueError("the packed log is damaged: its 'data' must be base64 text")
        try:
            data = binascii.a2b_base64(text)
            log = Log()
            log._pages = [bytearray(data)]
            log._words = list(words)
            log._count = count
            # Re-packing what decodes must give the same text and bytes:
            # nothing truncated, nothing trailing, every word used and in
            # the order it first appears.
            again = Log(log)
        except (TypeError, IndexError, ValueError):
            again = None
        if again is None or again.pack() != packed:
            raise ValueError("the packed log is damaged: it does not decode to its %d actions"
                             % count)
        return again

    def nbytes(self):
        """Bytes of packed actions (the word table not included)."""
        return sum(len(p) for p in self._pages)

    def __repr__(self):
        return "Log(%r)" % list(self)


def entry_at(entries, count, i):
    """Entry i (negative: from the end) of a log `count` entries long, read
    from its start: a packed log is walked, not indexed."""
    if i < 0:
        i += count
    if not 0 <= i < count:
        raise IndexError("log index out of range")
    for k, entry in enumerate(entries):
        if k == i:
            return entry
    raise IndexError("the log holds fewer actions than it counts")


def _number(item):
    """An int (not a bool) that is loggable: int subclasses too."""
    return isinstance(item, int) and not isinstance(item, bool) and -_LIMIT < item < _LIMIT


def put_varint(data, n):
    """n >= 0 onto the bytearray, seven bits a byte, low first."""
    while n > 0x7F:
        data.append(n & 0x7F | 0x80)
        n >>= 7
    data.append(n)


def put_word(data, i):
    """An action's word, as its index `i` in the word table (odd: a word)."""
    put_varint(data, i << 1 | 1)


def put_number(data, n):
    """An action's whole number, zigzagged (even: a number)."""
    put_varint(data, (n << 1 if n >= 0 else ((-n) << 1) - 1) << 1)


def _read(data, pos):
    n = shift = 0
    while True:
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7
