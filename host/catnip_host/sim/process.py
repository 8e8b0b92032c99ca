"""The virtual table's process: MicroPython running devsim/virtual.py, fed
one command a line, and a reader thread that turns its output into
messages."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from typing import Any, Iterator

from catnip_host.sim.paths import SimError, environment
from catnip_host.sim.state import TableState

class Table:
    """A running virtual table: the MicroPython process and a reader thread
    that turns its output into messages."""

    def __init__(self, args: list[str], detach: bool = False, pass_fds: tuple = ()) -> None:
        # detach: Ctrl-C at the keyboard is for us (we quit the table cleanly),
        # not for the MicroPython process sharing the terminal.
        extra: dict[str, Any] = {}
        if detach:
            if os.name == "nt":
                extra["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore
            else:
                extra["start_new_session"] = True
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1,
                                     encoding="utf-8", env=environment(), pass_fds=pass_fds,
                                     **extra)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.messages.put(json.loads(line))
            except ValueError:
                self.messages.put({"k": "noise", "text": line.rstrip()})  # a traceback, a print
        self.messages.put(None)

    def send(self, line: str) -> None:
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass

    def drain(self, timeout: float = 0.0) -> Iterator[dict[str, Any]]:
        """Messages waiting now (waiting up to `timeout` for the first)."""
        try:
            m = self.messages.get(timeout=timeout) if timeout else self.messages.get_nowait()
        except queue.Empty:
            return
        while True:
            if m is None:
                self.messages.put(None)  # stays at the end for the next caller
                return
            yield m
            try:
                m = self.messages.get_nowait()
            except queue.Empty:
                return

    def wait_ready(self, state: TableState, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while not state.stations:
            if time.monotonic() > end:
                raise SimError("the virtual table did not start within %d s" % timeout)
            for m in self.drain(0.1):
                if m.get("k") in ("error", "crash"):
                    raise SimError(m["why"])
                state.apply(m)
            if self.proc.poll() is not None and self.messages.empty():
                raise SimError("the virtual table stopped: " + self.errors())

    def errors(self) -> str:
        if self.proc.stderr is None:
            return ""
        try:
            return self.proc.stderr.read().strip() or f"exit status {self.proc.returncode}"
        except ValueError:
            return ""

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


