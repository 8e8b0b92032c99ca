# Reading the journal back (catnip.flash.journal): the check at start-up that
# finishes or undoes what a power cut left half done, and the records of a
# game for a resume or a laptop. Only the journal imports this, when it
# needs it, and the app drops it during a game: recording needs none of it,
# and on the Pico its code would hold heap the game can use. How a record
# is framed and what its bytes say is catnip.flash.journal_scan_records.
import os

from catnip.flash.journal_files import (CHUNK, CRUMB, FRAME_MAX, GONE, LOG, LOST, NEW, OPEN,
                                  SHUT, STATUSES, Game, JournalError, is_folder, read_at,
                                  remove_tree, size, sizes, why)
from catnip.flash.journal_scan_records import _OLD_KINDS, Decoder, _frame_at  # noqa: F401 (Decoder: the journal's)

_ENDED = ("finished", "abandoned")  # checked at start-up too: a laptop has not pulled them


class Damaged(Exception):
    # A bad record; `torn` when it ends the game and nothing good follows, so
    # cutting `path` back to `keep` bytes drops it.
    def __init__(self, why, torn=False, path=None, keep=0):
        super().__init__(why)
        self.why, self.torn, self.path, self.keep = why, torn, path, keep


def adopt(j, name):
    # One entry of the journal folder, found at start-up.
    path = j.path(name)
    if name == LOST:
        read_lost(j)
        return
    if name == LOST + NEW:  # its rewrite was cut: the old list stands
        os.remove(path)
        return
    gid, status = _parse(name)
    if status == GONE:
        remove_tree(path)
        return
    if gid in j.status:
        j.problems.append("%s is a second copy of game %d; it was left alone" % (path, gid))
        return
    if gid is None or not is_folder(path):
        j.problems.append("%s is not a catnip game; it was left alone" % path)
        return
    j.status[gid] = status
    if status == "playing":
        check(j, gid)
    elif status in _ENDED:
        check_ended(j, gid)


def check_ended(j, gid):
    # An ended game no laptop has pulled is read through once at start-up,
    # so damage is said now, while the game can still be pulled as it is.
    decoder = Decoder()
    try:
        for _ in walk(j, gid, decoder):
            pass
        if j.status[gid] == "finished" and not decoder.ended:
            raise Damaged("its last records, its end among them, are missing")
    except Damaged as e:
        j.problems.append(str(broken(j, gid, e)))


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
            _cut(e.path, e.keep, j.file(gid, NEW))
            j.problems.append(
                "game %d (%s): its last record was cut off by a power loss and was dropped; "
                "it resumes after action %d" % (gid, _title(decoder.header), decoder.actions))
    if decoder.header is None:
        remove_tree(j.folder(gid, "playing"))
        del j.status[gid]
        j.problems.append("game %d was cut off by a power loss before anything of it was "
                          "saved; there is nothing to resume" % gid)
        return
    if decoder.ended:  # the end was saved but the rename was cut
        j.mark(gid, "finished")
        return
    game = j.opened[gid] = Game(gid, decoder.header)
    game.words, game.actions = decoder.words, decoder.actions
    game.records, game.chain = decoder.records, decoder.chain
    files = game_files(j, gid)
    game.sealed = size(j.file(gid, LOG))
    game.fill = files[-1][2] - game.sealed if files else 0


def settle(j, gid):
    # Undo what a cut left half done: a rewrite, or a merge of the tail
    # into the log (appended but the tail not yet removed, or appended
    # only in part on a filesystem that can tear a write).
    names = os.listdir(j.folder(gid, "playing"))
    if NEW in names:
        os.remove(j.file(gid, NEW))  # the rewrite was cut: the original stands
    sealed = size(j.file(gid, LOG))
    for name in names:
        if not name.isdigit() or int(name) >= sealed:
            continue
        start, tail = int(name), j.file(gid, name)
        end = start + size(tail)
        copied = read_at(j.file(gid, LOG), start, FRAME_MAX)
        if end == sealed and read_at(tail, 0, FRAME_MAX) == copied:
            os.remove(tail)
        elif start < sealed < end and read_at(tail, 0, len(copied)) == copied:
            _cut(j.file(gid, LOG), start, j.file(gid, NEW))
            sealed = start
    for name in os.listdir(j.folder(gid, "playing")):
        path = j.file(gid, name)
        if name.isdigit() and int(name) > sealed and size(path) == 0:
            os.remove(path)  # the next tail of a seal that was cut before its copy


def walk(j, gid, decoder, reads=False):
    # Every entry of a game in order; Damaged at the first bad record. With
    # `reads` (the signer's walk), the header too, as ("header", dict), and
    # None before the folder is listed and OPEN before each chunk read (some
    # 2.5 ms each on the Pico, a piece the signer begins a turn with), SHUT
    # once its file is closed.
    if reads:
        yield None
    files = game_files(j, gid)
    for i in range(len(files)):
        path, start, end = files[i]
        try:
            for frame in _file_frames(path, start, end, i == len(files) - 1, decoder.chain,
                                      reads):
                if frame in (OPEN, SHUT):
                    yield frame  # a chunk read from flash next, its file closed after it
                    continue
                kind, number, payload, crc = frame
                entry = decoder.decode(kind, number, payload, crc)
                if entry is None and reads and decoder.records == 1:
                    entry = ("header", decoder.header)
                if entry is not None:
                    yield entry
        except (ValueError, IndexError, KeyError, TypeError) as e:
            raise Damaged("a record after byte %d makes no sense (%s)" % (start, e))
        except OSError as e:
            raise Damaged("%s cannot be read (%s)" % (path, why(e)))


def game_files(j, gid):
    # [(path, first byte, end)] of a game's log and tail, in order;
    # Damaged unless the tail starts where the log ends (or the log holds
    # the tail's first bytes too: a seal stopped midway). One listing gives
    # the sizes.
    names = sizes(j.folder(gid, j.status[gid]))
    files = []
    sealed = 0
    if LOG in names:
        sealed = names[LOG]
        files.append((j.file(gid, LOG), 0, sealed))
    tails = [int(n) for n in names if n.isdigit()]
    if len(tails) == 1 and tails[0] < sealed < tails[0] + names[str(tails[0])]:
        sealed = tails[0]  # a seal stopped midway: the log holds the tail's start too
        files[0] = (files[0][0], 0, sealed)
    if len(tails) > 1 or tails and tails[0] != sealed:
        raise Damaged("records are missing after byte %d" % min([sealed] + tails))
    if not tails and sealed and read_at(files[0][0], 0, 1) not in _OLD_KINDS:
        raise Damaged("its newest records are missing: no tail follows byte %d" % sealed)
    if tails:
        files.append((j.file(gid, str(sealed)), sealed, sealed + names[str(sealed)]))
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
    while len(j.status) >= j.max_games:
        victim = None
        for wanted in ("pulled", None):
            for gid in sorted(j.status):
                status = j.status[gid]
                if status == wanted or (wanted is None and status != "playing"):
                    victim = gid
                    break
            if victim is not None:
                break
        if victim is None:
            return
        status = j.status[victim]
        title = _title(safe_header(j, victim))
        gone = j.path("%d%s" % (victim, GONE))
        try:
            if status != "pulled":
                note_lost(j, victim, status, title)  # on flash until a laptop hears of it
            os.rename(j.folder(victim, status), gone)
            del j.status[victim]
            remove_tree(gone)
        except OSError as e:
            j.problems.append("game %d could not be removed to make room (%s); check the "
                              "flash" % (victim, why(e)))
            return
        if status != "pulled":
            j.problems.append("game %d (%s, %s) was removed to make room before a laptop "
                              "had pulled it" % (victim, title, status))


def read_lost(j):
    # The games removed to make room that no laptop has heard of yet.
    with open(j.path(LOST)) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0].isdigit():
                j.lost.append((int(parts[0]), parts[1], parts[2]))


def note_lost(j, gid, status, title):
    if gid not in [g for g, _, _ in j.lost]:
        j.lost.append((gid, status, title))
        write_lost(j)


def write_lost(j):
    # Rewritten beside and renamed over, so a cut leaves the old list or the new.
    scratch = j.path(LOST + NEW)
    with open(scratch, "w") as f:
        for gid, status, title in j.lost:
            f.write("%d %s %s\n" % (gid, status, title.replace(" ", "_")))
    try:
        os.rename(scratch, j.path(LOST))
    except OSError:  # a filesystem that will not rename over a file
        os.remove(j.path(LOST))
        os.rename(scratch, j.path(LOST))


def broken(j, gid, damage):
    # Mark a game damaged (kept, never resumed) and say so.
    if j.status.get(gid) not in (None, "broken", "pulled"):
        try:
            j.mark(gid, "broken")
        except JournalError:
            pass
    return JournalError("game %d is damaged (%s): it cannot be resumed, and is kept so a "
                        "laptop can pull what is readable" % (gid, damage.why))


def safe_header(j, gid):
    try:
        return read_header(j, gid)
    except Damaged:
        return None


def _file_frames(path, start, end, last, chain, reads=False):
    """Each (kind, number, payload, CRC) of a file that holds the game's
    bytes start..end, read a chunk at a time, the first record's CRC carried
    on from `chain` (with `reads`, OPEN before each chunk read and SHUT after);
    Damaged at the first bad frame, torn if it ends the game (`last`), is no
    longer than a frame, and nothing good follows."""
    span = end - start
    buf, offset, at = b"", 0, 0  # buf holds the file from byte `offset`
    while offset + at < span:
        found = _frame_at(buf, at, chain)
        if found is None and len(buf) - at < FRAME_MAX and offset + len(buf) < span:
            if reads:
                yield OPEN  # a read from flash next: a file opened, 1.1 KB of heap in one piece
            more = read_at(path, offset + len(buf), CRUMB if reads else CHUNK)
            if reads:
                yield SHUT  # closed; a turn of its own: a record's decoding begins the next
            if not more:  # shorter than it said
                span = offset + len(buf)
            buf, offset, at = buf[at:] + more, offset + at, 0
            continue
        if found is None:
            rest = chain.to_bytes(4, "little") + buf[at:]  # a record's chain: the 4 bytes before
            torn = last and offset + len(buf) >= span and len(rest) <= FRAME_MAX + 4
            later = 5
            while torn and later < len(rest):
                torn = _frame_at(rest, later, int.from_bytes(rest[later - 4:later],
                                                             "little")) is None
                later += 1
            raise Damaged("the record at byte %d is bad" % (start + offset + at), torn, path,
                           offset + at)
        kind, number, first, stop = found
        chain = int.from_bytes(buf[stop:stop + 4], "little")
        yield kind, number, buf[first:stop], chain
        at = stop + 4


def _parse(name):
    # "7.playing" -> (7, "playing"); "7.gone" -> (7, ".gone"), a game being removed.
    dot = name.find(".")
    number, status = name[:dot], name[dot + 1:]
    if dot < 1 or not number.isdigit():
        return None, None
    if "." + status == GONE:
        return int(number), GONE
    return (int(number), status) if status in STATUSES else (None, None)


def _title(header):
    return header.get("game", "unknown game") if isinstance(header, dict) else "unknown game"


def _cut(path, keep, scratch):
    # Keep the first `keep` bytes of a file: copied aside a chunk at a time,
    # then renamed over it, so a cut leaves either the old or the new.
    with open(scratch, "wb") as f:
        for offset in range(0, keep, CHUNK):
            f.write(read_at(path, offset, min(CHUNK, keep - offset)))
    try:
        os.rename(scratch, path)
    except OSError:  # a filesystem that will not rename over a file
        os.remove(path)
        os.rename(scratch, path)
