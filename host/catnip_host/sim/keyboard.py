"""Keys one at a time from the terminal, by name."""

from __future__ import annotations

import os
import sys
import time

ESCAPES = {"\x1b[A": "up", "\x1b[B": "down", "\x1bOA": "up", "\x1bOB": "down",
           "\x1b[C": "right", "\x1b[D": "left", "\x1b[Z": "backtab"}
SINGLE = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace",
          "\t": "tab", "\x03": "ctrl-c", "\x1b": "backspace"}


def parse_keys(data: str) -> list[str]:
    """Keys in what the terminal sent: arrows, Enter, Backspace (and Esc),
    Tab, Ctrl-C by name, every other character as itself."""
    keys = []
    i = 0
    while i < len(data):
        for seq, name in ESCAPES.items():
            if data.startswith(seq, i):
                keys.append(name)
                i += len(seq)
                break
        else:
            keys.append(SINGLE.get(data[i], data[i]))
            i += 1
    return keys


WINDOWS_KEYS = {"H": "up", "P": "down", "K": "left", "M": "right"}


class Keyboard:
    """Keys one at a time, unbuffered: termios cbreak mode on Linux and
    macOS (Ctrl-C still interrupts), msvcrt on Windows (arrows come as a
    0xE0 prefix and a letter)."""

    def __enter__(self) -> "Keyboard":
        self.windows = os.name == "nt"
        if not self.windows:
            import termios
            import tty

            self.fd = sys.stdin.fileno()
            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.windows:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def read(self, timeout: float) -> list[str]:
        if self.windows:
            return self._read_windows(timeout)
        import select

        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        return parse_keys(os.read(self.fd, 64).decode(errors="replace"))

    def _read_windows(self, timeout: float) -> list[str]:
        import msvcrt

        end = time.monotonic() + timeout
        while not msvcrt.kbhit():  # type: ignore[attr-defined]
            if time.monotonic() > end:
                return []
            time.sleep(0.01)
        keys = []
        while msvcrt.kbhit():  # type: ignore[attr-defined]
            ch = msvcrt.getwch()  # type: ignore[attr-defined]
            if ch in ("\x00", "\xe0"):
                keys.append(WINDOWS_KEYS.get(msvcrt.getwch(), "?"))  # type: ignore[attr-defined]
            else:
                keys.append(SINGLE.get(ch, ch))
        return keys


# ---- the interactive table ------------------------------------------------------
