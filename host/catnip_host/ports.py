"""Finding the table's Pico and opening its port, with messages that say
what to do when it cannot be opened; then a Link on it: frames in
(catnip.wire.Reader), commands out, and Disconnected when the port goes away
(unplugged, the table reset).

A Pico running MicroPython shows up as a USB serial device with the
Raspberry Pi vendor id 2E8A and product id 0005. `--port` takes a device
(/dev/ttyACM0, COM3) or a pyserial URL (socket://host:port, rfc2217://...).
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable

import serial
from serial.tools import list_ports

from catnip import wire
from catnip_host import readable

PICO_VID, PICO_PID = 0x2E8A, 0x0005
BAUD = 115200  # USB CDC ignores it; a UART bridge needs it
# What a Pico's port is called on each system, for --port's help.
PORT_HELP = ("the table's serial port (COM3 on Windows, /dev/ttyACM0 on Linux, "
             "/dev/cu.usbmodem1101 on macOS) or a pyserial URL; found by its USB ids if left out")


def port_example() -> str:
    """A name a Pico's port takes on this system, for messages."""
    if sys.platform == "win32":
        return "COM3"
    if sys.platform == "darwin":
        return "/dev/cu.usbmodem1101"
    return "/dev/ttyACM0"


class PortError(Exception):
    """No port to use; the message says why and how to fix it."""


def find_pico() -> str:
    """The device name of the one Pico plugged in."""
    found = [p for p in list_ports.comports() if (p.vid, p.pid) == (PICO_VID, PICO_PID)]
    if not found:
        others = ", ".join(p.device for p in list_ports.comports()) or "none"
        raise PortError(
            "no Pico found on USB (looking for 2E8A:0005; serial ports here: %s). Plug the "
            "table in with a data cable, check that it runs MicroPython, or give --port "
            "(e.g. --port %s)." % (others, port_example()))
    if len(found) > 1:
        raise PortError("%d Picos are plugged in (%s): choose one with --port"
                        % (len(found), ", ".join(p.device for p in found)))
    return found[0].device


def open_port(port: str | None, timeout: float = 0.05) -> serial.SerialBase:
    """The port opened for reading with `timeout`; PortError says what went wrong."""
    name = port or find_pico()
    try:
        if "://" in name:
            return serial.serial_for_url(name, baudrate=BAUD, timeout=timeout)
        return serial.Serial(name, BAUD, timeout=timeout, exclusive=True)
    except serial.SerialException as e:
        raise PortError(explain(name, e)) from e
    except ValueError as e:
        raise PortError(f"cannot open {name}: {e}") from e


def explain(name: str, e: Exception) -> str:
    """Why `name` did not open, and the fix on this system."""
    code = getattr(e, "errno", None)
    text = str(e)
    # Windows opens a port for one program at a time and tells the next
    # "Access is denied": there that means busy, not a missing permission.
    windows_busy = sys.platform == "win32" and "Access is denied" in text
    if not windows_busy and (code in (errno.EACCES, errno.EPERM) or "ermission" in text):
        return f"permission denied opening {name}. " + _permission_fix()
    if windows_busy or code == errno.EBUSY or "busy" in text.lower() \
            or "exclusively lock" in text or "in use" in text.lower():
        return (f"{name} is busy: another program has it open (Thonny, mpremote, a serial "
                "monitor, another catnip). Close it and try again.")
    if code == errno.ENOENT or "No such file" in text or "FileNotFoundError" in text:
        return f"{name} does not exist: is the table plugged in? `catnip monitor` finds it " \
               f"by itself when --port is left out (a port here is named like {port_example()})"
    return f"cannot open {name}: {text}"


def _permission_fix() -> str:
    if sys.platform.startswith("linux"):
        return ("On Linux, add yourself to the group that owns the port and log in again: "
                "`sudo usermod -aG dialout $USER` (Arch, Fedora: `uucp`).")
    if sys.platform == "darwin":
        return ("On macOS, close other programs using the port; if it persists, unplug the "
                "table, plug it in again and use the /dev/cu.usbmodem* name.")
    return ("On Windows, close any program using the COM port (Thonny, a terminal), or "
            "unplug and replug the table; check Device Manager for its COM number.")


READ_MAX = 4096  # bytes per read: a burst never holds up the caller for long


class Disconnected(Exception):
    """The port went away (unplugged, the table reset)."""


class Link:
    """One port: frames in (catnip.wire.Reader), commands out."""

    def __init__(self, port: str | None = None, timeout: float = 0.02,
                 opener: Callable[..., serial.SerialBase] = open_port) -> None:
        self.port = port
        self.timeout = timeout
        self.opener = opener
        self.serial: serial.SerialBase | None = None
        self.reader = readable.reader()
        self.cmd = 0

    def open(self) -> None:
        self.serial = self.opener(self.port, timeout=self.timeout)
        self.reader = readable.reader()  # a frame torn by the last unplug is not glued to the next

    def close(self) -> None:
        if self.serial is not None:
            try:
                self.serial.close()
            except (OSError, serial.SerialException):
                pass
        self.serial = None

    @property
    def is_open(self) -> bool:
        return self.serial is not None

    def send(self, kind: str, **fields) -> int:
        """Send a command; returns its number (the answer's "re")."""
        wire.command(kind, fields)
        self.cmd = self.cmd % wire.MAX_SEQ + 1
        self._io(lambda s: s.write(wire.encode(kind, self.cmd, fields, wire.LAPTOP)))
        return self.cmd

    def read(self) -> list[tuple]:
        """What arrived, as catnip.wire.Reader items; waits up to `timeout`."""
        data = self._io(lambda s: s.read(min(max(1, s.in_waiting), READ_MAX)))
        return self.reader.feed(data) if data else []

    def _io(self, call):
        if self.serial is None:
            raise Disconnected("the port is closed")
        try:
            return call(self.serial)
        except (OSError, serial.SerialException) as e:
            self.close()
            raise Disconnected(str(e) or "the port went away") from e
