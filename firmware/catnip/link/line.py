# The serial line: the table's end of the wire (catnip.wire, docs/link.md).
#
# Out: stream frames (wire.STREAMED: a game's start, each move's public events, its
# end, messages) are numbered 1, 2, ... from power-up and, once a laptop has
# spoken, the newest RING_BYTES of them are kept, so a laptop that was away
# asks "resync from N" and gets the same bytes again, or a "gap" frame
# saying which ones are gone. Until a laptop speaks the ring is not even
# taken: a table played with no laptop keeps its 3 KB of heap, and a laptop
# that connects later hears of the frames before as a gap (the games'
# moves come from the journal all the same).
# A snapshot (wire.PUSHED) follows every move unnumbered: it is the state now and the
# next one supersedes it, so it is sent only once a laptop has spoken since
# power-up (a laptop that connects asks for one; a line that only tells
# always sends it): with nobody listening, a move
# costs no snapshot's heap or time. Every other frame answers a command (seq 0, "re" =
# the command's number). A write that fails (nobody listening, a full
# buffer) is dropped: the table plays on.
#
# In: read one byte at a time through select.poll, at most `budget` bytes per
# poll(), into one preallocated buffer; a command longer than MAX_IN is
# refused, whatever else arrives is answered with an "err" frame naming the
# problem. The line never blocks and never costs a station a press. A
# Ctrl-C (Thonny's Stop, every mpremote command; the app reads it as a byte)
# raises KeyboardInterrupt there, between two commands, and nothing after it
# is read: the app stops (catnip.table.loop) and the REPL reads the rest.
#
# A frame is composed where it stays: its JSON written straight into one
# buffer taken at power-up (FRAME_ROOM), then copied into the ring (a
# stream frame) or sent from there in pieces (any other). A move's frames
# then ask the heap for no stretch of their own size, which a long game's
# fragmented heap may not have: only a frame longer than FRAME_ROOM does.
import io
import json
import select
import sys
from array import array
from binascii import crc32

from catnip import wire

MAX_IN = 256
RING_BYTES = 3072  # some three of Meow Heist's largest moves, a dozen of the other games'
_AVERAGE = 32  # bytes: the ring counts frames for this many a frame, at most (a gap past that)
FRAME_ROOM = 1024  # a move's largest frame (Meow Heist's final scoring) fits
_CHUNK = 128  # a frame that is not kept leaves in pieces of this size
_TAIL_BYTES = 10  # " %08x\n": a space, the CRC, the newline (as catnip.wire.encode)
_MICRO = sys.implementation.name == "micropython"  # its json.dump writes bytes
_NL = 10
_BETWEEN = -1  # not in a frame: a printable byte makes the line stray
_SKIP = -2  # the rest of a refused command, up to its newline


class Line:
    """The line on streams `inp` (pollable; read(1) gives one byte or char;
    None for a line that only tells) and `out` (write(bytes), or a text
    stream). on_command(word, fields) is called with every
    good command but resync, which the line answers itself; an exception it
    raises (but SystemExit, the "stop" command) becomes an "err" answer."""

    def __init__(self, inp, out, on_command, boot=None, ring=RING_BYTES):
        self.inp = inp
        self.out = out
        self.on_command = on_command
        self.seq = 0  # the newest stream frame's number
        self.boot = boot or _boot_id()  # tells a laptop that seqs started again
        self.re = 0  # the command being answered
        # A laptop has sent a good frame since power-up; a line that only
        # tells (no input) cannot be asked for a snapshot, so it always pushes.
        self.heard = False
        self.commands = 0  # good commands read since power-up: a laptop is still there
        # The newest stream frames back to back in one buffer, the oldest
        # overwritten: frames kept a while as objects of their own would
        # leave holes all over the Pico's heap as they go. Taken when a
        # laptop first speaks (_listened).
        self._wanted = ring
        self._ring = self._lens = None
        self._first = 0  # index in _lens of the oldest frame kept
        self._count = 0  # frames kept
        self._start = 0  # where in _ring the oldest begins
        self._used = 0  # bytes kept
        self._in = bytearray(MAX_IN)
        self._scratch = _scratch()  # the frame being composed
        self._chunk = memoryview(bytearray(_CHUNK))
        self._n = _BETWEEN  # bytes of the frame being read, or _BETWEEN, _SKIP
        self._stray = False  # a line that is not a frame is being read
        self._poll = None
        if inp is None:
            self._listened()

    def _listened(self):
        """A laptop is there (it spoke, or the line only tells): pushed
        frames go out from now on, and stream frames are kept for resync.
        A heap with no piece for the ring keeps a smaller one, or none:
        every frame before a resync is then a gap."""
        self.heard = True
        size = self._wanted
        while self._ring is None and size >= 256:
            try:
                self._ring = bytearray(size)
                self._lens = array("H", bytes(2 * (size // _AVERAGE + 1)))  # each frame's bytes
            except MemoryError:
                self._ring = None
                size //= 2

    # ---- out ----------------------------------------------------------------

    def wants(self, kind):
        """Whether a `kind` frame would go out now: pushed ones (the state
        now) only once a laptop has spoken. The caller can then spare
        building its fields."""
        return self.heard or wire.how(kind) != wire.PUSHED

    def send(self, kind, **fields):
        how = wire.how(kind)
        if how == wire.PUSHED and not self.heard:
            return  # nobody asked for the state: a laptop asks when it connects
        seq = 0
        if how == wire.STREAMED:  # numbered and kept for resync
            self.seq += 1
            seq = self.seq
        elif how != wire.PUSHED:  # an answer (a pushed frame is the state now, not kept)
            if kind == wire.HELLO:
                fields.update(proto=wire.VERSION, boot=self.boot, last=self.seq, uid=_uid())
            fields["re"] = self.re
        n = self._compose(kind, seq, fields)
        if how != wire.STREAMED or not self._keep(n):
            self._send_scratch(n)
        if n > FRAME_ROOM:
            self._scratch = _scratch()  # the grown buffer goes: the heap keeps FRAME_ROOM

    def listen(self, on_command):
        """Every good command from now on goes to on_command(word, fields)."""
        self.on_command = on_command

    def answer(self, re, kind, **fields):
        """`kind` with `fields`, the answer to command `re` after others
        came (a weighing ends a second or two after its command)."""
        now, self.re = self.re, re
        self.send(kind, **fields)
        self.re = now

    def error(self, why, re=None):
        if re is not None:
            self.re = re
        self.send(wire.ERR, why=why)

    def _compose(self, kind, seq, fields):
        """The frame's marker, head and JSON (as catnip.wire.encode makes
        them) into the scratch buffer; their length."""
        s = self._scratch
        s.seek(0)
        s.write(wire.TABLE)
        s.write(("%d %d %s " % (wire.VERSION, seq, kind)).encode())
        if _MICRO:
            json.dump(fields, s, separators=(",", ":"))
        else:  # CPython's json writes text
            s.write(json.dumps(fields, separators=(",", ":")).encode())
        return s.tell()

    def _write(self, *pieces):
        try:
            try:
                for piece in pieces:
                    self.out.write(piece)
            except TypeError:  # a text stream (a console, a test's log): the frame whole
                self.out.write(b"".join(bytes(p) for p in pieces).decode())
        except OSError:
            pass  # nobody listening: the ring keeps what a laptop may ask again

    def _send_scratch(self, n):
        """The composed frame (n bytes before its CRC), sent from the
        scratch buffer in pieces, its CRC reckoned on the way."""
        s, chunk, mark = self._scratch, self._chunk, len(wire.TABLE)
        s.seek(0)
        crc, at = 0, 0
        try:
            try:
                while at < n:
                    piece = chunk if n - at >= _CHUNK else chunk[:n - at]
                    s.readinto(piece)
                    crc = crc32(piece[mark:] if at == 0 else piece, crc)
                    self.out.write(piece)
                    at += len(piece)
                self.out.write(_tail(crc))
            except TypeError:  # a text stream (a console, a test's log): the frame whole
                s.seek(0)
                text = s.read(n)
                self.out.write((text + _tail(crc32(text[mark:]))).decode())
        except OSError:
            pass  # nobody listening: a laptop asks for the state when it is back

    def _keep(self, n):
        """The composed frame (n bytes before its CRC) into the ring, the
        oldest kept making room, then sent from there. False when it is
        longer than the ring: it is sent, and a laptop that missed it hears
        of a gap."""
        ring = self._ring
        if ring is None:
            return False
        size, total = len(ring), n + _TAIL_BYTES
        while self._count and (self._used + total > size or self._count == len(self._lens)):
            gone = self._lens[self._first]  # the oldest makes room
            self._first = (self._first + 1) % len(self._lens)
            self._start = (self._start + gone) % size
            self._used -= gone
            self._count -= 1
        if total > size:
            return False
        at = (self._start + self._used) % size
        s = self._scratch
        s.seek(0)
        for piece in self._views(at, n):
            s.readinto(piece)
        mark = len(wire.TABLE)
        crc = 0
        for piece in self._views(at + mark, n - mark):
            crc = crc32(piece, crc)
        tail = _tail(crc)
        i = 0
        for piece in self._views(at + n, _TAIL_BYTES):
            piece[:] = tail[i:i + len(piece)]
            i += len(piece)
        self._lens[(self._first + self._count) % len(self._lens)] = total
        self._count += 1
        self._used += total
        self._write(*self._views(at, total))
        return True

    def _views(self, at, n):
        """The ring's n bytes from `at` (wrapping round) as one or two views."""
        size = len(self._ring)
        at %= size
        view = memoryview(self._ring)
        if at + n <= size:
            return (view[at:at + n],)
        return (view[at:], view[:at + n - size])

    def _kept(self, index):
        """The `index`-th frame kept (0: the oldest), as bytes."""
        size, at = len(self._ring), self._start
        for i in range(index):
            at += self._lens[(self._first + i) % len(self._lens)]
        at %= size
        n = self._lens[(self._first + index) % len(self._lens)]
        if at + n <= size:
            return bytes(self._ring[at:at + n])
        return bytes(self._ring[at:]) + bytes(self._ring[:at + n - size])

    def resync(self, after):
        """Every stream frame after `after` again, a "gap" frame first for
        those no longer kept, then "synced"."""
        if after > self.seq:
            self.error("resync from %d: this table's newest frame is %d; it has restarted "
                       "since, say hello" % (after, self.seq))
            return
        oldest = self.seq - self._count + 1
        if after + 1 < oldest:
            self.send(wire.GAP, first=after + 1, last=oldest - 1)
        for i in range(max(0, after + 1 - oldest), self._count):
            self._write(self._kept(i))
        self.send(wire.SYNCED, last=self.seq)

    # ---- in -----------------------------------------------------------------

    def waiting(self):
        """Whether a laptop's bytes wait to be read: a command (a phone's
        press) may be coming, and work that holds the loop should let it in."""
        if self.inp is None:
            return False
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self.inp, select.POLLIN)
        return bool(self._poll.poll(0))

    def poll(self, budget=64):
        """Read what is waiting, at most `budget` bytes, and carry out every
        whole command. Returns at once when nothing is waiting (or there
        is no input: a line that only tells)."""
        if self.inp is None:
            return
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self.inp, select.POLLIN)
        while budget > 0 and self._poll.poll(0):
            try:
                c = self.inp.read(1)
            except OSError:
                return  # the port hung up: nothing to read until it is back
            if not c:
                return
            budget -= 1
            b = ord(c) if isinstance(c, str) else c[0]
            if b == wire.CTRL_C:  # a tool wants the REPL: what follows is the REPL's
                raise KeyboardInterrupt
            self.byte(b)

    def feed(self, data):
        """Take bytes as if they had arrived (tests, and a host-side table)."""
        for b in data:
            self.byte(b)

    def byte(self, b):
        """One byte from the laptop."""
        n = self._n
        if b == wire.RS:
            if n > 0:
                self.error("a command was cut short by the next one", 0)
            self._in[0] = b
            self._n = 1
        elif b == _NL:
            if n > 0:
                self._frame(memoryview(self._in)[:n])
            elif self._stray:
                self.error("not a frame: the table speaks the catnip wire (docs/link.md); "
                           "use the catnip tool on the laptop", 0)
            self._n = _BETWEEN
            self._stray = False
        elif n >= 0:
            if n < MAX_IN:
                self._in[n] = b
                self._n = n + 1
            else:
                self.error("a command longer than %d bytes was ignored" % MAX_IN, 0)
                self._n = _SKIP
        elif n == _BETWEEN and b > 32:
            self._stray = True

    def _frame(self, raw):
        self.re = 0
        try:
            seq, kind, fields = wire.decode(bytes(raw), wire.LAPTOP)
            self.re = seq
            wire.command(kind, fields)
        except wire.WireError as e:
            self.error(str(e))
            return
        if not self.heard:
            self._listened()
        self.commands = (self.commands + 1) & 0x3FFFFFFF
        try:
            if kind == "resync":
                self.resync(fields["from"])
            else:
                self.on_command(kind, fields)
        except Exception as e:  # noqa: BLE001 (a command must never stop the table)
            self.error("%s failed: %s" % (kind, e))


def _scratch():
    try:
        return io.BytesIO(FRAME_ROOM)  # MicroPython: that much room, taken now
    except TypeError:  # CPython's BytesIO takes no size
        return io.BytesIO()


def _tail(crc):
    return b" %08x\n" % (crc & 0xFFFFFFFF)


def _boot_id():
    import os
    from binascii import hexlify

    return hexlify(os.urandom(4)).decode()


def _uid():
    try:
        from binascii import hexlify

        import machine

        return hexlify(machine.unique_id()).decode()
    except (ImportError, AttributeError):
        return "unknown"
