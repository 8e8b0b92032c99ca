# The journal's files on flash (catnip.flash.journal writes them, catnip.flash.journal_scan
# reads them back): their names, the record kinds, what the journal knows of an
# unfinished game, and the few file operations both use. Imports nothing of
# catnip, so neither of the two imports the other for them.
import json
import os
import sys

if sys.platform == "rp2":
    from time import ticks_diff, ticks_ms
else:
    # A laptop's folder, or a test's: no flash erase to time, and a clock
    # that stands still does the same work on every run (a busy machine
    # would make some commits look slow, and the power-cut tests count the
    # file operations).
    def ticks_ms():
        return 0

    def ticks_diff(a, b):
        return a - b

RECORD_MAX = 2048  # largest JSON payload (a header, a note, a result)
FRAME_MAX = RECORD_MAX + 8  # no frame is longer: a torn one is shorter
CHUNK = 512  # bytes read at a time
CRUMB = 256  # the signer's reads: the heap a game leaves has few pieces of CHUNK
OPEN, SHUT = "open", "shut"  # what the signer's walk yields before a read and after it
STATUSES = ("playing", "finished", "abandoned", "pulled", "broken")
# A record is one frame: kind (1 byte), its number in the game (1 byte, mod
# 256), payload length (varint), payload, CRC-32 of all that (4 bytes,
# little-endian) carried on from the record before's CRC (0 for the header),
# so a record missing, repeated or moved fails its check. Kinds:
#   h header (JSON)  w word (UTF-8)  a action (varints)  n note (JSON)  e end, the result (JSON)
# Journals written before records were numbered (the capitals: no number, a
# CRC of the record alone) are still read. A numbered game always has a tail
# (a seal makes the next before it moves the old): a missing one is seen too.
# An action is the player, then each item: an int n as zigzag(n) << 1, a word
# as (its index among the game's W frames) << 1 | 1: ("offer", 18, 20) is four
# payload bytes, ten on flash, so a 1,400-action game is near 16 KB; the
# length and the CRC make a torn or damaged record certain to be noticed.
KINDS = b"hwane"  # numbered, chained records; b"HWANE": the older, unchained ones
LOG = "log"
LOST = "lost"  # games removed to make room before a laptop heard of it
NEW = "new"  # a file being rewritten without its torn end
GONE = ".gone"  # a game being rotated out: removed at the next start if cut
# littlefs appends each commit to its folder's metadata block (4 KB on the
# Pico, a commit at least 256 bytes) and, when one does not fit, compacts
# the folder into the other block of its pair: an erase, 45 ms on the Pico,
# plus the copy. A record that falls on it keeps its press waiting that long.
COMPACT_AFTER = 4  # commits since the folder's last compaction: it is made to compact now
COMPACT_MOST = 16  # commits that change nothing, at most: 16 fill any 4 KB block
ERASE_MS = 30  # a commit this slow was a compaction (a commit alone: some 5 ms)


class JournalError(Exception):
    """Something the journal cannot do; the message says what and what to do."""


class Game:
    """What the journal knows of an unfinished game: enough to append."""

    def __init__(self, gid, header):
        self.gid = gid
        self.header = header
        self.words = {}  # word -> index, in the order of its W frames
        self.actions = 0
        self.ended = False
        self.sealed = 0  # bytes in the log file; the tail starts there
        self.fill = 0  # bytes in the tail
        self.logged = 0  # of them, already at the end of the log (a seal stopped midway)
        self.records = 0  # records written: the next one's number
        self.chain = 0  # the last record's CRC, which the next one's carries on
        self.commits = COMPACT_AFTER  # to its folder since littlefs compacted it (unknown: many)


_HELD = []  # (owner, path, file): the one journal file kept open, if any


def held(owner, path):
    """The file at `path`, open to append, kept open for `owner` (a Journal)
    until another file is wanted or close_files() closes it."""
    if _HELD and _HELD[0][0] is owner and _HELD[0][1] == path:
        return _HELD[0][2]
    close_files()
    f = open(path, "ab")
    _HELD.append((owner, path, f))
    return f


def close_files(owner=None):
    """Close the journal file held open (only if `owner` holds it, given one).
    A flash error on closing is the next power-up's to find: the record
    before was committed by its flush."""
    while _HELD and (owner is None or _HELD[0][0] is owner):
        f = _HELD.pop()[2]
        try:
            f.close()
        except OSError:
            pass


def block_size(folder):
    """The flash block of the filesystem `folder` is on (4 KB on the Pico)."""
    try:
        return os.statvfs(folder)[0] or 4096
    except (OSError, AttributeError):
        return 4096


def block_end(size, block):
    """Where, in a littlefs file of `size` bytes, the flash block it ends in
    ends: an append past it erases two blocks (a copy of this one, and the
    next). Block i > 0 starts with ctz(i) + 1 pointers of 4 bytes."""
    end, i = block, 0
    while end <= size:
        i += 1
        pointers, k = 1, i
        while not k & 1:
            k >>= 1
            pointers += 1
        end += block - 4 * pointers
    return end


def is_folder(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def ensure_folder(path):
    if not is_folder(path):
        os.mkdir(path)


def remove_tree(folder):
    for name in os.listdir(folder):
        os.remove(folder + "/" + name)
    os.rmdir(folder)


def size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def sizes(folder):
    """{name: bytes} of what `folder` holds, from one listing: on littlefs
    each os.stat() looks the path up again (4.4 ms on the Pico, a listing
    2.6 ms), and MicroPython's ilistdir() gives every file's size with it."""
    listing = getattr(os, "ilistdir", None)
    if listing is None:  # CPython
        return {name: size(folder + "/" + name) for name in os.listdir(folder)}
    out = {}
    for entry in listing(folder):  # (name, type, inode, size); no size on the unix port
        out[entry[0]] = entry[3] if len(entry) > 3 else size(folder + "/" + entry[0])
    return out


def read_at(path, offset, n):
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(n)


def read_into(path, buf, n):
    """The first n bytes of the file at `path`, read into `buf` when they
    fit (a view of it, valid until the next read), else as read_at."""
    if n > len(buf):
        return read_at(path, 0, n)
    view = memoryview(buf)
    with open(path, "rb") as f:
        got = f.readinto(view[:n])
    return view[:got or 0]


def why(e):
    return "error %s" % (e.args[0] if e.args else e)


def to_json(data, what):
    if not plain(data, 0):
        raise JournalError("cannot record the %s: it is not JSON-ready (dicts with string keys, "
                           "lists, strings, numbers, true/false and null only)" % what)
    return json.dumps(data, separators=(",", ":")).encode()


def plain(x, depth):
    # JSON that both interpreters write and read back alike (MicroPython's
    # json.dumps would write a set or a NaN as something no reader takes).
    if x is None or isinstance(x, (bool, int, str)):
        return True
    if isinstance(x, float):
        return x == x and x - x == 0  # neither NaN nor infinite
    if depth > 16:
        return False
    if isinstance(x, (list, tuple)):
        for v in x:
            if not plain(v, depth + 1):
                return False
        return True
    if isinstance(x, dict):
        for k in x:
            if not isinstance(k, str) or not plain(x[k], depth + 1):
                return False
        return True
    return False


def compact(path, most, between=None):
    """Make littlefs compact the folder of `path` (a file in it) now, while
    nobody waits: commits that change nothing (the file opened to append and
    closed: its time stamp) until one was a compaction (ERASE_MS), at most
    `most`. Each opens the file afresh: littlefs compacts a second time on
    the next commit of a file it opened when the folder's block was full.
    Before each, `between()`, which says True to stop (someone pressed: the
    next wait carries on). False if stopped."""
    for _ in range(most):
        if between is not None and between():
            return False
        t = ticks_ms()
        open(path, "ab").close()
        if ticks_diff(ticks_ms(), t) >= ERASE_MS:
            return True
    return True


def last_crc(frames, otherwise):
    """The CRC that ends these frames, or `otherwise` when there are none."""
    return int.from_bytes(frames[-4:], "little") if frames else otherwise
