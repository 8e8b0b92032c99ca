# Reading the journal back (catnip.journal): the check at start-up that
# finishes or undoes what a power cut left half done, and the records of a
# game for a resume or a laptop. Only the journal imports this, when it
# needs it, and the app drops it during a game: recording needs none of it,
# and on the Pico its code would hold heap the game can use.
import json
import os
from binascii import crc32

from catnip.journal import (_CHUNK, _FRAME_MAX, _GONE, _KINDS, _LOG, _NEW, RECORD_MAX,
                            STATUSES, JournalError, _Game, _is_folder, _read_at, _remove_tree,
                            _size, _why)


class Damaged(Exception):
    # A bad record; `torn` when it ends the game and nothing good follows, so
    # cutting `path` back to `keep` bytes drops it.
    def __init__(self, why, torn=False, path=None, keep=0):
        super().__init__(why)
        self.why, self.torn, self.path, self.keep = why, torn, path, keep


def adopt(j, name):
    # One entry of the journal folder, found at start-up.
    path = j._path(name)
    gid, status = _parse(name)
    if status == _GONE:
        _remove_tree(path)
        return
    if gid in j._status:
        j.problems.append("%s is a second copy of game %d; it was left alone" % (path, gid))
        return
    if gid is None or not _is_folder(path):
        j.problems.append("%s is not a catnip game; it was left alone" % path)
        return
    j._status[gid] = status
    if status == "playing":
        check(j, gid)


def check(j, gid):
    # Read an unfinished game through, so it can be resumed: finish or
    # undo a cut merge, drop a torn last record, refuse a damaged middle.
    decoder = Decoder()
    try:
        settle(j, gid)
        for _ in walk(j, gid, decoder):
            pass
    except Damaged as e:
        if not e.torn:
            j.problems.append(str(broken(j, gid, e)))
            return
        if decoder.header is not None:
            _cut(e.path, e.keep, j._file(gid, _NEW))
            j.problems.append(
                "game %d (%s): its last record was cut off by a power loss and was dropped; "
                "it resumes after action %d" % (gid, _title(decoder.header), decoder.actions))
    if decoder.header is None:
        _remove_tree(j._folder(gid, "playing"))
        del j._status[gid]
        j.problems.append("game %d was cut off by a power loss before anything of it was "
                          "saved; there is nothing to resume" % gid)
        return
    if decoder.ended:  # the end was saved but the rename was cut
        j._mark(gid, "finished")
        return
    game = j._open[gid] = _Game(gid, decoder.header)
    game.words, game.actions = decoder.words, decoder.actions
    files = game_files(j, gid)
    game.sealed = _size(j._file(gid, _LOG))
    game.fill = files[-1][2] - game.sealed if files else 0


def settle(j, gid):
    # Undo what a cut left half done: a rewrite, or a merge of the tail
    # into the log (appended but the tail not yet removed, or appended
    # only in part on a filesystem that can tear a write).
    names = os.listdir(j._folder(gid, "playing"))
    if _NEW in names:
        os.remove(j._file(gid, _NEW))  # the rewrite was cut: the original stands
    sealed = _size(j._file(gid, _LOG))
    for name in names:
        if not name.isdigit() or int(name) >= sealed:
            continue
        start, tail = int(name), j._file(gid, name)
        end = start + _size(tail)
        copied = _read_at(j._file(gid, _LOG), start, _FRAME_MAX)
        if end == sealed and _read_at(tail, 0, _FRAME_MAX) == copied:
            os.remove(tail)
        elif start < sealed < end and _read_at(tail, 0, len(copied)) == copied:
            _cut(j._file(gid, _LOG), start, j._file(gid, _NEW))
            sealed = start


def walk(j, gid, decoder):
    # Every entry of a game in order; Damaged at the first bad record.
    files = game_files(j, gid)
    for i in range(len(files)):
        path, start, end = files[i]
        try:
            for kind, payload in _file_frames(path, start, end, i == len(files) - 1):
                entry = decoder.decode(kind, payload)
                if entry is not None:
                    yield entry
        except (ValueError, IndexError, KeyError, TypeError) as e:
            raise Damaged("a record after byte %d makes no sense (%s)" % (start, e))
        except OSError as e:
            raise Damaged("%s cannot be read (%s)" % (path, _why(e)))


def game_files(j, gid):
    # [(path, first byte, end)] of a game's log and tail, in order;
    # Damaged unless the tail starts where the log ends.
    names = os.listdir(j._folder(gid, j._status[gid]))
    files = []
    sealed = 0
    if _LOG in names:
        sealed = _size(j._file(gid, _LOG))
        files.append((j._file(gid, _LOG), 0, sealed))
    tails = [int(n) for n in names if n.isdigit()]
    if len(tails) > 1 or tails and tails[0] != sealed:
        raise Damaged("records are missing after byte %d" % min([sealed] + tails))
    if tails:
        files.append((j._file(gid, str(sealed)), sealed,
                      sealed + _size(j._file(gid, str(sealed)))))
    return files


def read_header(j, gid):
    decoder = Decoder()
    try:
        for _ in walk(j, gid, decoder):
            break  # the header came first
    except (OSError, Damaged):
        pass
    if decoder.header is None:
        raise Damaged("its header cannot be read")
    return decoder.header


def rotate(j):
    # Make room for one more game: pulled games go first, then the
    # oldest ended ones; a game in play never.
    while len(j._status) >= j.max_games:
        victim = None
        for wanted in ("pulled", None):
            for gid in sorted(j._status):
                status = j._status[gid]
                if status == wanted or (wanted is None and status != "playing"):
                    victim = gid
                    break
            if victim is not None:
                break
        if victim is None:
            return
        status = j._status[victim]
        title = _title(safe_header(j, victim))
        gone = j._path("%d%s" % (victim, _GONE))
        try:
            os.rename(j._folder(victim, status), gone)
            del j._status[victim]
            _remove_tree(gone)
        except OSError as e:
            j.problems.append("game %d could not be removed to make room (%s); check the "
                              "flash" % (victim, _why(e)))
            return
        if status != "pulled":
            j.problems.append("game %d (%s, %s) was removed to make room before a laptop "
                              "had pulled it" % (victim, title, status))


def broken(j, gid, damage):
    # Mark a game damaged (kept, never resumed) and say so.
    if j._status.get(gid) not in (None, "broken", "pulled"):
        try:
            j._mark(gid, "broken")
        except JournalError:
            pass
    return JournalError("game %d is damaged (%s): it cannot be resumed, and is kept so a "
                        "laptop can pull what is readable" % (gid, damage.why))


def safe_header(j, gid):
    try:
        return read_header(j, gid)
    except Damaged:
        return None


class Decoder:
    """Turns one game's frames, in order, into entries."""

    def __init__(self):
        self.header = None
        self.words = {}
        self._list = []
        self.actions = 0
        self.ended = False

    def decode(self, kind, payload):
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


def _file_frames(path, start, end, last):
    """Each (kind, payload) of a file that holds the game's bytes start..end,
    read a chunk at a time; Damaged at the first bad frame, torn if it ends
    the game (`last`), is no longer than a frame, and nothing good follows."""
    size = end - start
    buf, offset, at = b"", 0, 0  # buf holds the file from byte `offset`
    while offset + at < size:
        found = _frame_at(buf, at)
        if found is None and len(buf) - at < _FRAME_MAX and offset + len(buf) < size:
            more = _read_at(path, offset + len(buf), _CHUNK)
            if not more:  # shorter than it said
                size = offset + len(buf)
            buf, offset, at = buf[at:] + more, offset + at, 0
            continue
        if found is None:
            rest = buf[at:]
            torn = last and offset + len(buf) >= size and len(rest) <= _FRAME_MAX
            later = 1
            while torn and later < len(rest):
                torn = _frame_at(rest, later) is None
                later += 1
            raise Damaged("the record at byte %d is bad" % (start + offset + at), torn, path,
                           offset + at)
        kind, first, stop = found
        yield kind, buf[first:stop]
        at = stop + 4


def _frame_at(data, pos):
    # (kind, payload start, payload stop) of a whole, intact frame at pos.
    kind = data[pos:pos + 1]
    if kind not in _KINDS:
        return None
    n = shift = 0
    start = pos + 1
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
    if crc32(memoryview(data)[pos:stop]) & 0xFFFFFFFF != int.from_bytes(data[stop:stop + 4],
                                                                        "little"):
        return None
    return kind, start, stop


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


def _parse(name):
    # "7.playing" -> (7, "playing"); "7.gone" -> (7, ".gone"), a game being removed.
    dot = name.find(".")
    number, status = name[:dot], name[dot + 1:]
    if dot < 1 or not number.isdigit():
        return None, None
    if "." + status == _GONE:
        return int(number), _GONE
    return (int(number), status) if status in STATUSES else (None, None)


def _title(header):
    return header.get("game", "unknown game") if isinstance(header, dict) else "unknown game"


def _cut(path, keep, scratch):
    # Keep the first `keep` bytes of a file: copied aside a chunk at a time,
    # then renamed over it, so a cut leaves either the old or the new.
    with open(scratch, "wb") as f:
        for offset in range(0, keep, _CHUNK):
            f.write(_read_at(path, offset, min(_CHUNK, keep - offset)))
    try:
        os.rename(scratch, path)
    except OSError:  # a filesystem that will not rename over a file
        os.remove(path)
        os.rename(scratch, path)
