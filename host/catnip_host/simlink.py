"""The mirror beside the virtual table's stations (`catnip sim`).

The virtual table's firmware gets one end of a pseudo-terminal as its serial
line (devsim/link_runner.py: `pty_line(fd)`), and this side opens the other
end by its /dev/pts path with pyserial, exactly as `catnip monitor` opens a
Pico's /dev/ttyACM0: same Link, Keeper, store and Mirror.

    mirror = SimMirror()                       # before starting the firmware
    subprocess.Popen([... "devsim/virtual.py", ..., "--line-fd", str(mirror.fd)],
                     pass_fds=[mirror.fd])
    mirror.start()
    ... layout["mirror"].update(mirror.render())   # in the sim's refresh
    mirror.stop()
"""

from __future__ import annotations

import os
import threading
import tty
from pathlib import Path

from catnip_host.link import Keeper, Link, serve
from catnip_host.monitor import Mirror, named
from catnip_host.store import Store


class SimMirror:
    def __init__(self, store_path: Path | str | None = None) -> None:
        self.fd, self._slave = os.openpty()  # the firmware's end, and ours
        tty.setraw(self._slave)
        os.set_blocking(self.fd, False)  # the table never waits for the laptop
        self.port = os.ttyname(self._slave)
        self.store_path = store_path
        self.mirror = Mirror()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.keeper: Keeper | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="catnip-mirror", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        store = Store(self.store_path)  # sqlite objects stay in the thread that made them
        keeper = self.keeper = Keeper(Link(self.port), store, notify=self.mirror.note)
        keeper.on_frame = named(self.mirror, keeper)

        def status(text: str) -> None:
            self.mirror.status = f"virtual table on {self.port}: {text}"
            self.mirror.changed = True

        try:
            serve(keeper, lambda: self._stopping, status, pause=0.05)
        finally:
            keeper.link.close()
            store.close()

    @property
    def idle(self) -> bool:
        """Connected, and nothing left to pull."""
        return self.keeper is not None and self.keeper.idle

    @property
    def pulled(self) -> int:
        return len(self.keeper.pulled) if self.keeper is not None else 0

    def render(self):
        return self.mirror.render()

    def stop(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join()
        for fd in (self.fd, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
