"""`catnip monitor`: the table's public state, live in the terminal.

A Mirror is the public state as the stream frames tell it (pure: tests and
`catnip sim` feed it frames); render() draws it with rich. watch() joins a
Mirror, a Keeper (which stores everything as it arrives) and the port, and
keeps going when the table is unplugged and plugged in again.
"""

from __future__ import annotations

import time
from collections import deque

from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from catnip import wire
from catnip_host.link import Keeper, Link, serve
from catnip_host.store import Store

TITLES = {"heist": "Meow Heist", "stack": "Stack O' Cats", "purrfect": "Purrfect"}
GEMS = ("red", "yellow", "blue", "rocks")
FEED = 12


class Mirror:
    def __init__(self) -> None:
        self.status = "looking for the table"
        self.game: str | None = None
        self.gid: int | None = None
        self.seats: list[int] = []
        self.public: dict | None = None
        self.moves = 0
        self.result: dict | None = None
        self.notice: str | None = None
        self.feed: deque[str] = deque(maxlen=FEED)
        self.frames = 0
        self.updated = 0.0  # time.monotonic() of the last frame
        self.changed = True  # since the last render()

    def apply(self, kind: str, f: dict) -> None:
        """One frame the table sent (stream frames in order, snapshots), in
        any order of begin, snap and resync: a frame whose fields are not
        what its kind needs (catnip.wire.MESSAGES) is named and skipped."""
        why = wire.fields_problem(kind, f)
        if why is not None:
            self.note(f"a malformed {kind} frame was skipped ({why})")
            return
        self.frames += 1
        self.changed = True
        self.updated = time.monotonic()
        if kind == "begin":
            game, gid = f["header"]["game"], f["gid"]
            if (game, gid) != (self.game, self.gid):
                self.public = None  # another game's state: this one's comes in its snap
            self.game, self.gid = game, gid
            self.seats, self.moves, self.result = f["seats"], f["moves"], None
            self.feed.append(f"{TITLES.get(self.game, self.game)} begins (game {self.gid})")
        elif kind == "snap":
            self.game, self.gid, self.public = f.get("game"), f.get("gid"), f.get("public")
            if self.public is None:
                self.gid, self.result = None, None
        elif kind == "act":
            self.moves = f["n"]
            for ev in f["events"]:
                self.feed.append(describe(ev))
        elif kind == "end":
            self.result = f["result"]
            self.feed.append("the game is over")
        elif kind == "say":
            self.notice = f["text"]
            self.feed.append(f"» {f['text']}")
        elif kind == "lost":
            self.feed.append(f"» game {f['gid']} ({TITLES.get(f['game'], f['game'])}, "
                             f"{f['status']}) is gone from the table's journal: {f['why']}")

    def table_build(self, hello: dict) -> None:
        """The table said hello: which catnip it runs, against this one's."""
        from catnip_host.image import agreement

        same, sentence = agreement(hello)
        self.note(sentence if same else "NOTE: " + sentence)

    def note(self, text: str) -> None:
        """Something the laptop's side has to say (a gap, a pull, an error)."""
        self.feed.append(f"[laptop] {text}")
        self.changed = True

    # ---- drawing ----------------------------------------------------------------

    def render(self) -> Panel:
        self.changed = False
        parts: list = [Text(self.status, style="dim")]
        if self.frames == 0:
            parts.append(Text("Waiting for the table.", style="bold"))
        elif self.game is not None and self.gid is not None and self.public is None:
            parts.append(Text(f"{TITLES.get(self.game, self.game)} (game {self.gid}): waiting "
                              "for the table's state", style="bold"))
        elif self.game is None or self.public is None:
            parts.append(Text("No game in play: choose one on any station.", style="bold"))
        else:
            title = f"{TITLES.get(self.game, self.game)}, move {self.moves}"
            parts.append(Text(title, style="bold"))
            parts.append(_drawn(getattr(self, "_" + self.game, self._other), self.public))
        if self.result is not None:
            parts.append(_drawn(_standings, self.result))
        feed = Text("\n".join(self.feed) or "(no events yet)")
        parts.append(Panel(feed, title="events", title_align="left"))
        return Panel(Group(*parts), title="catnip monitor", title_align="left")

    def _heist(self, v: dict) -> Group:
        about = (f"round {v['round']} of {v['rounds']}, safe card {v['safe_card']}, "
                 f"{v['safe_cards_left']} safe cards left; the bag holds {v['bag']}")
        t = Table("player", "locked", *GEMS)
        for p, seat in enumerate(v["seats"]):
            t.add_row(f"P{p + 1}", "yes" if seat["committed"] else "", *map(str, seat["loot"]))
        return Group(Text(about), t)

    def _stack(self, v: dict) -> Group:
        turn = "" if v["turn"] is None else f"P{v['turn'] + 1} to {v['step']}; "
        about = (f"{turn}tower {v['tower']} cats ({v['tower_black']} black), "
                 f"{v['fallen']} fallen, {v['bag_left']} in the bag")
        t = Table("player", "score")
        for p, score in enumerate(v["scores"]):
            t.add_row(f"P{p + 1}" + (" <" if p == v["turn"] else ""), str(score))
        return Group(Text(about), t)

    def _purrfect(self, v: dict) -> Group:
        legend = ", ".join(f"{k + 1} cards: {' / '.join(m)}" for k, m in enumerate(v["meows"]))
        t = Table("player", "pawprints")
        for p, paws in enumerate(v["pawprints"]):
            t.add_row(f"P{p + 1}", str(paws))
        parts = [Text(f"round {v['round']}; meows {legend}"), t]
        if v.get("offers"):
            offers = Table("offer", "by", "meow", title="open offers", title_justify="left")
            for o in v["offers"]:
                offers.add_row(str(o["offer"]), f"P{o['player'] + 1}", str(o["meow"]))
            parts.append(offers)
        else:
            parts.append(Text("no open offers"))
        return Group(*parts)

    def _other(self, v: dict) -> Text:
        return Text(", ".join(f"{k}: {v[k]}" for k in sorted(v)))


def _drawn(draw, state: dict):
    """draw(state), or the state's fields as text when it is not shaped as
    this catnip expects (a newer table, a damaged frame): never a crash."""
    try:
        return draw(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return Text(", ".join(f"{k}: {state[k]!r:.60}" for k in sorted(state)))


def describe(ev: dict) -> str:
    """One public event in a line."""
    kind = ev.get("type") or ev.get("event") or "event"
    who = f"P{ev['player'] + 1} " if isinstance(ev.get("player"), int) else ""
    rest = ", ".join(f"{k} {ev[k]}" for k in sorted(ev) if k not in ("type", "event", "player"))
    return f"{who}{kind}" + (f": {rest}" if rest else "")


def _standings(result: dict) -> Table:
    t = Table("rank", "player", title="standings", title_justify="left")
    ranks = result.get("ranks", [])
    for p in sorted(range(len(ranks)), key=lambda p: (ranks[p], p)):
        t.add_row(str(ranks[p]), f"P{p + 1}")
    return t


class _Told(deque):
    """The feed, each line also written out as it comes (when the output is a
    file or a pipe, where a live picture would write nothing)."""

    def __init__(self, write) -> None:
        super().__init__(maxlen=FEED)
        self.write = write

    def append(self, line: str) -> None:
        super().append(line)
        self.write(line)


def watch(port: str | None, store: Store, console=None) -> None:
    """Mirror and store the table on `port` (found by its USB ids when None)
    until Ctrl-C; as a line per event when the output is not a terminal
    (`catnip monitor > log`)."""
    from rich.console import Console

    console = console or Console()
    mirror = Mirror()
    keeper = Keeper(Link(port), store, notify=mirror.note, on_frame=mirror.apply)
    plain = not console.is_terminal

    def line(text: str) -> None:
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}", file=console.file, flush=True)

    def status(text: str) -> None:
        mirror.status = text if text != "connected" else \
            f"connected to {port or 'the Pico'}, storing in {store.path}"
        mirror.changed = True
        if plain:
            line(mirror.status)

    told: list[dict] = []  # the hello whose build was told

    def tell_build() -> None:
        if keeper.hello and (not told or told[-1] is not keeper.hello):
            told.append(keeper.hello)
            mirror.table_build(keeper.hello)

    if plain:
        mirror.feed = _Told(line)

        def heard() -> bool:
            tell_build()
            return False

        try:
            serve(keeper, heard, status)
        except KeyboardInterrupt:
            pass
        finally:
            keeper.link.close()
        return
    with Live(mirror.render(), console=console, refresh_per_second=8, screen=False) as live:
        def until() -> bool:
            tell_build()
            if mirror.changed:
                live.update(mirror.render())
            return False

        try:
            serve(keeper, until, status)
        except KeyboardInterrupt:
            pass
        finally:
            keeper.link.close()
