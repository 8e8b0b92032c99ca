# The serial line: public events and snapshots out, a few commands in, one
# JSON object per line. USB CDC carries the REPL too, so a line that is not
# ours (a banner, a stray print) is ignored by the laptop, and anything we
# cannot read gets an "err" answer naming the problem.
#
# Out:  {"t": "ev", "seq": n, "ev": {...}}          a public event
#       {"t": "snap", "seq": n, "game": .., ...}    the public state
#       {"t": "say", "text": ..}                    a message for the room
#       {"t": "games", "games": [[gid, status], ...]}
#       {"t": "game", "gid": n, "header": {...}}, then {"t": "entry", "gid": n, "e": [...]}
#           per journal entry and {"t": "pulled", "gid": n}: a finished game, seed and all
#       {"t": "err", "why": ..}
# In:   hello | snapshot | games | pull GID | ack GID | stop
#
# Input is read a byte at a time through select.poll, never blocking: a long
# or endless line is cut at MAX_LINE and refused, so the line cannot stall
# the table.
import json
import select

MAX_LINE = 200
COMMANDS = ("hello", "snapshot", "games", "pull", "ack", "stop")


class Line:
    """The line on streams `inp` (pollable, read(1) gives one char or byte)
    and `out` (write(str)). on_command(word, arg) gets each command."""

    def __init__(self, inp, out, on_command):
        self.inp = inp
        self.out = out
        self.on_command = on_command
        self.seq = 0
        self._buf = bytearray()
        self._overflow = False
        self._poll = select.poll()
        self._poll.register(inp, select.POLLIN)

    # ---- out ----------------------------------------------------------------

    def send(self, kind, **fields):
        fields["t"] = kind
        if kind in ("ev", "snap"):
            self.seq += 1
            fields["seq"] = self.seq
        try:
            self.out.write(json.dumps(fields) + "\n")
        except OSError:
            pass  # nobody listening: the table plays on

    # ---- in -----------------------------------------------------------------

    def poll(self, budget=64):
        """Read what is waiting, at most `budget` bytes, and carry out every
        whole line. Returns at once when nothing is waiting."""
        while budget > 0 and self._poll.poll(0):
            c = self.inp.read(1)
            if not c:
                return
            budget -= 1
            b = c if isinstance(c, int) else ord(c)
            if b in (10, 13):
                self._line()
            elif len(self._buf) < MAX_LINE:
                self._buf.append(b)
            else:
                self._overflow = True

    def _line(self):
        raw, over = self._buf, self._overflow
        self._buf = bytearray()
        self._overflow = False
        if over:
            self.send("err", why="line longer than %d bytes ignored" % MAX_LINE)
            return
        try:
            words = raw.decode().split()
        except UnicodeError:
            self.send("err", why="a line that is not text was ignored")
            return
        if not words:
            return
        word, args = words[0], words[1:]
        if word not in COMMANDS:
            self.send("err", why="unknown command %r; commands: %s" % (word[:20], " ".join(COMMANDS)))
            return
        arg = None
        if word in ("pull", "ack"):
            if len(args) != 1 or not args[0].isdigit():
                self.send("err", why="write it as '%s GID' with the game's number" % word)
                return
            arg = int(args[0])
        self.on_command(word, arg)
