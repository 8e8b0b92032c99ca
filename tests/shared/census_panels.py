# micropython-only: the panel drivers send MicroPython framebuf pictures.
#
# A panel driver and its chip's model on a wire of their own, for the screen
# census (test_screen_census): a picture goes through the driver, and the
# model's RAM behind the glass must then hold it exactly.


class Panel:
    """A panel driver with its chip's model on a wire of their own;
    check(fb) sends it the picture and says how the RAM behind the glass
    differs from it."""

    def __init__(self, kind, height):
        from catnip.drivers.ssd1306 import Canvas
        from catnip.parts.screen import panel

        self.kind = kind
        self.canvas = Canvas()
        self.model = _model(kind, height)
        self.driver = panel(self, {"addr": 0x3C, "height": height, "flip": False, "panel": kind})
        self.driver.init_display()

    def writeto(self, addr, buf, stop=True):
        self.model.write(buf)

    def check(self, fb):
        self.canvas.begin()
        self.canvas.buf[:] = fb.buf
        self.driver.show(self.canvas)
        self.model.commands = []  # the model logs every command: a census is too many
        m = self.model
        if not (m.lit() and m.seg_remap and m.com_remap and m.start_line == 0 and m.offset == 0):
            return ["panel: the %s is not set up as its driver sets it up" % self.kind]
        wrong = [page for page in range(m.height // 8)
                 if _behind_glass(m, page) != bytes(fb.buf[page * 128:page * 128 + 128])]
        return ["panel: the %s holds other pixels on pages %r" % (self.kind, wrong)] if wrong else []


def _behind_glass(model, page):
    """The RAM bytes behind the glass's columns on `page`, left to right, for a
    panel remapped as the drivers set it up: the SH1106's glass shows its
    RAM columns 2..129; the SSD1306 stores column x at 127 - x (its remap
    applies as data arrives)."""
    from devsim.models.sh1106 import COLUMNS, FIRST_SEG, SH1106

    if isinstance(model, SH1106):
        start = page * COLUMNS + FIRST_SEG
        return bytes(model.ram[start:start + 128])
    return bytes(reversed(model.ram[page * 128:page * 128 + 128]))


def _model(kind, height):
    from devsim.models.sh1106 import SH1106
    from devsim.models.ssd1306 import SSD1306

    return SH1106(height) if kind == "sh1106" else SSD1306(height)
