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
# The tail file stays open between records, flushed after each (on littlefs
# lfs_file_sync, the commit a close makes): an open takes 1,150 bytes in one
# piece, which a long game's heap seldom has. One journal file at most is
# open; whoever unmounts the flash calls close_files() first. littlefs keeps
# a file under 512 bytes inline in its folder's metadata, so an append costs
# a metadata commit, and an erase only when the folder's metadata block is
# full and compacted: ready() makes that happen while nobody waits, as it
# seals a tail nearly PAGE_BYTES long (appended to `log` in one go; a new
# tail starts, named by its offset, so a cut between is recognised and
# undone). Appending each record to one big file would copy its last block
# to a freshly erased one on every flush; every page its own file would slow
# each commit as the folder grows. An append that carries the log into its
# next flash block erases two, so such a seal first fills the log's block
# with the tail's first bytes, on its own: until the rest follows, the log
# holds them as well (readers take them from the tail).
# The records' format is told where their kinds are (catnip.flash.journal_files).
import os
from binascii import crc32

from catnip.flash.journal_files import (CHUNK, COMPACT_AFTER, COMPACT_MOST, ERASE_MS,  # noqa
    FRAME_MAX, GONE, KINDS, LOG, LOST, NEW, RECORD_MAX, STATUSES, Game, JournalError,
    block_end, block_size, close_files, compact, ensure_folder, held, is_folder,
    last_crc as _last_crc, read_into, remove_tree, size, ticks_diff, ticks_ms, to_json, why)
from catnip.rules.log import put_number, put_varint, put_word  # the log's own encoding

PAGE_BYTES = 448  # the tail stays inline in littlefs's metadata (< 512)
AHEAD_BYTES = 112  # ready() seals a tail with less room than this left
_NUMBER_MAX = 1 << 28


class Journal:
    def __init__(self, root="journal", max_games=12, max_game_bytes=48 * 1024):
        self.root = root.rstrip("/") or "/"
        self.max_games = max_games
        self.max_game_bytes = max_game_bytes
        self.problems = []
        self.status = {}  # gid -> status, for every game folder of ours (the scan files them)
        self.opened = {}  # gid -> Game, for intact unfinished games (the scan opens them)
        self._live = None  # the Game being recorded
        self._stopped = None  # why recording stopped after a flash error
        self.lost = []  # (gid, status, title) removed unpulled, until a laptop hears of it
        self._page = bytearray(PAGE_BYTES)  # a seal's copy of the tail: no new piece mid-game
        self._block = block_size(self.root)
        close_files()  # what another Journal holds open, this one may reread and mend
        try:
            ensure_folder(self.root)
        except OSError as e:
            self.problems.append("the journal folder %s cannot be used (%s): no game will be "
                                 "saved; check the flash" % (self.root, why(e)))
            return
        names = sorted(os.listdir(self.root))
        if names:  # a table fresh from the box has nothing to read back
            from catnip.flash import journal_scan as scan
        for name in names:
            try:
                scan.adopt(self, name)
            except (OSError, ValueError, scan.Damaged) as e:
                self.problems.append("%s could not be read (%s); it was left alone"
                                     % (self.path(name), why(e)))

    # ---- what the app records --------------------------------------------

    def begin(self, header):
        """Start recording a new game; returns its id. Any other unfinished
        game is marked abandoned, and old games are rotated out first."""
        if not isinstance(header, dict):
            raise JournalError("a game's header is a dict (game, config, seed)")
        if "log" in header:
            raise JournalError("the header holds the start of the game only: leave out 'log' "
                               "(the journal records each action as it happens)")
        frame = _frame(b"h", to_json(header, "header"), 0, 0, False)
        if not is_folder(self.root):
            raise JournalError("the journal folder %s cannot be used: no game can be saved; "
                               "check the flash" % self.root)
        gid = 1  # numbered before rotation, so a number is never used twice
        for known in self.status:
            gid = max(gid, known + 1)
        for known in self.lost:
            gid = max(gid, known[0] + 1)
        from catnip.flash.journal_scan import rotate

        self.close()
        rotate(self)
        for other in sorted(self.opened):
            self.abandon(other)
        try:
            os.mkdir(self.folder(gid, "playing"))
        except OSError as e:
            raise JournalError("could not start a journal for the game (%s): check the flash"
                               % why(e))
        self.status[gid] = "playing"
        self.opened[gid] = self._live = Game(gid, header)
        self._stopped = None
        self._append(frame, 1)
        return gid

    def resume(self, gid):
        """Carry on recording an unfinished game found on flash."""
        if gid not in self.opened:
            status = self.status.get(gid)
            raise JournalError("game %s cannot be resumed: %s" % (gid, "there is no such game"
                               if status is None else "it is %s" % status))
        self._live = self.opened[gid]
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
                    frames += _frame(b"w", item.encode(), game.records + len(words) - 1,
                                     _last_crc(frames, game.chain))
                put_word(payload, i)
            elif isinstance(item, int) and not isinstance(item, bool) and \
                    -_NUMBER_MAX < item < _NUMBER_MAX:
                put_number(payload, item)
            else:
                raise JournalError("cannot record %r: action items are words or whole numbers "
                                   "below 2**28" % (item,))
        frames += _frame(b"a", payload, game.records + len(words), _last_crc(frames, game.chain))
        self._append(frames, len(words) + 1)
        game.words.update(words)
        game.actions += 1

    def note(self, data):
        """Record a JSON-ready dict (a tray proposal and the answer given)."""
        game = self._recording()
        if not isinstance(data, dict):
            raise JournalError("a note is a dict, e.g. {'tray': 'placed', 'answer': 3}")
        self._append(_frame(b"n", to_json(data, "note"), game.records, game.chain, False), 1)

    def finish(self, result):
        """The game ended: record its result; it stays until a laptop pulls it."""
        game = self._recording()
        self._append(_frame(b"e", to_json(result, "result"), game.records, game.chain, False),
                     1, bounded=False)
        game.ended = True
        self.mark(game.gid, "finished")

    def abandon(self, gid=None):
        """The table stopped this game (the one in play by default) without
        an end; it is kept as "abandoned"."""
        if gid is None:
            if self._live is None:
                raise JournalError("no game is being recorded, so there is none to abandon")
            gid = self._live.gid
        if self.status.get(gid) != "playing":
            raise JournalError("game %s is not in play (%s), so it cannot be abandoned"
                               % (gid, self.status.get(gid, "no such game")))
        self.mark(gid, "abandoned")

    def release(self, gid):
        """A laptop has stored this game: mark it pulled, first to rotate out.
        For a game removed to make room, the laptop has heard of it: it is
        forgotten."""
        for gone in self.lost:
            if gone[0] == gid:
                from catnip.flash.journal_scan import write_lost

                self.lost = [g for g in self.lost if g[0] != gid]
                write_lost(self)
                return
        self._known(gid)
        status = self.status[gid]
        if status == "playing":
            raise JournalError("game %s is still in play: pull it once it has ended" % gid)
        if status != "pulled":
            self.mark(gid, "pulled")

    # ---- what the app and the laptop read --------------------------------

    def resumable(self):
        """(gid, header, actions) of the newest intact unfinished game, or None."""
        if not self.opened:
            return None
        game = self.opened[max(self.opened)]
        return game.gid, game.header, game.actions

    def games(self):
        """[(gid, status)], oldest first."""
        return [(gid, self.status[gid]) for gid in sorted(self.status)]

    def header(self, gid):
        if gid in self.opened:
            return self.opened[gid].header
        self._known(gid)
        from catnip.flash import journal_scan as scan
        try:
            return scan.read_header(self, gid)
        except scan.Damaged as e:
            raise scan.broken(self, gid, e)

    def entries(self, gid, reads=False):
        """Every record after the header, read from flash a chunk at a time (no file stays
        open between entries): ("action", player, action), ("note", dict) or ("end", result).
        `reads` (the signer's): ("header", dict) first, None before the import and
        the folder's listing, OPEN before each chunk read and SHUT after (journal_files)."""
        self._known(gid)
        if reads:
            yield None
        from catnip.flash import journal_scan as scan

        try:
            for entry in scan.walk(self, gid, scan.Decoder(), reads):
                yield entry
        except scan.Damaged as e:
            raise scan.broken(self, gid, e)

    def bytes_used(self):
        """Bytes of all the games' records on flash."""
        total = 0
        for gid in self.status:
            total += self._game_bytes(gid)
        return total

    # ---- the folder ---------------------------------------------------------

    def _game_bytes(self, gid):
        folder = self.folder(gid, self.status[gid])
        total = 0
        for name in os.listdir(folder):
            total += size(folder + "/" + name)
        return total

    # ---- writing -------------------------------------------------------------

    def _recording(self):
        if self._stopped is not None:
            raise JournalError(self._stopped)
        if self._live is None:
            raise JournalError("no game is being recorded: begin() or resume() one first")
        return self._live

    def _append(self, frames, count, bounded=True):
        game = self._live
        parts = frames if isinstance(frames, list) else (frames,)
        n = sum(len(part) for part in parts)
        if bounded and game.sealed + game.fill + n > self.max_game_bytes:
            raise JournalError("game %d has filled the %d bytes the journal keeps for a game; "
                               "end or abandon it" % (game.gid, self.max_game_bytes))
        t = ticks_ms()
        try:
            if game.fill and game.fill + n > PAGE_BYTES:
                self._seal()
            f = held(self, self.file(game.gid, str(game.sealed)))
            for part in parts:
                f.write(part)
            f.flush()  # committed, as a close would: it is on flash from here
        except OSError as e:
            self._refused(game, e)
        game.commits = 0 if ticks_diff(ticks_ms(), t) >= ERASE_MS else game.commits + 1
        game.fill += n
        game.records += count
        game.chain = _last_crc(parts[-1], 0)

    def ready(self, between=None):
        """While nobody waits (the idle turn), what the next record would wait for (an
        erase each): the folder compacted, a nearly full tail sealed. between() is asked
        before each step that may erase; True (someone pressed) stops it, for the next
        call to carry on."""
        game = self._live
        if game is None or self._stopped is not None:
            return
        try:
            full = game.fill > PAGE_BYTES - AHEAD_BYTES
            if game.commits >= COMPACT_AFTER or full and game.commits:  # a seal's four fit then
                self.close()
                if not compact(self.file(game.gid, str(game.sealed)), COMPACT_MOST, between):
                    return
                game.commits = 0
            if full:
                if between is not None and between():
                    return
                log = game.sealed + game.logged
                room = block_end(log, self._block) - log
                if not game.logged and room < game.fill:
                    self._seal(room)  # the log's block filled; the rest starts the next
                    game.commits += 1
                    if between is not None and between():
                        return
                self._seal()
                game.commits += 4
            held(self, self.file(game.gid, str(game.sealed)))
        except OSError as e:
            self._refused(game, e)

    def close(self):
        """Close the tail file this journal holds open, if it does (before the
        flash is unmounted). Recording carries on: the next record reopens it."""
        close_files(self)

    def _refused(self, game, e):
        self.close()
        self._stopped = ("the journal stopped recording game %d: the flash refused a write "
                         "(%s); end or abandon the game" % (game.gid, why(e)))
        raise JournalError(self._stopped)

    def _seal(self, upto=None):
        # Move the full tail onto the end of the log (only its first `upto`
        # bytes: the rest at the next seal). The next tail, named by where it
        # starts, is made first, so a game always has one, and a cut in
        # between is recognised (catnip.flash.journal_scan.settle). No file
        # stays open meanwhile: a tail held open across the log's append cost
        # littlefs an erase per record after it; the next record reopens it.
        game = self._live
        self.close()
        tail = self.file(game.gid, str(game.sealed))
        data = read_into(tail, self._page, game.fill)
        end = game.sealed + game.fill
        if upto is None:
            open(self.file(game.gid, str(end)), "wb").close()
        with open(self.file(game.gid, LOG), "ab") as f:
            f.write(data[game.logged:upto])
            f.flush()
        if upto is not None:
            game.logged = upto
            return
        os.remove(tail)
        game.sealed = end
        game.fill = game.logged = 0

    def mark(self, gid, status):
        self.close()
        try:
            os.rename(self.folder(gid, self.status[gid]), self.folder(gid, status))
        except OSError as e:
            raise JournalError("could not mark game %d %s on flash (%s); check the flash"
                               % (gid, status, why(e)))
        self.status[gid] = status
        self.opened.pop(gid, None)
        if self._live is not None and self._live.gid == gid:
            self._live = None

    # ---- where each game is on flash: the scan (journal_scan) goes by these too

    def path(self, name):
        return (self.root if self.root != "/" else "") + "/" + name

    def _known(self, gid):
        if gid not in self.status:
            raise JournalError("there is no game %s in the journal" % (gid,))

    def folder(self, gid, status):
        return self.path("%d.%s" % (gid, status))

    def file(self, gid, name):
        return "%s/%s" % (self.folder(gid, self.status[gid]), name)


def _frame(kind, payload, number, chain, whole=True):
    # Record `number`, its CRC carried on from `chain` (the record before's);
    # not `whole`, its pieces (head, payload, CRC): a long payload is not copied.
    if len(payload) > RECORD_MAX:
        raise JournalError("a record of %d bytes is more than the journal takes (%d); "
                           "keep notes short" % (len(payload), RECORD_MAX))
    frame = bytearray(kind)
    frame.append(number & 0xFF)
    put_varint(frame, len(payload))
    crc = (crc32(payload, crc32(frame, chain)) & 0xFFFFFFFF).to_bytes(4, "little")
    if not whole:
        return [frame, payload, crc]
    frame += payload
    frame += crc
    return frame
