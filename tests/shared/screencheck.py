# micropython-only: a canvas on MicroPython's built-in framebuf and its font.
#
# A canvas that checks a screen's layout as it is drawn, for the screen
# census. It is a real framebuf (so the picture is the panel's) that also
# keeps, for every pixel, which glyph or line lit it. Every screen draws
# through framebuf's text(), fill_rect() and lines, so one canvas finds, on
# any screen:
#
#   cut      a glyph with ink past the panel's edge, or text a drawing helper
#            left out for want of room (catnip.ui.draw.cut)
#   over     a glyph drawn on another's ink or on a line, a line across a
#            glyph, or a fill that hides part of a glyph but not all of it
#   touching two strings drawn apart on one row, in one colour, whose ink
#            is closer than GAP pixels: they read as one word ("1223344556",
#            "composure^"); dark on a lit box beside lit on dark reads apart
#
# A fill that hides a glyph whole (a new screen, a banner over the bottom
# rows) is how screens are meant to cover one another and is no problem.
import framebuf

GAP = 4  # pixels of dark between two strings that must read apart; a space is 8+
NONE = 0
LINE = -1

_font = {}


def glyph(ch):
    """The lit (x, y) pixels of `ch` in framebuf's 8x8 font."""
    ink = _font.get(ch)
    if ink is None:
        cell = bytearray(8)
        fb = framebuf.FrameBuffer(cell, 8, 8, framebuf.MONO_VLSB)
        fb.text(ch, 0, 0, 1)
        ink = [(x, y) for x in range(8) for y in range(8) if cell[x] >> y & 1]
        _font[ch] = ink
    return ink


class Checked(framebuf.FrameBuffer):
    """A width x height canvas (the panel's size) that records problems."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buf = bytearray(128 * 64 // 8)  # the app's canvas is always 128x64
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.problems = []
        self.begin()

    def begin(self):
        """A screen starts: nothing is known to be on it."""
        self.owner = [NONE] * (self.width * self.height)
        self.live = [0]  # per glyph id (from 1): its lit pixels still showing
        self.run_of = [None]  # per glyph id: its string's index in runs
        self.runs = []  # [s, x, y, first ink x, last ink x, glyph ids, colour]

    # ---- what the screens call -------------------------------------------------

    def fill(self, c):
        super().fill(c)
        self.begin()

    def cut(self, what):
        self.problems.append("cut: %r left out" % (what,))

    def text(self, s, x, y, c=1):
        super().text(s, x, y, c)
        s = str(s)
        run = len(self.runs)
        ids = []
        lo = hi = None
        cut = False
        for i, ch in enumerate(s):
            if ch == " ":
                continue
            gx = x + 8 * i
            gid = len(self.live)
            self.live.append(0)
            self.run_of.append(run)
            ids.append(gid)
            for px, py in glyph(ch):
                X, Y = gx + px, y + py
                if not (0 <= X < self.width and 0 <= Y < self.height):
                    cut = True
                    continue
                lo = X if lo is None or X < lo else lo
                hi = X if hi is None or X > hi else hi
                k = Y * self.width + X
                was = self.owner[k]
                if was == LINE:
                    self._over("%r drawn on a line" % s)
                elif was > 0 and self.live[was]:
                    self._over("%r drawn on %r" % (s, self.runs[self.run_of[was]][0]))
                    self.live[was] -= 1
                self.owner[k] = gid
                self.live[gid] += 1
        if cut:
            self.problems.append("cut: %r runs off the panel" % s)
        if lo is None:
            self.runs.append([s, x, y, None, None, ids, c])
            return
        for other in self.runs:
            if other[3] is None or abs(other[2] - y) >= 8 or other[6] != c \
                    or not self._showing(other):
                continue
            gap = max(other[3] - hi, lo - other[4]) - 1
            if gap < GAP:
                self.problems.append("touching: %r and %r read as one (%d px apart)" % (
                    other[0], s, max(0, gap)))
        self.runs.append([s, x, y, lo, hi, ids, c])

    def fill_rect(self, x, y, w, h, c):
        super().fill_rect(x, y, w, h, c)
        hit = {}
        for Y in range(max(0, y), min(self.height, y + h)):
            row = Y * self.width
            for X in range(max(0, x), min(self.width, x + w)):
                was = self.owner[row + X]
                if was > 0 and self.live[was]:
                    self.live[was] -= 1
                    hit[was] = True
                self.owner[row + X] = NONE
        for gid in hit:
            if self.live[gid]:
                self._over("a fill hides part of %r" % self.runs[self.run_of[gid]][0])

    def pixel(self, x, y, c=None):
        if c is None:
            return super().pixel(x, y)
        super().pixel(x, y, c)
        self._line(x, y)

    def hline(self, x, y, w, c):
        super().hline(x, y, w, c)
        for X in range(x, x + w):
            self._line(X, y)

    def vline(self, x, y, h, c):
        super().vline(x, y, h, c)
        for Y in range(y, y + h):
            self._line(x, Y)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    # ---- reading it back ---------------------------------------------------------

    def _line(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            self.problems.append("cut: a line runs off the panel")
            return
        k = y * self.width + x
        was = self.owner[k]
        if was > 0 and self.live[was]:
            self._over("a line across %r" % self.runs[self.run_of[was]][0])
            self.live[was] -= 1
        self.owner[k] = LINE

    def _over(self, what):
        self.problems.append("over: " + what)

    def _showing(self, run):
        for gid in run[5]:
            if self.live[gid]:
                return True
        return False

    def strings(self):
        """The strings still showing, in the order drawn: [(s, x, y)]."""
        return [(r[0], r[1], r[2]) for r in self.runs if self._showing(r)]

    def take(self):
        """The problems found since the last take()."""
        found, self.problems = self.problems, []
        return found
