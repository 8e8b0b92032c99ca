# Drawing helpers for a 128x64 station: framebuf's 8x8 font gives 16
# columns and 8 rows. Row 0 is the title bar, row 7 the hint line.
COLS = 16
ROWS = 8
WIDTH = 128


def clear(fb):
    fb.fill(0)


def text(fb, row, s, col=0, inverse=False):
    """`s` at `row` from column `col`, cut to the screen's width."""
    s = s[:COLS - col]
    if inverse:
        fb.fill_rect(col * 8, row * 8, len(s) * 8, 8, 1)
    fb.text(s, col * 8, row * 8, 0 if inverse else 1)


def bar(fb, row, s):
    """A whole row lit, `s` dark on it: the title or the chosen item."""
    fb.fill_rect(0, row * 8, WIDTH, 8, 1)
    fb.text(s[:COLS], 0, row * 8, 0)


def title(fb, left, right=""):
    left = left[:COLS - len(right) - (1 if right else 0)]
    bar(fb, 0, left + " " * (COLS - len(left) - len(right)) + right)


def hint(fb, s):
    text(fb, ROWS - 1, s)


def right(fb, row, s):
    text(fb, row, s, max(0, COLS - len(s)))


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
            break
        text(fb, row, line)
        row += 1
    return row


def items(fb, labels, cursor, top=1, rows=6):
    """A scrolling list with the cursor's item lit."""
    first = 0
    if cursor >= rows:
        first = cursor - rows + 1
    for i in range(first, min(len(labels), first + rows)):
        row = top + i - first
        if i == cursor:
            bar(fb, row, labels[i])
        else:
            text(fb, row, labels[i])
    if first > 0:
        fb.text("^", WIDTH - 8, top * 8, 1 if cursor - first else 0)
    if first + rows < len(labels):
        fb.text("v", WIDTH - 8, (top + rows - 1) * 8, 1)


def gauge(fb, row, lean):
    """The tower's lean from four cells ([r, x, y], thousandths of the
    distance to the edge of the support): a dot in a box, right of `row`."""
    x0, y0, size = WIDTH - 24, row * 8, 24
    fb.rect(x0, y0, size, size, 1)
    fb.hline(x0 + size // 2 - 2, y0 + size // 2, 5, 1)
    fb.vline(x0 + size // 2, y0 + size // 2 - 2, 5, 1)
    if lean is not None:
        x = x0 + size // 2 + max(-1000, min(1000, lean[1])) * (size // 2 - 2) // 1000
        y = y0 + size // 2 - max(-1000, min(1000, lean[2])) * (size // 2 - 2) // 1000
        fb.fill_rect(x - 1, y - 1, 3, 3, 1)


def seat_name(seat):
    return "P%d" % (seat + 1)


# ---- the table's frame around the scenes -------------------------------------


def page(fb, what, row):
    """A plain page under catnip's title: a game loading, the table display
    between games."""
    clear(fb)
    title(fb, "catnip")
    paragraph(fb, what, row)


def notice(fb, what, high=False):
    """A table-wide message over a station's bottom lines (up to three), or
    `high` under its title (an announcement has the bottom), inverse, so it
    reads as the table's and not the scene's."""
    lines = wrap(what)[:3]
    top = 1 if high else ROWS - len(lines)
    fb.fill_rect(0, top * 8 - 1, WIDTH, len(lines) * 8 + 1, 1)
    for i, line in enumerate(lines):
        fb.text(line, 0, (top + i) * 8, 0)
