# The flash journal: every game the table plays, saved as it is played.
#
# A game is its log (design principle 2), so saving the header (game, config,
# seed) and every accepted action is enough to rebuild the table after a power
# cut. Each call that records something returns only once the record is
# committed to flash, so whatever a screen acknowledged survives.
#
# On flash (littlefs on the Pico, any folder on a laptop):
#
#   journal/7.playing/log     game 7, still in play: its sealed records
#   journal/7.playing/4480    and the newest ones, which follow byte 4480
#   journal/6.finished/...    ended; stays until a laptop pulls it
#   journal/5.pulled/...      a laptop has stored it; rotated out first
#
# The folder's suffix is the game's status, changed by one atomic rename.
# Records are appended to the small tail file; littlefs keeps a file under
# 512 bytes inline in its folder's metadata, so an append costs a metadata
# commit and seldom an erase. When the tail would pass PAGE_BYTES it is
# appended to `log` in one go and a new tail starts, named by its offset, so
# a cut between those two steps is recognised and undone. (Appending each
# record to one big file makes littlefs copy its last block to a freshly
# erased one on every flush: an erase, ~45 ms on the Pico, per action. And
# keeping every page as its own file slows each commit as the folder grows.)
#
# A record is one frame: kind (1 byte), payload length (varint), payload,
# CRC-32 of all that (4 bytes, little-endian). Kinds:
#   H header (JSON)   W word (UTF-8)   A action (varints)   N note (JSON)
#   E end, the result (JSON)
# An action is the player, then each item: an int n as zigzag(n) << 1, a word
# as (its index among the game's W frames) << 1 | 1, so ("offer", 18, 20) is
# four payload bytes and ten on flash. Compact frames keep a 1,400-action game
# near 16 KB and its check at start-up short; the length and the CRC make a
# torn or damaged record certain to be noticed.
import json
import os
from binascii import crc32

from catnip.rules.log import put_number, put_varint, put_word  # the log's own encoding

PAGE_BYTES = 448  # the tail stays inline in littlefs's metadata (< 512)
RECORD_MAX = 2048  # largest JSON payload (a header, a note, a result)
_FRAME_MAX = RECORD_MAX + 8  # no frame is longer: a torn one is shorter
_CHUNK = 512  # bytes read at a time
_NUMBER_MAX = 1 << 28
STATUSES = ("playing", "finished", "abandoned", "pulled", "broken")
_KINDS = b"HWANE"
_LOG = "log"
_NEW = "new"  # a file being rewritten without its torn end
_GONE = ".gone"  # a game being rotated out: removed at the next start if cut


class JournalError(Exception):
    """Something the journal cannot do; the message says what and what to do."""


class _Damaged(Exception):
    # A bad record; `torn` when it ends the game and nothing good follows, so
    # cutting `path` back to `keep` bytes drops it.
    def __init__(self, why, torn=False, path=None, keep=0):
        super().__init__(why)
        self.why, self.torn, self.path, self.keep = why, torn, path, keep


class _Game:
    """What the journal knows of an unfinished game: enough to append."""

    def __init__(self, gid, header):
        self.gid = gid
        self.header = header
        self.words = {}  # word -> index, in the order of its W frames
        self.actions = 0
        self.ended = False
        self.sealed = 0  # bytes in the log file; the tail starts there
        self.fill = 0  # bytes in the tail


class Journal:
    def __init__(self, root="journal", max_games=12, max_game_bytes=48 * 1024):
        self.root = root.rstrip("/") or "/"
        self.max_games = max_games
        self.max_game_bytes = max_game_bytes
        self.problems = []
        self._status = {}  # gid -> status, for every game folder of ours
        self._open = {}  # gid -> _Game, for intact unfinished games
        self._live = None  # the _Game being recorded
        self._stopped = None  # why recording stopped after a flash error
        try:
            _ensure_folder(self.root)
        except OSError as e:
            self.problems.append("the journal folder %s cannot be used (%s): no game will be "
                                 "saved; check the flash" % (self.root, _why(e)))
            return
        for name in sorted(os.listdir(self.root)):
            try:
                self._adopt(name)
            except (OSError, ValueError, _Damaged) as e:
                self.problems.append("%s could not be read (%s); it was left alone"
                                     % (self._path(name), _why(e)))

    # ---- what the app records --------------------------------------------

    def begin(self, header):
        """Start recording a new game; returns its id. Any other unfinished
        game is marked abandoned, and old games are rotated out first."""
        if not isinstance(header, dict):
            raise JournalError("a game's header is a dict (game, config, seed)")
        if "log" in header:
            raise JournalError("the header holds the start of the game only: leave out 'log' "
                               "(the journal records each action as it happens)")
        frame = _frame(b"H", _json(header, "header"))
        if not _is_folder(self.root):
            raise JournalError("the journal folder %s cannot be used: no game can be saved; "
                               "check the flash" % self.root)
        gid = 1  # numbered before rotation, so a number is never used twice
        for known in self._status:
            gid = max(gid, known + 1)
        self._rotate()
        for other in sorted(self._open):
            self.abandon(other)
        try:
            os.mkdir(self._folder(gid, "playing"))
        except OSError as e:
            raise JournalError("could not start a journal for the game (%s): check the flash"
                               % _why(e))
        self._status[gid] = "playing"
        self._open[gid] = self._live = _Game(gid, header)
        self._stopped = None
        self._append(frame)
        return gid

    def resume(self, gid):
        """Carry on recording an unfinished game found on flash."""
        if gid not in self._open:
            raise JournalError("game %s cannot be resumed: %s" % (gid, self._why_not(gid)))
        self._live = self._open[gid]
        self._stopped = None

    def action(self, player, action):
        """Record one accepted action; it is on flash when this returns."""
        game = self._recording()
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < 128:
            raise JournalError("cannot record player %r: players are numbers 0-127" % (player,))
        if not isinstance(action, (tuple, list)) or not action or not isinstance(action[0], str):
            raise JournalError("cannot record %r: an action is a tuple that starts with its "
                               "name, e.g. ('play', 3)" % (action,))
        words = {}
        frames = bytearray()
        payload = bytearray()
        put_varint(payload, player)
        for item in action:
            if isinstance(item, str):
                i = game.words.get(item, words.get(item))
                if i is None:
                    i = words[item] = len(game.words) + len(words)
                    frames += _frame(b"W", item.encode())
                put_word(payload, i)
            elif isinstance(item, int) and not isinstance(item, bool) and \
                    -_NUMBER_MAX < item < _NUMBER_MAX:
                put_number(payload, item)
            else:
                raise JournalError("cannot record %r: action items are words or whole numbers "
                                   "below 2**28" % (item,))
        frames += _frame(b"A", payload)
        self._append(frames)
        game.words.update(words)
        game.actions += 1

    def note(self, data):
        """Record a JSON-ready dict (a tray proposal and the answer given)."""
        self._recording()
        if not isinstance(data, dict):
            raise JournalError("a note is a dict, e.g. {'tray': 'placed', 'answer': 3}")
        self._append(_frame(b"N", _json(data, "note")))

    def finish(self, result):
        """The game ended: record its result; it stays until a laptop pulls it."""
        game = self._recording()
        self._append(_frame(b"E", _json(result, "result")), bounded=False)
        game.ended = True
        self._mark(game.gid, "finished")

    def abandon(self, gid=None):
        """The table stopped this game (the one in play by default) without
        an end; it is kept as "abandoned"."""
        if gid is None:
            if self._live is None:
                raise JournalError("no game is being recorded, so there is none to abandon")
            gid = self._live.gid
        if self._status.get(gid) != "playing":
            raise JournalError("game %s is not in play (%s), so it cannot be abandoned"
                               % (gid, self._status.get(gid, "no such game")))
        self._mark(gid, "abandoned")

    def release(self, gid):
        """A laptop has stored this game: mark it pulled, first to rotate out."""
        self._known(gid)
        status = self._status[gid]
        if status == "playing":
            raise JournalError("game %s is still in play: pull it once it has ended" % gid)
        if status != "pulled":
            self._mark(gid, "pulled")

    # ---- what the app and the laptop read --------------------------------

    def resumable(self):
        """(gid, header, actions) of the newest intact unfinished game, or None."""
        if not self._open:
            return None
        game = self._open[max(self._open)]
        return game.gid, game.header, game.actions

    def games(self):
        """[(gid, status)], oldest first."""
        return [(gid, self._status[gid]) for gid in sorted(self._status)]

    def header(self, gid):
        if gid in self._open:
            return self._open[gid].header
        self._known(gid)
        try:
            return self._read_header(gid)
        except _Damaged as e:
            raise self._broken(gid, e)

    def entries(self, gid):
        """Every record after the header, read from flash a little at a time
        (no file stays open between entries): ("action", player, action),
        ("note", dict) or ("end", result)."""
        self._known(gid)
        try:
            for entry in self._walk(gid, _Decoder()):
                yield entry
        except _Damaged as e:
            raise self._broken(gid, e)

    def bytes_used(self):
        """Bytes of all the games' records on flash."""
        total = 0
        for gid in self._status:
            total += self._game_bytes(gid)
        return total

    # ---- the folder ---------------------------------------------------------

    def _adopt(self, name):
        # One entry of the journal folder, found at start-up.
        path = self._path(name)
        gid, status = _parse(name)
        if status == _GONE:
            _remove_tree(path)
            return
        if gid in self._status:
            self.problems.append("%s is a second copy of game %d; it was left alone"
                                 % (path, gid))
            return
        if gid is None or not _is_folder(path):
            self.problems.append("%s is not a catnip game; it was left alone" % path)
            return
        self._status[gid] = status
        if status == "playing":
            self._check(gid)

    def _check(self, gid):
        # Read an unfinished game through, so it can be resumed: finish or
        # undo a cut merge, drop a torn last record, refuse a damaged middle.
        decoder = _Decoder()
        try:
            self._settle(gid)
            for _ in self._walk(gid, decoder):
                pass
        except _Damaged as e:
            if not e.torn:
                self.problems.append(str(self._broken(gid, e)))
                return
            if decoder.header is not None:
                _cut(e.path, e.keep, self._file(gid, _NEW))
                self.problems.append(
                    "game %d (%s): its last record was cut off by a power loss and was dropped; "
                    "it resumes after action %d" % (gid, _title(decoder.header), decoder.actions))
        if decoder.header is None:
            _remove_tree(self._folder(gid, "playing"))
            del self._status[gid]
            self.problems.append("game %d was cut off by a power loss before anything of it was "
                                 "saved; there is nothing to resume" % gid)
            return
        if decoder.ended:  # the end was saved but the rename was cut
            self._mark(gid, "finished")
            return
        game = self._open[gid] = _Game(gid, decoder.header)
        game.words, game.actions = decoder.words, decoder.actions
        files = self._files(gid)
        game.sealed = _size(self._file(gid, _LOG))
        game.fill = files[-1][2] - game.sealed if files else 0

    def _settle(self, gid):
        # Undo what a cut left half done: a rewrite, or a merge of the tail
        # into the log (appended but the tail not yet removed, or appended
        # only in part on a filesystem that can tear a write).
        names = os.listdir(self._folder(gid, "playing"))
        if _NEW in names:
            os.remove(self._file(gid, _NEW))  # the rewrite was cut: the original stands
        sealed = _size(self._file(gid, _LOG))
        for name in names:
            if not name.isdigit() or int(name) >= sealed:
                continue
            start, tail = int(name), self._file(gid, name)
            end = start + _size(tail)
            copied = _read_at(self._file(gid, _LOG), start, _FRAME_MAX)
            if end == sealed and _read_at(tail, 0, _FRAME_MAX) == copied:
                os.remove(tail)
            elif start < sealed < end and _read_at(tail, 0, len(copied)) == copied:
                _cut(self._file(gid, _LOG), start, self._file(gid, _NEW))
                sealed = start

    def _walk(self, gid, decoder):
        # Every entry of a game in order; _Damaged at the first bad record.
        files = self._files(gid)
        for i in range(len(files)):
            path, start, end = files[i]
            try:
                for kind, payload in _file_frames(path, start, end, i == len(files) - 1):
                    entry = decoder.decode(kind, payload)
                    if entry is not None:
                        yield entry
            except (ValueError, IndexError, KeyError, TypeError) as e:
                raise _Damaged("a record after byte %d makes no sense (%s)" % (start, e))
            except OSError as e:
                raise _Damaged("%s cannot be read (%s)" % (path, _why(e)))

    def _files(self, gid):
        # [(path, first byte, end)] of a game's log and tail, in order;
        # _Damaged unless the tail starts where the log ends.
        names = os.listdir(self._folder(gid, self._status[gid]))
        files = []
        sealed = 0
        if _LOG in names:
            sealed = _size(self._file(gid, _LOG))
            files.append((self._file(gid, _LOG), 0, sealed))
        tails = [int(n) for n in names if n.isdigit()]
        if len(tails) > 1 or tails and tails[0] != sealed:
            raise _Damaged("records are missing after byte %d" % min([sealed] + tails))
        if tails:
            files.append((self._file(gid, str(sealed)), sealed,
                          sealed + _size(self._file(gid, str(sealed)))))
        return files

    def _read_header(self, gid):
        decoder = _Decoder()
        try:
            for _ in self._walk(gid, decoder):
                break  # the header came first
        except (OSError, _Damaged):
            pass
        if decoder.header is None:
            raise _Damaged("its header cannot be read")
        return decoder.header

    def _game_bytes(self, gid):
        folder = self._folder(gid, self._status[gid])
        total = 0
        for name in os.listdir(folder):
            total += _size(folder + "/" + name)
        return total

    def _rotate(self):
        # Make room for one more game: pulled games go first, then the
        # oldest ended ones; a game in play never.
        while len(self._status) >= self.max_games:
            victim = None
            for wanted in ("pulled", None):
                for gid in sorted(self._status):
                    status = self._status[gid]
                    if status == wanted or (wanted is None and status != "playing"):
                        victim = gid
                        break
                if victim is not None:
                    break
            if victim is None:
                return
            status = self._status[victim]
            title = _title(self._safe_header(victim))
            gone = self._path("%d%s" % (victim, _GONE))
            try:
                os.rename(self._folder(victim, status), gone)
                del self._status[victim]
                _remove_tree(gone)
            except OSError as e:
                self.problems.append("game %d could not be removed to make room (%s); check the "
                                     "flash" % (victim, _why(e)))
                return
            if status != "pulled":
                self.problems.append("game %d (%s, %s) was removed to make room before a laptop "
                                     "had pulled it" % (victim, title, status))

    # ---- writing -------------------------------------------------------------

    def _recording(self):
        if self._stopped is not None:
            raise JournalError(self._stopped)
        if self._live is None:
            raise JournalError("no game is being recorded: begin() or resume() one first")
        return self._live

    def _append(self, frames, bounded=True):
        game = self._live
        n = len(frames)
        if bounded and game.sealed + game.fill + n > self.max_game_bytes:
            raise JournalError("game %d has filled the %d bytes the journal keeps for a game; "
                               "end or abandon it" % (game.gid, self.max_game_bytes))
        # Files are opened for each record and closed at once: closing
        # commits (on littlefs as flush() does), no file buffer stays on the
        # heap between records, and no open file outlives the journal.
        try:
            if game.fill and game.fill + n > PAGE_BYTES:
                self._seal(game)
            with open(self._file(game.gid, str(game.sealed)), "ab") as f:
                f.write(frames)
                f.flush()
        except OSError as e:
            self._stopped = ("the journal stopped recording game %d: the flash refused a write "
                             "(%s); end or abandon the game" % (game.gid, _why(e)))
            raise JournalError(self._stopped)
        game.fill += n

    def _seal(self, game):
        # Move the full tail onto the end of the log; the next tail is named
        # by where it starts, so a cut in between is recognised (_settle).
        tail = self._file(game.gid, str(game.sealed))
        data = _read_at(tail, 0, game.fill)
        with open(self._file(game.gid, _LOG), "ab") as f:
            f.write(data)
            f.flush()
        os.remove(tail)
        game.sealed += game.fill
        game.fill = 0

    def _mark(self, gid, status):
        try:
            os.rename(self._folder(gid, self._status[gid]), self._folder(gid, status))
        except OSError as e:
            raise JournalError("could not mark game %d %s on flash (%s); check the flash"
                               % (gid, status, _why(e)))
        self._status[gid] = status
        self._open.pop(gid, None)
        if self._live is not None and self._live.gid == gid:
            self._live = None

    # ---- small helpers -----------------------------------------------------

    def _broken(self, gid, damage):
        # Mark a game damaged (kept, never resumed) and say so.
        if self._status.get(gid) not in (None, "broken", "pulled"):
            try:
                self._mark(gid, "broken")
            except JournalError:
                pass
        return JournalError("game %d is damaged (%s): it cannot be resumed, and is kept so a "
                            "laptop can pull what is readable" % (gid, damage.why))

    def _why_not(self, gid):
        status = self._status.get(gid)
        return "there is no such game" if status is None else "it is %s" % status

    def _safe_header(self, gid):
        try:
            return self._read_header(gid)
        except _Damaged:
            return None

    def _path(self, name):
        return (self.root if self.root != "/" else "") + "/" + name

    def _known(self, gid):
        if gid not in self._status:
            raise JournalError("there is no game %s in the journal" % (gid,))

    def _folder(self, gid, status):
        return self._path("%d.%s" % (gid, status))

    def _file(self, gid, name):
        return "%s/%s" % (self._folder(gid, self._status[gid]), name)


class _Decoder:
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


def _frame(kind, payload):
    if len(payload) > RECORD_MAX:
        raise JournalError("a record of %d bytes is more than the journal takes (%d); "
                           "keep notes short" % (len(payload), RECORD_MAX))
    frame = bytearray(kind)
    put_varint(frame, len(payload))
    frame += payload
    frame += (crc32(frame) & 0xFFFFFFFF).to_bytes(4, "little")
    return frame


def _file_frames(path, start, end, last):
    """Each (kind, payload) of a file that holds the game's bytes start..end,
    read a chunk at a time; _Damaged at the first bad frame, torn if it ends
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
            raise _Damaged("the record at byte %d is bad" % (start + offset + at), torn, path,
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


def _json(data, what):
    if not _plain(data, 0):
        raise JournalError("cannot record the %s: it is not JSON-ready (dicts with string keys, "
                           "lists, strings, numbers, true/false and null only)" % what)
    return json.dumps(data, separators=(",", ":")).encode()


def _plain(x, depth):
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
            if not _plain(v, depth + 1):
                return False
        return True
    if isinstance(x, dict):
        for k in x:
            if not isinstance(k, str) or not _plain(x[k], depth + 1):
                return False
        return True
    return False


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


def _is_folder(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def _ensure_folder(path):
    if not _is_folder(path):
        os.mkdir(path)


def _remove_tree(folder):
    for name in os.listdir(folder):
        os.remove(folder + "/" + name)
    os.rmdir(folder)


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _read_at(path, offset, n):
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(n)


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


def _why(e):
    return "error %s" % (e.args[0] if e.args else e)
