"""The table in a terminal: each station's screen drawn as text cells,
braille or half blocks, the legend, the status lines and the feed, and what
each key does."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catnip_host.sim.settings import VIEWS as VIEW_ORDER
from catnip_host.sim.settings import Settings, snapshots_dir
from catnip_host.sim.state import Screen, TableState

if TYPE_CHECKING:
    from rich.text import Text

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


def cell_text(screen: Screen) -> Text:
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

    def __init__(self, state: TableState, send: Any, size: Any, mirror: Any = None,
                 settings: Settings | None = None, snapshots: Path | None = None) -> None:
        self.state = state
        self.settings = settings or Settings()  # the view `v` chose last (kept if it has a path)
        self.snapshots = snapshots  # where `S` saves (None: the per-user snapshots folder)
        self.mirror = mirror  # the laptop's mirror (catnip_host.simlink), or None
        self.laptop = False  # showing the mirror in place of the stations
        self.send = send  # a command line to the table
        self.size = size  # () -> (columns, rows)
        self.focus = 1
        self.view = self.settings.view
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
            self.settings.view = self.view
            problem = self.settings.save()  # the next `catnip sim` opens in it
            if problem:
                self.state.feed.append(problem)
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
        folder = self.snapshots or snapshots_dir()
        path = folder / f"catnip-station{self.focus}-{time.strftime('%Y%m%d-%H%M%S')}.png"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            save_png(screen.image, screen.height, path)
        except OSError as e:
            self.state.feed.append(f"not saved in {folder}: {e.strerror}")
            return
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


