# Drawing helpers for a 128x64 station: framebuf's 8x8 font gives 16
# columns and 8 rows. Row 0 is the title bar, row 7 the hint line.
#
# Nothing here shortens a string to make it fit: framebuf clips at the
# panel's edge, and a canvas that checks layouts (the screen census in the
# tests) sees every string whole, so a line too long for its place is found
# rather than quietly cut. Where a helper itself leaves text out (lines past
# a paragraph's last row), it tells the canvas through cut(); a plain canvas
# has no such method and the drop costs nothing more.
COLS = 16
ROWS = 8
WIDTH = 128
HEIGHT = 64


def clear(fb):
    fb.fill(0)


def cut(fb, what):
    """`what` was left out of the screen for want of room."""
    report = getattr(fb, "cut", None)
    if report is not None:
        report(what)


def text(fb, row, s, col=0, inverse=False):
    """`s` at `row` from column `col`."""
    if inverse:
        fb.fill_rect(col * 8, row * 8, len(s) * 8, 8, 1)
    fb.text(s, col * 8, row * 8, 0 if inverse else 1)


def bar(fb, row, s):
    """A whole row lit, `s` dark on it: the title or the chosen item."""
    fb.fill_rect(0, row * 8, WIDTH, 8, 1)
    fb.text(s, 0, row * 8, 0)


def title(fb, left, right=""):
    bar(fb, 0, left + " " * max(1 if right else 0, COLS - len(left) - len(right)) + right)


def hint(fb, s):
    text(fb, ROWS - 1, s)


def right(fb, row, s):
    text(fb, row, s, max(0, COLS - len(s)))


def counted(n, noun):
    """n and its noun as a person says it: "1 move", "2 moves"."""
    return "%d %s%s" % (n, noun, "" if n == 1 else "s")


def wrap(s, width=COLS):
    """`s` split into lines of at most `width` at spaces (long words are cut)."""
    lines = []
    for para in s.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def paragraph(fb, s, row=1, last=ROWS - 2):
    """Wrapped text from `row` down to `last`; returns the next free row."""
    for line in wrap(s):
        if row > last:
            cut(fb, line)
            break
        text(fb, row, line)
        row += 1
    return row


def items(fb, labels, cursor, top=1, rows=6, pinned=0):
    """A scrolling list with the cursor's item lit (just its width: a
    whole-width bar moved costs every column of two rows on each panel).
    The first `pinned` items stay in place when the list is too long for its
    rows and the rest scroll below them (there must be a row left to scroll
    in)."""
    if pinned and len(labels) > rows and pinned < rows:
        for i in range(pinned):
            text(fb, top + i, labels[i], 0, i == cursor)
        labels, cursor, top, rows = labels[pinned:], cursor - pinned, top + pinned, rows - pinned
    first = 0
    if cursor >= rows:
        first = cursor - rows + 1
    for i in range(first, min(len(labels), first + rows)):
        text(fb, top + i - first, labels[i], 0, i == cursor)
    # The marks sit in the last columns: dark where the cursor's box reaches them.
    lit = len(labels[cursor]) * 8 > WIDTH - 6 if 0 <= cursor < len(labels) else False
    if first > 0:
        mark(fb, top, True, 0 if lit and cursor == first else 1)
    if first + rows < len(labels):
        mark(fb, top + rows - 1, False, 0 if lit and cursor - first == rows - 1 else 1)


def mark(fb, row, up, c):
    """A small arrow at the right end of `row`: more of the list that way.
    It needs only the last three columns of pixels' width beside a row of up
    to 15 characters."""
    for i in range(3):
        fb.hline(WIDTH - 3 - i, row * 8 + 2 + (i if up else 2 - i), 1 + 2 * i, c)


def gauge(fb, row, lean, size=24):
    """The tower's lean from four cells ([r, x, y], thousandths of the
    distance to the edge of the support): a dot in a box of `size` pixels,
    at the right from `row` down."""
    x0, y0 = WIDTH - size, row * 8
    fb.rect(x0, y0, size, size, 1)
    fb.hline(x0 + size // 2 - 2, y0 + size // 2, 5, 1)
    fb.vline(x0 + size // 2, y0 + size // 2 - 2, 5, 1)
    if lean is not None:
        x = x0 + size // 2 + max(-1000, min(1000, lean[1])) * (size // 2 - 2) // 1000
        y = y0 + size // 2 - max(-1000, min(1000, lean[2])) * (size // 2 - 2) // 1000
        fb.fill_rect(x - 1, y - 1, 3, 3, 1)


SEATS = []  # the game in play's names by seat, as a station shows them ("": P1, P2, ...)


def seat_name(seat):
    name = SEATS[seat] if seat < len(SEATS) else ""
    return name or "P%d" % (seat + 1)


def named(names):
    """The seats' names from now on (None: P1, P2, ...), each cut to what a
    station shows of it (catnip.wire.SHOWN: names are told apart by it)."""
    from catnip.wire import SHOWN

    SEATS[:] = [n[:SHOWN] for n in names or ()]


# ---- the table's frame around the scenes -------------------------------------


def page(fb, what, row):
    """A plain page under catnip's title: a game loading, the table display
    between games."""
    clear(fb)
    title(fb, "catnip")
    paragraph(fb, what, row)


def everywhere(hw, lines, now):
    """`lines` under catnip's title on every panel of `hw` (each station
    and the table display), sent at once: what the table says when it
    does not play (power-up's problems, the REPL's turn)."""
    fb = hw.canvas
    fb.begin()
    clear(fb)
    title(fb, "catnip")
    for i, line in enumerate(lines):
        text(fb, 2 + i, line)
    for screen in hw.screens + ([hw.table] if hw.table is not None else []):
        screen.take(fb)
    hw.flush(now)


def notice(fb, what, high=False):
    """A table-wide message over a station's bottom lines, or `high` under
    its title (an announcement has the bottom), inverse, so it reads as the
    table's and not the scene's."""
    overlay(fb, what, 1, 3 if high else 4, high, 0 if high else 1)


def banner(fb, what):
    """An announcement over a station's bottom lines, lit, on top of the
    station's own screen: no pixel row above it, so the row it leaves shows
    whole. Returns its first row: from there down, the rows are the
    announcement's alone, whatever the station shows above it."""
    return overlay(fb, what, 1, 4, False, 0)


_WRAPPED = [None, None]  # the text overlay() last wrapped, and its lines


def overlay(fb, what, c, most=4, high=False, rim=None):
    """`what` over the bottom lines of a screen (as many as it needs, up to
    `most`), or `high` under the title, lit (c=1, by default with a pixel
    row above it to set it off: `rim`) or dark (c=0). Returns its first row."""
    if _WRAPPED[0] != what:  # every station shows the same announcement: wrapped once
        _WRAPPED[1] = wrap(what)
        _WRAPPED[0] = what
    lines = _WRAPPED[1]
    if len(lines) > most:
        cut(fb, lines[most])
        lines = lines[:most]
    top = 1 if high else ROWS - len(lines)
    rim = c if rim is None else rim
    fb.fill_rect(0, top * 8 - rim, WIDTH, len(lines) * 8 + rim, c)
    for i, line in enumerate(lines):
        fb.text(line, 0, (top + i) * 8, 1 - c)
    return top
