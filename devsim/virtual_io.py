# What passes between the virtual table and the laptop: the app's serial line
# (both ends) and each screen read back as text cells for the terminal.
import io
import json

from catnip import wire
from devsim import glyphs

# ---- the serial line's two ends ---------------------------------------------


_POLL = 3  # MicroPython's stream ioctl requests (py/stream.h)
_GET_FILENO = 10


class SerialIn(io.IOBase):
    """What the laptop sends on the app's serial line: catnip.link.line polls it
    and reads a byte at a time (b"" when nothing is waiting)."""

    def __init__(self):
        self.waiting = b""
        self.seq = 0

    def feed(self, text):
        """`text` as the laptop would send it: a command word and its JSON
        fields ("hello", 'pull {"gid": 1}'), framed; or raw text as it is."""
        word, _, rest = text.partition(" ")
        try:
            fields = json.loads(rest) if rest.strip() else {}
            wire.command(word, fields)
        except (ValueError, wire.WireError):
            self.waiting += text.encode() + b"\n"  # not a command: the table says why
            return
        self.seq += 1
        self.waiting += wire.encode(word, self.seq, fields, wire.LAPTOP)

    def read(self, n):
        got, self.waiting = self.waiting[:n], self.waiting[n:]
        return got

    def ioctl(self, request, arg):
        if request == _GET_FILENO:
            return -1  # no file descriptor: select.poll asks _POLL instead
        if request == _POLL:
            return arg if self.waiting else 0
        return -1


class SerialOut:
    """The app's serial output, read as a laptop reads it (catnip.wire):
    one {"k": "line"} message per frame, its kind as "t"; a line that is
    not a frame as {"t": "raw"}."""

    def __init__(self, send):
        self.send = send
        self.reader = wire.Reader()

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        for item in self.reader.feed(data):
            if item[0] == "frame":
                _, seq, kind, fields, _ = item
                fields["t"] = kind
                if seq:
                    fields["seq"] = seq
                self.send({"k": "line", "m": fields})
            elif item[0] == "bad":
                self.send({"k": "line", "m": {"t": "bad", "text": item[1]}})
            else:
                self.send({"k": "line", "m": {"t": "raw", "text": item[1]}})
        return len(data)


# ---- what a screen shows -------------------------------------------------------

_underlined = None


def _font():
    """{8 column bytes: (char, attribute)}: framebuf's glyphs, lit ("."),
    dark on a lit bar ("i") and with a line under them ("u")."""
    global _underlined
    if _underlined is None:
        font = {}
        for cell, glyph in glyphs._glyphs().items():
            font[cell] = (glyph[0], "i" if glyph[1] else ".")
            if not glyph[1]:
                font[bytes(b | 0x80 for b in cell)] = (glyph[0], "u")
        font[bytes(8)] = (" ", ".")
        font[b"\xff" * 8] = (" ", "i")
        _underlined = font
    return _underlined


def cells(image, height):
    """The screen as its 16 x height/8 character cells: (rows, attrs), one
    string each per text row. attr "g" marks a cell holding a drawing (a
    gauge, a frame): its char is a space and the picture has its pixels."""
    font = _font()
    rows, attrs = [], []
    for page in range(height // 8):
        text, attr = "", ""
        base = page * 128
        for col in range(16):
            cell = bytes(image[base + col * 8:base + col * 8 + 8])
            char, a = font.get(cell, (" ", "g"))
            text += char
            attr += a
        rows.append(text)
        attrs.append(attr)
    return rows, attrs


def shown(lines):
    """A screen's text rows with the scroll marks (^ v at the right edge) off."""
    out = []
    for line in lines:
        if len(line) >= 16 and line[15] in "^v" and line[14] == " ":
            line = line[:15]
        out.append(line.rstrip())
    return out
