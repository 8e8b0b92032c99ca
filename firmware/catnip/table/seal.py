# The table's signature on every game it finishes (docs/records.md,
# "Signatures"). The first power-up draws the table's key (os.urandom) and
# keeps it on flash (KEY_FILE, written as the table's other small files).
# Each finished game is then signed (Ed25519 over catnip.record_digest's
# digest of its journal) from the loop's idle turn, about STEP_MS of work
# a turn in pieces under a ms, each read from or write to flash (a few ms)
# beginning a turn of its own, so neither a press nor a journal write waits
# long for it; the signature is kept in the game's folder
# (catnip.flash.seals), goes to the laptop with the game's last page, and a
# "signed" frame says it is ready.
# The key is made the same way, a step a turn, so no power-up waits for it.
#
# On the image, each file the signature opens (the game's log and tail, its
# own) takes 1.1 KB of heap in one piece (littlefs's buffer), and the heap a
# game leaves behind is in crumbs (docs/pico.md, "What the real build
# showed"): a piece kept since power-up is lent to each open and taken back
# once the file is closed. Each read opens its file afresh: a file held open
# in a generator stays in the heap after it is closed, and its piece with it.
import os

from catnip import forget, wire
from catnip.flash import flashfile, seals
from catnip.flash.journal import JournalError
from catnip.flash.journal_files import OPEN, SHUT
from catnip.keys import ticks_diff

KEY_FILE = "table_key.json"  # {"secret": hex, "public": hex}: on flash, never on the wire
STEP_MS = 3  # work per idle turn; a step runs a piece past it (docs/pico.md)
_TURN = False  # what the work yields when a long piece (a read from flash) comes next
_NO_ROOM = "there is no room in the heap to sign games (the catnip image has it): they go unsigned"
_NO_ROOM_ON_IMAGE = ("the heap had no room to sign a game: this power-up's games are signed at "
                     "the next power-up")
ROOM = 1152  # the piece kept: a littlefs file as the rp2 build opens it (1,148 B: 72 blocks)


class Seal:
    """Signs the finished games of `journal` with the table's key, on
    `clock`; send(kind, **fields) tells the laptop."""

    def __init__(self, journal, clock, send):
        from catnip.link.line import _uid  # the id the hello gives

        self.journal = journal
        self.uid = _uid()
        self.clock = clock
        self.send = send
        self.public = None  # the table's public key (32 bytes) once known
        self.problem = None  # why games go unsigned, once the key cannot be kept
        self._secret = None
        self._work = None  # the generator in progress: the key's, or a game's signature
        kept = flashfile.load(KEY_FILE)
        try:
            self._secret = bytes.fromhex(kept["secret"])
            self.public = bytes.fromhex(kept["public"])
        except (TypeError, KeyError, ValueError):
            self._secret = self.public = None  # none yet, or unreadable: a new key
        if self.public is None or len(self._secret) != 32 or len(self.public) != 32:
            self._secret = os.urandom(32)
            self.public = None
        self.todo = seals.unsigned(journal) if self.public is not None else None
        self.frozen = _frozen()  # the catnip image: its code stays in flash
        self._room = None  # ROOM bytes the signature's reads will have, on the image
        self._keep_room()

    def shown(self):
        """(fingerprint, public key in hex) as the table shows them, or None
        while the key is being made."""
        if self.public is None:
            return None
        from catnip import record_digest  # loaded when asked: stock MicroPython's heap is tight

        return record_digest.fingerprint(self.public), self.public.hex()

    def finished(self, gid):
        """Game `gid` has ended: sign it once the idle turns get to it.
        Whether it will be, as the live end says: only once the key is made
        (a key that does not fit the heap would sign nothing)."""
        if self.todo is not None and gid not in self.todo:
            self.todo.append(gid)
        return self.public is not None and self.waits(gid)

    def prepare(self):
        """The signing's code loaded now, as the standings come up (the game's
        screens gone, their heap free), not in the steps: 5-16 ms a module on
        the Pico (the journal's reading side, dropped during a game, then the
        digest and Ed25519). Frozen into the image, it takes little heap;
        stock MicroPython loads it in the steps."""
        if self.frozen and self.public is not None and self.problem is None and self.todo:
            try:
                from catnip.flash import journal_scan  # noqa: F401
                from catnip import ed25519, record_digest  # noqa: F401
            except MemoryError:  # the steps try again, and say so if it still does not fit
                pass

    def waits(self, gid):
        """Whether finished game `gid` waits for its signature (or for the
        key, while it is being made): the laptop pulls it once it is signed."""
        return self.problem is None and (self.todo is None or gid in self.todo)

    def room(self):
        """Bytes kept for the signature's reads (0 on stock MicroPython, or
        while they are in use)."""
        return 0 if self._room is None else len(self._room)

    def busy(self):
        return self._work is not None or self.todo is None or bool(self.todo)

    def step(self, between_games=True):
        """Up to STEP_MS of the work waiting (the key, then each game in
        turn). While a game is on the screens (not `between_games`: its last
        move's too) none, and what was under way is dropped, to begin again
        after it: a game's heap is its own."""
        if not between_games:
            if self._work is not None:
                self._dropped(keep=True)
            self._keep_room()
            return
        if self.problem is not None or not self.busy():
            return
        clock = self.clock
        t = clock.ticks_ms()
        while ticks_diff(clock.ticks_ms(), t) < STEP_MS:
            try:
                if self._work is None:
                    self._work = self._next()
                out = next(self._work)
            except MemoryError:  # stock MicroPython's heap, or the image's after a long game
                self._unable(_NO_ROOM_ON_IMAGE if self.frozen else _NO_ROOM)
                return
            except (JournalError, OSError, ValueError, StopIteration):
                self._dropped()
                return
            if out is _TURN:  # the next piece is long: it begins the next turn
                return
            if out is not None:
                self._done(out)
                return

    def _next(self):
        if self.public is None:
            return self._making_key()
        return self._signing(self.todo[0])

    # Each work begins a step, with its code when finished() did not load it
    # (at power-up: a module a turn).
    def _making_key(self):
        from catnip import ed25519

        public = yield from _computed(ed25519.public_steps(self._secret))
        yield _TURN  # kept on flash (written, read back, renamed): a turn of its own
        try:
            flashfile.save(KEY_FILE, {"secret": self._secret.hex(), "public": public.hex()})
        except OSError as e:
            self._unable("the table's key could not be kept (%s): games go unsigned" % e)
            return
        yield public

    def _signing(self, gid):
        # The journal is read back in the same turns: each read from flash
        # (the game's folder listed, a chunk of its records) begins a turn.
        from catnip import ed25519

        yield _TURN
        from catnip import record_digest

        digest = record_digest.Digest(self.uid, gid, "finished")
        for entry in self.journal.entries(gid, reads=True):
            if entry is None:
                yield _TURN  # a read from flash next
            elif entry == OPEN:
                yield _TURN  # a read from flash next
                self._give_room()
            elif entry == SHUT:
                self._keep_room()  # the file's piece, for the next open
            elif entry[0] == "header":
                yield from digest.steps(entry[1], b"l")  # the entries follow, as a list
            elif entry[0] == "action":  # a few values: a piece
                digest.entry(entry)
                yield None
            else:  # a note, the end: a result with its reasons runs to hundreds of bytes
                yield from digest.steps(entry)
                yield None
        sig = yield from _computed(ed25519.signing(self._secret, digest.digest(), self.public))
        yield _TURN  # kept on flash, one commit: a turn of its own
        self._give_room()
        seals.save(self.journal, gid, sig)  # OSError: it stays unsigned, as after a cut
        yield _TURN
        yield sig

    def _keep_room(self):
        # The piece taken at power-up, again after each read, and as the
        # next game begins; on stock MicroPython the heap is too tight to
        # spare it. No collection of its own (13 ms, longer than a step):
        # where no piece is free, the heap collects, and the file just
        # closed leaves one.
        if self.frozen and self._room is None:
            try:
                self._room = bytearray(ROOM)
            except MemoryError:  # the next open goes without it
                pass

    def _give_room(self):
        # Let go just before a file is opened, nothing allocated in between:
        # the open finds the piece (collecting if it must).
        self._room = None

    def _done(self, out):
        self._work = None
        if self.public is None:  # the new key, kept: then every unsigned game signed
            self.public = out
            self.todo = seals.unsigned(self.journal)
        else:
            self.send(wire.SIGNED, gid=self.todo.pop(0))
        forget("catnip.ed25519")  # the signing code leaves the heap between games
        forget("catnip.record_digest")

    def _unable(self, why):
        # Signing stops for this power-up, said once; the games stay unsigned.
        self._work = None
        forget("catnip.ed25519")
        self.problem = why
        self.send(wire.SAY, text=why)

    def _dropped(self, keep=False):
        # The work under way stops; unless `keep`, its game stays unsigned (it
        # went, rotated out, its journal is damaged, or the flash refused its
        # signature): the laptop labels it so.
        self._work = None
        if self.todo and not keep:
            self.todo.pop(0)
        forget("catnip.ed25519")
        forget("catnip.record_digest")


def _frozen():
    try:
        from catnip import release  # written by each build (catnip.version)
    except ImportError:
        return False
    return release.FROZEN


def _computed(steps):
    # Generator: the pieces of catnip.ed25519's work passed on (None each),
    # then its answer returned.
    for out in steps:
        if out is not None:
            return out
        yield None
