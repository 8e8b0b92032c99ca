# The laptop's commands to the virtual table (`catnip sim` at the keyboard),
# each checked before it is carried out, and the loop that reads them.
import io
import select
import sys
import time

from catnip.board import BUTTONS
from devsim.virtual_table import HOLD_MS, STEP_MS, Refused, check_station

# ---- commands from the laptop -------------------------------------------------


_FOLDER_FAULTS = {2: "there is no such folder; make it first, or leave --journal out",
                  20: "it is a file, not a folder", 13: "this user may not use it"}



def check_button(button):
    if button not in BUTTONS:
        raise Refused("buttons are %s, not %r" % (", ".join(BUTTONS), button))
    return button


def check_tray(vt, move, k):
    if vt.tower is None:
        raise Refused("board %s has no tray" % vt.board.name)
    if move not in ("place", "remove", "collapse", "hand"):
        raise Refused("tray moves are place, remove, collapse K and hand, not %r" % (move,))
    if move == "collapse" and not (isinstance(k, int) and 0 < k <= len(vt.tower.tower)):
        raise Refused("the tower has %d cats: a collapse fells 1 to %d, not %r" % (
            len(vt.tower.tower), len(vt.tower.tower), k))
    if move == "remove" and not vt.tower.loose:
        raise Refused("no fallen cat lies on the tray to lift off")


def _int(text, what):
    try:
        return int(text)
    except ValueError:
        raise Refused("%s must be a whole number, not %r" % (what, text))


COMMANDS = "tap, press, release, tray, serial, wait, screens, quit"


def command(vt, words):
    """Carry out one command line (split into words); False on quit."""
    word, args = words[0], words[1:]
    if word == "quit":
        return False
    if word in ("tap", "press", "release"):
        if len(args) < 2:
            raise Refused("write %s STATION BUTTON, e.g. '%s 1 ok'" % (word, word))
        s = check_station(vt, _int(args[0], "station"))
        button = check_button(args[1])
        if word == "tap":
            vt.tap(s, button, _int(args[2], "hold ms") if len(args) > 2 else HOLD_MS)
        else:
            getattr(vt, word)(s, button)
    elif word == "tray":
        if not args:
            raise Refused("write tray place, tray remove, tray hand or tray collapse K")
        k = _int(args[1], "cats") if len(args) > 1 else None
        check_tray(vt, args[0], k)
        vt.tray(args[0], k)
    elif word == "serial":
        vt.serial_in.feed(" ".join(args))
    elif word == "wait":
        vt.run(_int(args[0], "ms") if args else STEP_MS)
    elif word == "screens":
        vt.send_screens(force=True)
    else:
        raise Refused("unknown command %r; commands: %s" % (word, COMMANDS))
    return True


def crash_report(e):
    """The app's exception as the text a traceback would print."""
    out = io.StringIO()
    sys.print_exception(e, out)
    return out.getvalue()


class Stopped(BaseException):
    """The laptop said quit (or went away) while a scenario played: not an
    error of the app, so no `except Exception` takes it for one."""


class Laptop:
    """The laptop's end of stdin: commands read without blocking the table,
    and the table kept in step with real time (live) or moved only by
    `wait` (fast)."""

    def __init__(self, vt, live):
        self.vt = vt
        self.live = live
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.started = time.ticks_ms()
        self.t0 = vt.now()
        self.running = True

    def behind(self):
        """How far table time lags real time, in ms (negative: ahead)."""
        return self.t0 + time.ticks_diff(time.ticks_ms(), self.started) - self.vt.now()

    def read(self, timeout, obey=True):
        """One command, if one comes within timeout ms (-1: wait for it). With
        obey False (a scenario is playing) only quit is carried out."""
        if not self.poll.poll(timeout):
            return
        line = sys.stdin.readline()
        words = line.split()
        if not line or (words and words[0] == "quit"):
            self.running = False  # quit, or the laptop went away
        elif words and not obey:
            self.vt.send({"k": "error", "why": "a scenario is playing: the keys work "
                                               "once it ends"})
        elif words:
            try:
                self.running = command(self.vt, words)
            except Refused as e:
                self.vt.send({"k": "error", "why": str(e)})

    def serve(self):
        """Commands until quit; screens out as they change."""
        vt = self.vt
        vt.send_screens(force=True)
        if vt.tower is not None:
            vt.send_tray()
        while self.running:
            self.read(STEP_MS if self.live else -1)
            if self.live:
                # A stall (the laptop asleep) is skipped, not replayed.
                vt.run(min(self.behind(), 200) // STEP_MS * STEP_MS)
            vt.send_screens()

    def pace(self):
        """Called after each step of a scenario played live: the screens go
        out and the table waits for real time to catch up."""
        self.vt.send_screens()
        while self.running and self.behind() < 0:
            self.read(min(STEP_MS, -self.behind()), obey=False)
        if not self.running:
            raise Stopped()
