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
# The table's frames and commands are listed in docs/link.md; their kinds and
# fields in catnip.wire_kinds.
import json
from binascii import crc32

from catnip import forget
# The kinds and their fields (catnip.wire_kinds), under this module's names for both
# ends; sys.modules lets go of it once read (its few names stay, with the two
# functions that build the tables when first asked for).
from catnip.wire_kinds import (  # noqa: F401
    MAX_SEQ, MAX_TIME, COMMIT_ID, PHONES, STREAMED, PUSHED, ANSWER, BEGIN, ACT, END, SAY, LOST, SNAP,
    TRAY, HELLO, SYNCED, GAP, GAMES, GAME, ENTRY, PAGE, ACKED, STARTED, ABORTED, CALIB, CLOCK,
    NAMED, BYE, ERR, SIGNED, VIEW, CLAIMED, RELEASED, PRESSED, how, commands as _commands, messages as _messages)

forget("catnip.wire_kinds")

VERSION = 1
RS = 0x1E
CTRL_C = 0x03  # never in a frame: a tool's Ctrl-C, for which the app stops (catnip.link.line)
TABLE = b"\x1e#"  # frames the table sends
LAPTOP = b"\x1e>"  # frames a laptop sends
MAX_KIND = 12
_V = b"1 "

MAX_DEPTH = 32  # JSON nested deeper is refused: no real frame or file comes near it

# COMMANDS and MESSAGES, what each command and frame carries, are built when
# first read: dicts are made at import even from code frozen into flash, and
# these would be some 2.5 KB of the Pico's heap that a table with no laptop
# never reads (sending needs only how(); a laptop's commands are checked
# against COMMANDS once one speaks).
def __getattr__(name):
    if name == "COMMANDS" or name == "MESSAGES":
        return _table(name)
    raise AttributeError(name)


def _table(name):
    table = globals().get(name)
    if table is None:
        table = _commands() if name == "COMMANDS" else _messages()
        globals()[name] = table
    return table


_TYPES = {"n": int, "t": int, "s": str, "d": dict, "l": list, "b": bool}
_NAMES = {"n": "int", "t": "int", "s": "str", "d": "dict", "l": "list", "b": "bool"}


class WireError(Exception):
    """A line that is not a good frame; the message says what is wrong."""


MAX_NAME = 12  # a player's name as the laptop sends it, in characters
SHOWN = 5  # what a station shows of it (catnip.ui.draw.seat_name): a 16-column screen


def check_names(names, stations):
    """`names` (one per station from the first, "" for none) if a table of
    `stations` can take them, else WireError saying why."""
    if type(names) is not list or len(names) > stations:
        raise WireError("names are one per station, at most %d on this table, not %s"
                        % (stations, _shown(names)))
    seen = {}
    for k, name in enumerate(names):
        if type(name) is not str:
            raise WireError("station %d's name must be text, not %s" % (k + 1, _shown(name)))
        if len(name) > MAX_NAME:
            raise WireError("station %d's name %s is %d characters; keep names to %d"
                            % (k + 1, _shown(name[:MAX_NAME] + "..."), len(name), MAX_NAME))
        if any(not " " <= c <= "~" for c in name) or name != name.strip():
            raise WireError("station %d's name %s: a station shows letters, digits, ASCII"
                            " punctuation and spaces between them" % (k + 1, _shown(name)))
        short = name[:SHOWN].lower()
        if name and short in seen:
            raise WireError("stations %d and %d would both show %s: make the first %d letters"
                            " differ" % (seen[short] + 1, k + 1, _shown(name[:SHOWN]), SHOWN))
        seen[short] = k
    return names


def encode(kind, seq, fields, mark=TABLE):
    """One frame as a bytearray, newline included, made at its final size:
    a move's frames are some of the largest allocations on the Pico, and a
    frame grown piece by piece needs a second stretch of free heap for each
    copy, which a long game's fragmented heap may not have. The JSON text is
    the only other copy made."""
    head = "%d %d %s " % (VERSION, seq, kind)
    text = utf8(json.dumps(fields, separators=(",", ":")))
    at = len(mark) + len(head)
    end = at + len(text)
    frame = bytearray(end + _TAIL_BYTES)
    frame[:len(mark)] = mark
    view = memoryview(frame)
    view[len(mark):at] = utf8(head)
    view[at:end] = text
    crc = crc32(view[len(mark):end]) & 0xFFFFFFFF
    view[end:] = utf8(_TAIL % crc)
    return frame


_TAIL = " %08x\n"  # after the fields: a space, the CRC in hex, the newline
_TAIL_BYTES = 10

try:  # MicroPython: a str is its own UTF-8 buffer, so it goes into a frame uncopied
    memoryview("")

    def utf8(text):
        """`text`'s UTF-8 bytes as a buffer (uncopied on MicroPython)."""
        return memoryview(text)
except TypeError:  # CPython
    def utf8(text):
        """`text`'s UTF-8 bytes as a buffer (uncopied on MicroPython)."""
        return text.encode()


def decode(line, mark=TABLE, parse=None):
    """(seq, kind, fields) from one frame without its newline (a trailing CR
    is allowed); WireError names what is wrong. `parse` reads the fields'
    JSON (loads() unless given: the laptop takes only what it can keep)."""
    line = bytes(line)  # encode() gives a bytearray, which lacks bytes' methods on MicroPython
    if line[-1:] == b"\r":
        line = line[:-1]
    if line[:2] != mark:
        raise WireError("not a frame: it does not start with the marker")
    body = line[2:]
    if body.isdigit():
        raise WireError("frame cut short after its version")
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
        fields = (parse or loads)(fields)
    except ValueError as e:
        raise WireError("frame's fields are not JSON (%s)" % e)
    if not isinstance(fields, dict):
        raise WireError("frame's fields are not a JSON object")
    return int(seq), kind.decode(), fields


def command(kind, fields):
    """Check a laptop's command against COMMANDS; WireError says what is wrong."""
    commands = _table("COMMANDS")
    wants = commands.get(kind)
    if wants is None:
        raise WireError("unknown command %s; commands: %s"
                        % (_show(kind), " ".join(sorted(commands))))
    why = _mismatch(fields, wants, kind)
    if why is None:
        for name in fields:
            if name not in wants:
                why = "%s does not take %s" % (kind, _show(name))
                break
    if why is not None:
        raise WireError(why)


def message(seq, kind, fields):
    """Why a frame from the table does not fit MESSAGES (its kind, how it
    came, its fields), or None when it does."""
    known = _table("MESSAGES").get(kind)
    if known is None:
        return "a frame of unknown kind %s" % _show(kind)
    sent = known[0]
    if (seq > 0) != (sent == STREAMED):
        return "a %s frame %s" % (kind, "numbered %d" % seq if seq else "without a number")
    if sent == ANSWER and not (type(fields.get("re")) is int and 0 <= fields["re"] <= MAX_SEQ):
        return "a %s answer without the number of its command (re)" % kind
    return fields_problem(kind, fields)


def fields_problem(kind, fields):
    """Why these fields do not make a `kind` frame (MESSAGES), or None."""
    known = _table("MESSAGES").get(kind)
    if known is None:
        return "a frame of unknown kind %s" % _show(kind)
    return _mismatch(fields, known[1], kind)


def _mismatch(value, spec, where):
    # Why `value` does not meet `spec` (see MESSAGES), or None.
    if isinstance(spec, dict):
        if type(value) is not dict:
            return "%s must be an object, not %s" % (where, _shown(value))
        for name in spec:
            if name not in value and not (type(spec[name]) is str and spec[name][-1:] == "?"):
                return "%s needs %s" % (where, name) if type(spec[name]) is not str else \
                    "%s needs %s (%s)" % (where, name, _NAMES.get(spec[name][0], "any"))
            why = _mismatch(value.get(name), spec[name], "%s: %s" % (where, name))
            if why is not None:
                return why
        return None
    if isinstance(spec, tuple):
        return _pair(value, spec, where)
    if isinstance(spec, list):
        if type(value) is not list:
            return "%s must be list, not %s" % (where, _shown(value))
        for i in range(len(value)):
            why = _mismatch(value[i], spec[0], "%s[%d]" % (where, i))
            if why is not None:
                return why
        return None
    if value is None and spec[-1:] == "?":
        return None
    code = spec[0]
    if code == "a":
        return None
    if type(value) is not _TYPES[code]:
        return "%s must be %s, not %s" % (where, _NAMES[code], _shown(value))
    top = MAX_TIME if code == "t" else MAX_SEQ
    if code in "nt" and not 0 <= value <= top:
        return "%s is out of range 0-%d" % (where, top)
    return None


def _pair(value, specs, where):
    # An item that is a fixed list: one spec a position.
    if type(value) is not list or len(value) != len(specs):
        return "%s must be a list of %d, not %s" % (where, len(specs), _shown(value))
    for i in range(len(specs)):
        why = _mismatch(value[i], specs[i], "%s[%d]" % (where, i))
        if why is not None:
            return why
    return None


def loads(text):
    """JSON from a peer or a file, nested at most MAX_DEPTH deep; ValueError
    otherwise (deeper input would exhaust the stack or the heap)."""
    if nesting(text) > MAX_DEPTH:
        raise ValueError("JSON nested more than %d deep" % MAX_DEPTH)
    return json.loads(text)


def nesting(text):
    """How deep the arrays and objects of JSON `text` (bytes or str) nest
    at most; strings are skipped, so a quoted bracket does not count."""
    data = text.encode() if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return 0  # too few to nest deeper: the common case, counted in C
    depth = deepest = 0
    quoted = escaped = False
    for b in data:
        if quoted:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:
                quoted = False
        elif b == 0x22:
            quoted = True
        elif b == 0x5B or b == 0x7B:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif b == 0x5D or b == 0x7D:
            depth -= 1
    return deepest


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

    def __init__(self, mark=TABLE, max_line=65536, parse=None):
        self.mark = mark
        self.max_line = max_line
        self.parse = parse  # as decode() takes it
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
            seq, kind, fields = decode(record, self.mark, self.parse)
        except WireError as e:
            out.append(("bad", str(e), _show(record[:40])))
            return
        out.append(("frame", seq, kind, fields, record))


def _text(raw):
    try:
        return raw.decode()
    except UnicodeError:
        return repr(bytes(raw))


def _shown(value):
    try:
        return _show(json.dumps(value))
    except (TypeError, ValueError):
        return _show(repr(value))


def _show(raw):
    """A short, printable rendering of untrusted bytes or text for a message."""
    text = repr(bytes(raw) if not isinstance(raw, str) else raw)
    return text[:40] + ("..." if len(text) > 40 else "")
