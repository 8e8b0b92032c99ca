# The table's serial port on a pseudo-terminal, for the MicroPython unix port
# (or CPython, devsim/cpython/run.py):
# the laptop's side opens the pty's other end exactly as it opens a Pico's
# /dev/ttyACM0, and the app's catnip.link.line runs on this one unchanged.
#
# Whoever makes the pty (the virtual table, the link tests) sets its slave
# side raw (no echo, no line editing) and non-blocking, and hands this
# process the fd (subprocess pass_fds). A USB CDC port with nobody reading
# drops what is written; so does this one, a frame that does not fit is
# dropped (or cut, which the laptop sees as a damaged frame and resyncs).
#
#   from devsim.link_runner import pty_line
#   line = pty_line(fd)                  # a catnip.link.line.Line on the pty
#   app = App(hw, journal, line=line)    # the App sets line.on_command
from catnip.link.line import Line


class PtyPort:
    """One non-blocking pty fd: read(n) gives b"" when nothing waits,
    write() never blocks. `log`, if given, gets every byte the table meant
    to send (tests compare it with what the laptop stored)."""

    def __init__(self, fd, log=None):
        # Unbuffered: under CPython a buffered read(1) would take every byte
        # waiting, and poll() would then see none of those it kept.
        self.f = open(fd, "r+b", buffering=0)
        self.log = log
        self.dropped = 0  # frames that found the port full or gone

    def fileno(self):
        return self.f.fileno()

    def read(self, n):
        return self.f.read(n) or b""

    def write(self, data):
        if self.log is not None:
            self.log.write(data)
        try:
            n = self.f.write(data)
        except OSError:
            n = None  # the laptop's side is closed
        if n is None or n < len(data):
            self.dropped += 1


def pty_line(fd, on_command=None, log=None, **line):
    """A catnip.link.line.Line on pty fd `fd` (already raw and non-blocking);
    `line` goes to Line (e.g. ring=)."""
    port = PtyPort(fd, log)
    return Line(port.f, port, on_command, **line)
