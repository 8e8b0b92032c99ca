# The serial wire between the table and a laptop: one frame per line, on the
# same USB serial port as the REPL, so anything else on it (the boot banner,
# a traceback, a print) must be told apart and skipped without losing sync.
#
#   MARK V SEQ KIND FIELDS CRC \n        (single spaces between the parts)
#
# MARK    0x1E then '#' from the table, 0x1E then '>' from a laptop. 0x1E
#         (ASCII record separator) is not in any text the REPL prints, repr()
#         escapes it and JSON writes it as \u001e, so inside a frame it can
#         only start one; a REPL echoing a laptop's command never reads as a
#         table's frame. No byte 0x01-0x05 is ever sent to the table: at a
#         bare REPL they switch to raw mode or soft-reset it.
# V       the protocol version, "1".
# SEQ     decimal. From the table: the frame's number in its stream (1, 2, ...
#         since power-up), kept for resync; 0 for an answer outside it. From a
#         laptop: its command number, which the answer repeats as "re".
# KIND    a lower-case word: what the frame is.
# FIELDS  a JSON object.
# CRC     CRC-32 of everything from V to the end of FIELDS, 8 lower-case hex.
#
# The table's frames and commands are listed in docs/link.md.
import json
from binascii import crc32

VERSION = 1
RS = 0x1E
TABLE = b"\x1e#"  # frames the table sends
LAPTOP = b"\x1e>"  # frames a laptop sends
MAX_SEQ = (1 << 30) - 1  # a small int on the Pico
MAX_KIND = 12
MAX_TIME = 1 << 33  # seconds since 1970: a one-off big int, past the year 2200
_V = b"1 "

# Commands a laptop may send, with the fields each must carry and their type.
COMMANDS = {
    "hello": {},  # who are you: protocol, firmware, board, boot, last seq
    "resync": {"from": int},  # every stream frame after this seq
    "snapshot": {},  # the public state now, as a stream frame
    "games": {},  # the journal's games and their status
    "pull": {"gid": int, "from": int},  # a finished game's entries, a page at a time
    "ack": {"gid": int},  # the laptop has stored that game: the table may free it
    "start": {"game": str, "config": dict, "seats": list},  # begin a game
    "abort": {},  # end the game in play without a result
    "calibrate": {"step": str},  # a tray calibration step
    "clock": {"time": int},  # set the clock: seconds since 1970-01-01 UTC
    "stop": {},  # stop the app and hand back the REPL
}


class WireError(Exception):
    """A line that is not a good frame; the message says what is wrong."""


def encode(kind, seq, fields, mark=TABLE):
    """One frame as bytes, newline included."""
    body = ("%d %d %s %s" % (VERSION, seq, kind, json.dumps(fields, separators=(",", ":")))).encode()
    return mark + body + (" %08x\n" % (crc32(body) & 0xFFFFFFFF)).encode()


def decode(line, mark=TABLE):
    """(seq, kind, fields) from one frame without its newline (a trailing CR
    is allowed); WireError names what is wrong."""
    if line[-1:] == b"\r":
        line = line[:-1]
    if line[:2] != mark:
        raise WireError("not a frame: it does not start with the marker")
    body = line[2:]
    if body[:2] != _V:
        raise WireError("protocol version %s, this end speaks %d: update the older side"
                        % (_show(body[:body.find(b" ")] if b" " in body else body[:8]), VERSION))
    if len(body) < 15 or body[-9:-8] != b" ":
        raise WireError("frame cut short: no CRC at its end")
    text = body[:-9]
    try:
        crc = int(body[-8:], 16)
    except ValueError:
        raise WireError("frame's CRC is not 8 hex digits")
    if crc != crc32(text) & 0xFFFFFFFF:
        raise WireError("CRC does not match: the frame was damaged on the way")
    parts = text[2:].split(b" ", 2)
    if len(parts) != 3:
        raise WireError("frame has no seq, kind and fields")
    seq, kind, fields = parts
    if not seq.isdigit() or len(seq) > 10 or int(seq) > MAX_SEQ:
        raise WireError("frame's seq %s is not a number up to %d" % (_show(seq), MAX_SEQ))
    if not kind.isalpha() or not kind.islower() or len(kind) > MAX_KIND:
        raise WireError("frame's kind %s is not a lower-case word" % _show(kind))
    try:
        fields = json.loads(fields)
    except ValueError:
        raise WireError("frame's fields are not JSON")
    if not isinstance(fields, dict):
        raise WireError("frame's fields are not a JSON object")
    return int(seq), kind.decode(), fields


def command(kind, fields):
    """Check a laptop's command against COMMANDS; WireError says what is wrong."""
    wants = COMMANDS.get(kind)
    if wants is None:
        raise WireError("unknown command %s; commands: %s"
                        % (_show(kind), " ".join(sorted(COMMANDS))))
    for name in wants:
        value = fields.get(name)
        if value is None:
            raise WireError("%s needs %s (%s)" % (kind, name, wants[name].__name__))
        if type(value) is not wants[name]:
            raise WireError("%s: %s must be %s, not %s" % (kind, name, wants[name].__name__,
                                                          _show(json.dumps(value))))
        top = MAX_TIME if name == "time" else MAX_SEQ
        if wants[name] is int and not 0 <= value <= top:
            raise WireError("%s: %s is out of range 0-%d" % (kind, name, top))
    for name in fields:
        if name not in wants:
            raise WireError("%s does not take %s" % (kind, _show(name)))


class Reader:
    """Splits a byte stream into frames and everything else. feed(data)
    returns what it completed, in order, as tuples:
        ("frame", seq, kind, fields, raw)   a good frame (raw: its bytes, no newline)
        ("bad", why, excerpt)          a frame that is damaged, cut short or too long
        ("noise", text)                a line that is not ours (banner, traceback)
    A record ends at a newline or where the next marker begins, so a frame
    cut short by a lost byte costs only itself. Records longer than
    `max_line` are dropped up to their end; memory stays bounded.
    """

    def __init__(self, mark=TABLE, max_line=65536):
        self.mark = mark
        self.max_line = max_line
        self._buf = bytearray()
        self._dropping = False  # inside an over-long record

    def feed(self, data):
        out = []
        buf = self._buf
        buf.extend(data)
        pos, n, rs = 0, len(buf), -1
        while pos < n:
            start = pos + 1 if buf[pos] == RS else pos
            nl = buf.find(b"\n", pos)
            if rs < start:
                rs = buf.find(b"\x1e", start)
                if rs < 0:
                    rs = n  # none ahead: not looked for again in this feed
            end = nl if 0 <= nl < rs else (rs if rs < n else -1)
            if end < 0:
                if n - pos > self.max_line:
                    self._over(out, buf[pos:pos + 40])
                    pos = n
                break
            record = bytes(buf[pos:end])
            pos = end + 1 if end == nl else end
            if self._dropping:
                self._dropping = False
            elif len(record) > self.max_line:
                self._over(out, record[:40])
                self._dropping = False
            else:
                self._record(out, record, end == nl)
        self._buf = buf[pos:] if pos else buf
        return out

    def _over(self, out, head):
        if not self._dropping:
            if head[0] == RS:
                out.append(("bad", "frame longer than %d bytes dropped" % self.max_line,
                            _show(head)))
            else:
                out.append(("noise", _text(head) + " ... (a line too long to keep)"))
        self._dropping = True

    def _record(self, out, record, whole):
        if record[:1] != b"\x1e":
            text = _text(record.rstrip(b"\r"))
            if text:
                out.append(("noise", text))
            return
        if record[:2] != self.mark and record[:2] in (TABLE, LAPTOP):
            out.append(("noise", _text(record[2:])))  # the REPL echoing the other side
            return
        if not whole:
            out.append(("bad", "frame cut short by the next one", _show(record[:40])))
            return
        try:
            seq, kind, fields = decode(record, self.mark)
        except WireError as e:
            out.append(("bad", str(e), _show(record[:40])))
            return
        out.append(("frame", seq, kind, fields, record))


def _text(raw):
    try:
        return raw.decode()
    except UnicodeError:
        return repr(bytes(raw))


def _show(raw):
    """A short, printable rendering of untrusted bytes or text for a message."""
    text = repr(bytes(raw) if not isinstance(raw, str) else raw)
    return text[:40] + ("..." if len(text) > 40 else "")
