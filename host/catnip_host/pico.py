"""The table's Pico at its REPL: taken from the app, its files read and
written, and started again. mpremote's serial transport speaks the raw REPL;
this adds catnip's own steps around it.

Taking the REPL: first the framed "stop" command (docs/link.md): the app
answers "bye", leaves its loop between two moves (every accepted move is on
flash; the journal closes its file) and hands back the REPL. A board
already at its REPL prints a syntax error for that line, which is harmless.
Then Ctrl-C and Ctrl-A reach the raw REPL (the app stops for a Ctrl-C the
same way, read as a byte on its line); an app that answers neither is
wedged, and the BACK-at-power-up recovery is the way in.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass

from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from catnip import wire
from catnip_host import readable
from catnip_host import ports

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
CHUNK = 3072  # file bytes per exec: 4,096 characters of base64
IMPORT_HEAP = 48 * 1024  # the import check forgets what it imported below this much free heap
WEDGED = ("the table's app does not answer: neither the stop command nor Ctrl-C reached "
          "it. Unplug the table, hold BACK on any station while you plug it back in (the app "
          "is skipped and the REPL stays free), then run `catnip deploy` again.")


class PicoError(Exception):
    """The board cannot do what deploying needs; the message says why and what to do."""


@dataclass(frozen=True)
class Waits:
    """Seconds to wait for the board at each step (tests shorten them)."""

    stop: float = 3.0  # for the app to answer "stop"
    repl: float = 5.0  # from "bye" to the REPL's prompt
    raw: float = 2.0  # for the raw REPL, each of `tries` Ctrl-C + Ctrl-A
    tries: int = 3
    boot: float = 20.0  # from the restart to the app answering "hello"
    step: float = 10.0  # between two bytes of a step's answer


class Pico:
    """The board on `port` (found by its USB ids when None), for one deploy."""

    def __init__(self, port: str | None, waits: Waits = Waits()) -> None:
        self.waits = waits
        self.name = port or ports.find_pico()
        ports.open_port(self.name).close()  # PortError says plainly why it cannot open
        try:
            self.transport = SerialTransport(self.name, baudrate=ports.BAUD, timeout=1)
        except TransportError as e:
            raise ports.PortError(f"cannot open {self.name}: {e}") from None
        self.sent = 0  # bytes written to the board
        self.heard: list[str] = []  # lines the board printed that were not frames
        serial = self.transport.serial
        write = serial.write

        def counted(data: bytes) -> int | None:
            self.sent += len(data)
            return write(data)

        serial.write = counted  # every byte mpremote or catnip sends is counted
        self._seq = 0
        self.stopped_app = True  # whether take_repl took the board from a running app
        self.frame: dict = {}  # the last frame _listen waited for
        self._reader = readable.reader()  # the board's output, split into frames and lines
        self._tail = b""  # its last bytes

    def close(self) -> None:
        try:
            self.transport.close()
        except OSError:
            pass

    # ---- taking the REPL -----------------------------------------------------

    def take_repl(self) -> str:
        """Reach the raw REPL; how it was reached, for the person at the laptop."""
        self.command("stop")
        seen = self._listen(self.waits.stop, kind="bye")
        how = "interrupted the app with Ctrl-C"
        if seen == "frame":
            how = "stopped the app (a game in play resumes at the next power-up)"
            self._listen(self.waits.repl)
        elif seen == "prompt":
            how = "found it at the REPL"
            self.stopped_app = False
        for _ in range(self.waits.tries):
            if self._raw_repl():
                return how
        raise PicoError(WEDGED)

    def command(self, kind: str) -> None:
        """A catnip command frame to the app (the REPL ignores it)."""
        self._seq += 1
        self.transport.serial.write(wire.encode(kind, self._seq, {}, mark=wire.LAPTOP))

    def _listen(self, seconds: float, kind: str | None = None) -> str | None:
        """Read the board for up to `seconds`: "frame" once a frame of `kind`
        arrives, "prompt" once the friendly REPL's prompt shows, else None.
        Lines that are not frames go to `heard`; the frame itself to `frame`."""
        serial = self.transport.serial
        deadline = time.monotonic() + seconds
        while True:
            if kind is None and self._tail.endswith(b">>> "):  # the REPL waits after it
                return "prompt"
            if time.monotonic() >= deadline:
                return None
            data = serial.read(serial.in_waiting or 1)
            if not data:
                continue
            self._tail = (self._tail + data)[-16:]
            found = None
            for item in self._reader.feed(data):
                if item[0] == "noise":
                    self.heard.append(item[1])
                elif item[0] == "frame" and item[2] == kind and found is None:
                    self.frame, found = item[3], "frame"
            if found is not None:
                return found
            if self._tail.endswith(b">>> "):
                return "prompt"

    def _raw_repl(self) -> bool:
        serial = self.transport.serial
        serial.write(b"\r\x03\x03")
        time.sleep(0.1)
        while serial.in_waiting:
            serial.read(serial.in_waiting)
        serial.write(b"\r\x01")
        data = self.transport.read_until(1, RAW_BANNER, timeout=self.waits.raw,
                                         timeout_overall=self.waits.raw)
        if not data.endswith(RAW_BANNER):
            return False
        self.transport.in_raw_repl = True
        return True

    # ---- at the raw REPL ------------------------------------------------------

    def run(self, code: str) -> str:
        """Run `code` on the board; what it printed. PicoError carries the
        board's error line."""
        try:
            out, err = self.transport.exec_raw(code, timeout=self.waits.step)
            if err:
                raise TransportExecError(out, err.decode(errors="replace"))
            return out.decode(errors="replace")
        except TransportExecError as e:
            last = e.error_output.strip().splitlines()[-1:] or ["(no message)"]
            raise PicoError(f"the board refused a step of the deploy: {last[0]}") from None
        except TransportError as e:
            raise PicoError(f"the board stopped answering during the deploy ({e}): plug it "
                            "in again and run `catnip deploy` again; it sends what is "
                            "missing") from None

    def result(self, code: str):
        """The JSON the last line `code` prints."""
        out = self.run(code).strip().splitlines()
        try:
            return json.loads(out[-1])
        except (IndexError, ValueError):
            raise PicoError(f"the board gave no answer to a deploy step: {out[-3:]}") from None

    def survey(self, configs: tuple[str, ...]) -> dict:
        """What the board holds: its .mpy format, every file (path: size; a
        folder as -1), the manifest if any, the SHA-256 of each of `configs`
        present, the free flash, and the catnip frozen into its MicroPython
        ({"fw", "src"}: the catnip image) or None (a stock MicroPython)."""
        return self.result(_SURVEY % (configs,))

    def write(self, path: str, data: bytes) -> None:
        """`data` as the board's file `path`, whole or not at all (written beside it, then
        renamed over it). Text goes as it is, other bytes as base64."""
        tmp = path + ".part"
        text = _lines(data)
        self.run(f"import binascii,os\nf=open({tmp!r},'wb')\nw=f.write\nb=binascii.a2b_base64")
        for at in range(0, len(data), CHUNK):
            chunk = data[at:at + CHUNK]
            self.run(f"w({chunk.decode()!r})" if text else f"w(b({base64.b64encode(chunk)!r}))")
        self.run(f"f.close()\nos.rename({tmp!r},{path!r})\ndel f,w,b")

    def mkdir(self, path: str) -> None:
        self.run(f"import os\nos.mkdir({path!r})")

    def remove(self, path: str) -> None:
        self.run(f"import os\nos.remove({path!r})")

    def rmdir(self, path: str) -> None:
        self.run(f"import os\nos.rmdir({path!r})")

    def hashes(self, paths: list[str]) -> dict[str, str | None]:
        """SHA-256 (hex) of each of the board's files `paths`, None if missing."""
        return self.result(_HASHES % (paths,))

    def imports(self, modules: list[str], board_file: str) -> dict:
        """Import each module on the board (each loads once; what was imported
        is forgotten whenever the heap runs low), then load its board file
        with the board's own catnip.board: {"failed": [[module, error]...],
        "board": {"name", "stations"} or {"problems": [text...]}}."""
        return self.result(_IMPORTS % (modules, IMPORT_HEAP, board_file))

    # ---- restarting -------------------------------------------------------------

    def restart(self) -> dict | None:
        """Soft-reset the board so main.py starts the app, and ask it hello
        until it answers: its hello fields, or None if it did not answer."""
        self.transport.exit_raw_repl()
        self.transport.serial.write(b"\x04")  # at the friendly REPL: soft reboot, main.py runs
        return self.hello()

    def hello(self) -> dict | None:
        """Ask the app hello until it answers (for up to waits.boot seconds):
        its hello fields, or None if it did not answer."""
        deadline = time.monotonic() + self.waits.boot
        while time.monotonic() < deadline:
            self.command("hello")
            if self._listen(min(1.0, deadline - time.monotonic()), kind="hello") == "frame":
                return self.frame
        return None


def _lines(data: bytes) -> bool:
    """Whether `data` is plain text in lines (JSON, Python source)."""
    return data.isascii() and all(line.isprintable() for line in data.decode().split("\n"))


# The board-side steps: small, allocation-light, printing one JSON line.
_SHA = """\
import hashlib,binascii
def _sha(p):
 h=hashlib.sha256()
 with open(p,'rb') as f:
  while 1:
   b=f.read(512)
   if not b:break
   h.update(b)
 return binascii.hexlify(h.digest()).decode()
"""

_SURVEY = _SHA + """\
import os,sys,json
def _walk(d,out):
 for e in os.ilistdir(d or '.'):
  p=d+'/'+e[0] if d else e[0]
  if e[1]&0x4000:
   out[p]=-1
   _walk(p,out)
  else:
   out[p]=e[3] if len(e)>3 else os.stat(p)[6]
 return out
_f=_walk('',{})
try:
 _m=json.load(open('catnip.manifest'))
except (OSError,ValueError):
 _m=None
_s=os.statvfs('.') if hasattr(os,'statvfs') else None
def _drop():
 for k in [k for k in sys.modules if k=='catnip' or k.startswith('catnip.')]:
  del sys.modules[k]
_p=sys.path[:]
_drop()
sys.path[:]=['.frozen']
try:
 import catnip.release as _r
 _i={'fw':_r.VERSION,'src':_r.SOURCES} if _r.FROZEN else None
except ImportError:
 _r=_i=None
sys.path[:]=_p
_drop()
print(json.dumps({'mpy':getattr(sys.implementation,'_mpy',0),'files':_f,'manifest':_m,
 'configs':{p:_sha(p) for p in %r if p in _f},'free':_s[0]*_s[3] if _s else None,
 'image':_i}))
del _walk,_f,_m,_s,_p,_i,_r,_drop
"""

_HASHES = _SHA + """\
import json
_h={}
_p=None
for _p in %r:
 try:
  _h[_p]=_sha(_p)
 except OSError:
  _h[_p]=None
 print(end='.')
print()
print(json.dumps(_h))
del _h,_p
"""

_IMPORTS = """\
import sys,gc,json
def _fresh():
 for k in list(sys.modules):
  if k=='catnip' or k.startswith('catnip.'):
   del sys.modules[k]
 globals().pop('catnip',None)
 gc.collect()
_bad=[]
_fresh()
for _n in %r:
 if gc.mem_free()<%d:
  _fresh()
 try:
  try:
   __import__(_n)
  except MemoryError:
   _fresh()
   __import__(_n)
 except Exception as e:
  _bad.append([_n,repr(e)])
 print(end='.')
_fresh()
from catnip.board import BoardError,load
try:
 _b=load(%r)
 _b={'name':_b.name,'stations':len(_b.stations)}
except BoardError as e:
 _b={'problems':e.problems}
print()
print(json.dumps({'failed':_bad,'board':_b}))
del _bad,_b,load,BoardError
_fresh()
"""
