# Checks shared by the SSD1306 model and driver tests, under both interpreters.
from devsim.models.ssd1306 import SSD1306, WIDTH, mismatch


def send(model, *transactions):
    """Feed write transactions (bytes-like) to a model, as the bus would."""
    for t in transactions:
        model.write(bytes(t))


def commands(model, *cmds):
    """One Co=0 command transaction per call."""
    send(model, bytes([0x00]) + bytes(cmds))


def lit_model(height=64):
    """A model set up the way a working panel is: pump, display on, upright."""
    m = SSD1306(height)
    mux = height - 1
    com = 0x12 if height == 64 else 0x02
    commands(m, 0xA8, mux, 0xDA, com, 0xA1, 0xC8, 0x8D, 0x14, 0xAF)
    return m


def window_cells(mode, cols, pages, n):
    """The (page, column) cells n data bytes land in, computed from the
    datasheet's description of the horizontal and vertical modes."""
    c0, c1 = cols
    p0, p1 = pages
    width, height = c1 - c0 + 1, p1 - p0 + 1
    cells = []
    for i in range(n):
        k = i % (width * height)
        if mode == 0:
            cells.append((p0 + k // width, c0 + k % width))
        else:
            cells.append((p0 + k % height, c0 + k // height))
    return cells


def check_window_stream(mode, cols, pages, data):
    """Write `data` through a window in horizontal (0) or vertical (1) mode and
    check every byte landed where window_cells says (last write wins)."""
    m = lit_model()
    commands(m, 0xA0)  # no segment remap: RAM column = column address
    m.ram[:] = bytes(len(m.ram))
    commands(m, 0x20, mode, 0x21, cols[0], cols[1], 0x22, pages[0], pages[1])
    send(m, bytes([0x40]) + bytes(data))
    want = bytearray(len(m.ram))
    for (page, col), b in zip(window_cells(mode, cols, pages, len(data)), data):
        want[page * WIDTH + col] = b
    assert m.ram == want, "mode %d window %s x %s: RAM differs" % (mode, cols, pages)


def frame_of(fb, width, height):
    """A FrameBuffer's pixels as a MONO_VLSB image, read through pixel() so the
    check does not depend on how the driver lays out its memory."""
    out = bytearray(width * height // 8)
    for y in range(height):
        row = (y >> 3) * width
        bit = 1 << (y & 7)
        for x in range(width):
            if fb.pixel(x, y):
                out[row + x] |= bit
    return out


def rotated(image, height):
    """A MONO_VLSB image turned by 180 degrees."""
    out = bytearray(len(image))
    for y in range(height):
        for x in range(WIDTH):
            if (image[(y >> 3) * WIDTH + x] >> (y & 7)) & 1:
                ry, rx = height - 1 - y, WIDTH - 1 - x
                out[(ry >> 3) * WIDTH + rx] |= 1 << (ry & 7)
    return out


def assert_shows(model, image, what="the frame"):
    problem = mismatch(image, model.screen(), model.height)
    assert not problem, "panel does not show %s: %s" % (what, problem)
