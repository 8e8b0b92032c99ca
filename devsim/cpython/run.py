# A devsim program under CPython, for a laptop whose platform has no
# MicroPython unix port (`catnip sim` picks this when the port is missing):
#
#   python devsim/cpython/run.py devsim/virtual.py --board B.json --journal DIR ...
#
# The firmware runs unchanged. This folder's framebuf and micropython stand in
# for MicroPython's built-in modules; the path is MICROPYPATH's (devsim for the
# fake machine, the firmware, the tree's root); time gets MicroPython's ticks,
# sys its print_exception, select a poll() that also takes MicroPython-style
# streams (an ioctl method, as devsim.virtual_io's serial input has), os a
# rename that replaces, as MicroPython's does; stdin is
# read line by line on a thread, which poll() sees, on Windows too, where a
# pipe cannot be polled; stdout is UTF-8, a line at a time.
import os
import queue
import runpy
import select
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DEVSIM = os.path.dirname(HERE)
ROOT = os.path.dirname(DEVSIM)
FIRMWARE = os.path.join(ROOT, "firmware")

POLLIN = getattr(select, "POLLIN", 1)
POLLOUT = getattr(select, "POLLOUT", 4)
_STREAM_POLL = 3  # MicroPython's stream ioctl request (py/stream.h)
_PERIOD = 1 << 30  # MicroPython's ticks wrap here


def ticks_ms():
    return time.monotonic_ns() // 1000000 % _PERIOD


def ticks_us():
    return time.monotonic_ns() // 1000 % _PERIOD


def ticks_add(ticks, delta):
    return (ticks + delta) % _PERIOD


def ticks_diff(end, start):
    return (end - start + _PERIOD // 2) % _PERIOD - _PERIOD // 2


def print_exception(exc, file=None):
    traceback.print_exception(type(exc), exc, exc.__traceback__,
                              file=sys.stdout if file is None else file)


class Lines:
    """stdin, a line at a time, read on a thread: readline() blocks for the
    next ("" at the end), ioctl() says whether one is waiting."""

    def __init__(self, fd):
        self.waiting = queue.Queue()
        self.ended = False
        threading.Thread(target=self._read, args=(fd,), daemon=True).start()

    def _read(self, fd):
        # os.read, not sys.stdin's buffer: a thread still waiting in a
        # buffered read when the program ends would hold its lock.
        rest = b""
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:  # the laptop's side went away
                data = b""
            if not data:
                break
            *lines, rest = (rest + data).split(b"\n")
            for line in lines:
                self.waiting.put(line.decode("utf-8", "replace") + "\n")
        if rest:
            self.waiting.put(rest.decode("utf-8", "replace"))
        self.waiting.put("")

    def readline(self):
        if self.ended:
            return ""
        line = self.waiting.get()
        self.ended = line == ""
        return line

    def ioctl(self, request, arg):
        if request == _STREAM_POLL:
            return arg & POLLIN if self.ended or not self.waiting.empty() else 0
        return -1


class Poll:
    """select.poll() as MicroPython's: objects with an ioctl method are
    asked (as MicroPython asks a stream), file descriptors are selected."""

    def __init__(self):
        self.entries = {}

    def register(self, obj, mask=POLLIN | POLLOUT):
        self.entries[id(obj)] = (obj, mask)

    def modify(self, obj, mask):
        self.entries[id(obj)] = (obj, mask)

    def unregister(self, obj):
        self.entries.pop(id(obj), None)

    def poll(self, timeout=-1):
        end = None if timeout is None or timeout < 0 else time.monotonic() + timeout / 1000
        while True:
            ready = []
            for obj, mask in list(self.entries.values()):
                events = _events(obj, mask)
                if events:
                    ready.append((obj, events))
            if ready or (end is not None and time.monotonic() >= end):
                return ready
            time.sleep(0.001)

    def ipoll(self, timeout=-1, flags=0):
        return iter(self.poll(timeout))


def _events(obj, mask):
    if hasattr(obj, "ioctl"):
        return obj.ioctl(_STREAM_POLL, mask) or 0
    fd = obj if isinstance(obj, int) else obj.fileno()
    readable, writable, _ = select.select([fd] if mask & POLLIN else [],
                                          [fd] if mask & POLLOUT else [], [], 0)
    return (POLLIN if readable else 0) | (POLLOUT if writable else 0)


def install():
    """MicroPython's path and the stand-ins, before the program imports anything."""
    sys.path[1:1] = [DEVSIM, FIRMWARE, ROOT]
    sys.dont_write_bytecode = True  # an installed tree stays as the wheel laid it
    for name, value in (("ticks_ms", ticks_ms), ("ticks_us", ticks_us),
                        ("ticks_cpu", ticks_us), ("ticks_add", ticks_add),
                        ("ticks_diff", ticks_diff),
                        ("sleep_ms", lambda ms: time.sleep(ms / 1000)),
                        ("sleep_us", lambda us: time.sleep(us / 1000000))):
        setattr(time, name, value)
    sys.print_exception = print_exception
    # MicroPython's rename replaces an existing file (littlefs, and POSIX's
    # rename under the unix port); on Windows CPython's would refuse.
    os.rename = os.replace
    select.poll = Poll
    # Windows' select has no poll(): ours, with its flags (setattr: typeshed
    # declares select's own final, as they are where CPython has them).
    setattr(select, "POLLIN", POLLIN)
    setattr(select, "POLLOUT", POLLOUT)
    sys.stdout.reconfigure(encoding="utf-8", line_buffering=True)
    sys.stderr.reconfigure(encoding="utf-8", errors="backslashreplace")
    sys.stdin = Lines(sys.stdin.fileno())


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python devsim/cpython/run.py PROGRAM.py [ARGS...]")
    install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
