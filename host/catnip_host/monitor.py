"""`catnip monitor`: the table's public state, live in the terminal.

A Mirror is the public state as the stream frames tell it (pure: tests and
`catnip sim` feed it frames); render() draws it with rich. watch() joins a
Mirror, a Keeper (which stores everything as it arrives) and the port, and
keeps going when the table is unplugged and plugged in again.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Column, Table
from rich.text import Text

from catnip import wire
from catnip.rules import TITLES
from catnip_host import kinds
from catnip_host.link import PHONE_KINDS, Keeper, Link, serve
from catnip_host.results import common, in_events
from catnip_host.store import Store
from catnip_host.words import STEPS, Words, gems, given, plain, plural
from catnip_host.words import kind as kind_of

FEED = 12


class Mirror:
    def __init__(self) -> None:
        self.status = "looking for the table"
        self.game: str | None = None
        self.gid: int | None = None
        self.seats: list[int] = []
        self.names: tuple[str, ...] = ()  # given to the session's seats (catnip players name)
        self.public: dict | None = None
        self.moves = 0
        self.result: dict | None = None
        self.tray: dict | None = None  # the tray's last "tray" frame in a Stack O' Cats game
        self.notice: str | None = None
        self.feed: deque[str] = deque(maxlen=FEED)
        self.frames = 0
        self.updated = 0.0  # time.monotonic() of the last frame
        self.changed = True  # since the last render()

    @property
    def words(self) -> Words:
        return Words(self.names)

    def apply(self, kind: str, f: dict) -> None:
        """One frame the table sent (stream frames in order, snapshots), in
        any order of begin, snap and resync: a frame whose fields are not
        what its kind needs (catnip.wire.MESSAGES) is named and skipped.
        A phone seat's view and the answers about phone seats are that
        seat's alone: the mirror takes nothing of them."""
        if kind in PHONE_KINDS or kind == wire.ERR:
            return
        why = kinds.fields_problem(kind, f)
        if why is not None:
            self.note(f"a malformed {kind} frame was skipped ({why})")
            return
        self.frames += 1
        self.changed = True
        self.updated = time.monotonic()
        if kind == wire.BEGIN:
            game, gid = f["header"]["game"], f["gid"]
            if (game, gid) != (self.game, self.gid):
                self.public = self.tray = None  # another game's: this one's comes in its frames
            self.game, self.gid = game, gid
            self.seats, self.moves, self.result = f["seats"], f["moves"], None
            self.tell(f"{TITLES.get(self.game, self.game)} begins (game {self.gid})", "begin")
        elif kind == wire.SNAP:
            self.game, self.gid, self.public = f.get("game"), f.get("gid"), f.get("public")
            if self.public is None:
                self.gid, self.result, self.tray = None, None, None
        elif kind == wire.TRAY:
            self.tray = f
        elif kind == wire.ACT:
            self.moves = f["n"]
            for ev in in_events(f["events"]):  # as an older table may have shaped them
                self.tell(self.words.event(ev), kind_of(ev), f["n"])
        elif kind == wire.END:
            self.result = common(f["result"])  # as an older table may have shaped it
            self.tell(f"Game over: {self.words.end(self.game, self.result)}", "end")
        elif kind == wire.SAY:
            self.notice = f["text"]
            self.tell(f"The table: {f['text']}", "say")
        elif kind == wire.LOST:
            self.tell(f"The table: game {f['gid']} ({TITLES.get(f['game'], f['game'])}, "
                      f"{f['status']}) is gone from its journal: {f['why']}", "lost")

    def tell(self, text: str, kind: str, move: int | None = None) -> None:
        """A line of the feed: what happened (`kind`), at which move."""
        self.feed.append(text)

    def table_build(self, hello: dict) -> None:
        """The table said hello: which catnip it runs, against this one's."""
        from catnip_host.image import agreement

        same, sentence = agreement(hello)
        self.note(sentence if same else "NOTE: " + sentence)

    def note(self, text: str) -> None:
        """Something the laptop's side has to say (a gap, a pull, an error)."""
        self.tell(f"The laptop: {text}", "note")
        self.changed = True

    def standings(self) -> tuple[str, list[str], list[list[str]]] | None:
        """The end in a sentence, and the standings' heads and rows."""
        if self.result is None:
            return None
        try:
            head, rows = self.words.standings(self.game, self.result)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            head, rows = ["the table's result"], [[plain(self.result)]]  # shaped otherwise
        return self.words.end(self.game, self.result), head, rows

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
        standings = self.standings()
        if standings is not None:
            end, head, rows = standings
            # Text, never markup, whatever a result holds (a name, a number, a bent field)
            t = Table(*(Column(Text(str(h))) for h in head), title="standings",
                      title_justify="left")
            for row in rows:
                t.add_row(*(Text(str(cell)) for cell in row))
            parts += [Text(f"Game over: {end}", style="bold"), t]
        feed = Text("\n".join(self.feed) or "(no events yet)")
        parts.append(Panel(feed, title="events", title_align="left"))
        return Panel(Group(*parts), title="catnip monitor", title_align="left")

    def _heist(self, v: dict) -> Group:
        w = self.words
        about = (f"round {v['round']} of {v['rounds']}, safe card {v['safe_card']}, "
                 f"{plural(v['safe_cards_left'], 'safe card')} left, "
                 f"{plural(v['cards_per_round'], 'card')} each; {_heist_turn(w, v)}")
        gems_now = f"in the safe: {gems(v['safe'])}; in the bag: {gems(v['bag'])}"
        t = Table("player", "this round", "cards left", "revealed", "holds on the table",
                  caption="each score stays behind its shield until the end",
                  caption_justify="left")
        for p, seat in enumerate(v["seats"]):
            shown = ", ".join(str(card) for q, card, _ in v["table"] if q == p)
            t.add_row(Text(w.seat(p)), "locked" if seat["committed"] else "choosing",
                      str(seat["hand"]), shown, gems(seat["loot"]) if shown else "")
        return Group(Text(about), Text(gems_now), t)

    def _stack(self, v: dict) -> Group:
        w = self.words
        hand = f" the {v['hand']} cat" if v.get("hand") else ""
        turn = "" if v["turn"] is None else \
            f"{w.seat(v['turn'])} to {STEPS.get(v['step'], v['step'])}{hand}; "
        about = (f"{turn}tower {plural(v['tower'], 'cat')} ({v['tower_black']} black), "
                 f"{v['fallen']} fallen, {v['bag_left']} in the bag")
        if "team" in v:
            return Group(Text(about), Text(f"the Clowder’s score: {v['team']}"))
        t = Table("player", "score")
        for p, score in enumerate(v["scores"]):
            t.add_row(Text(w.seat(p) + (" <" if p == v["turn"] else "")), str(score))
        said = tray_words(self.tray)
        return Group(Text(about), *([Text(said)] if said else []), t)

    def _purrfect(self, v: dict) -> Group:
        w = self.words
        legend = ", ".join(f"{plural(k + 1, 'card')}: {' / '.join(m)}"
                           for k, m in enumerate(v["meows"]))
        t = Table("player", "pawprints")
        for p, paws in enumerate(v["pawprints"]):
            t.add_row(Text(w.seat(p)), str(paws))
        parts: list[RenderableType] = [Text(f"round {v['round']}; meows {legend}"), t]
        if "offers" not in v:
            parts.append(Text("the cards are on the table (scorekeeper)"))
        elif v["offers"]:
            offers = Table("offer", "by", "meow", title="open offers", title_justify="left")
            for o in v["offers"]:
                offers.add_row(str(o["offer"]), Text(w.seat(o["player"])), Text(str(o["meow"])))
            parts.append(offers)
        else:
            parts.append(Text("no open offers"))
        return Group(*parts)

    def _other(self, v: dict) -> Text:
        return Text(", ".join(f"{k}: {plain(v[k])}" for k in sorted(v)))


def _heist_turn(w: Words, v: dict) -> str:
    """Who the round waits for."""
    if v["phase"] == "gems":
        return f"{w.seat(v['start'])} enters the gems drawn"
    if v["phase"] == "play":
        return f"waiting for {w.seats(v['to_act'])} to play"
    if v["phase"] == "reveal":
        return f"{w.seat(v['turn'])} reveals next"
    return "the game is over"


def _drawn(draw, state: dict):
    """draw(state), or the state's fields as text when it is not shaped as
    this catnip expects (a newer table, a damaged frame): never a crash."""
    try:
        return draw(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return Text(", ".join(f"{k}: {plain(state[k]):.60}" for k in sorted(state)))


def named(mirror: Mirror, keeper: Keeper) -> Callable[[str, dict], None]:
    """A Keeper's on_frame: every frame applied to `mirror` with the names
    given so far to the session's seats, read from the store the Keeper
    writes (in its own thread), so a name given meanwhile shows next. They
    are read again only when the store says they may have changed
    (Store.names_version): reading them means reading every game's names,
    which over a long evening's store would cost more than the frame."""
    read: list = [None, ()]  # [the store's names_version and session, the names]

    def on_frame(kind: str, fields: dict) -> None:
        if keeper.session is not None:
            version = (keeper.session, keeper.store.names_version())
            if version != read[0]:
                read[:] = [version, given(keeper.store, keeper.session)]
            mirror.names = read[1]
        mirror.apply(kind, fields)
    return on_frame


def tray_words(tray: dict | None) -> str | None:
    """A "tray" frame in a line: what the tray proposes to the player whose
    attempt it is, as the station shows it, the lean, what keeps it from
    weighing; None before the table has said anything of a tray."""
    if tray is None:
        return None
    parts = []
    kind, value, conf = tray.get("proposes"), tray.get("value", 0), tray.get("conf")
    if kind == "place":
        parts.append(f"the tray saw {plural(value, 'cat')} placed, {conf}% sure")
    elif kind == "collapse" and conf:
        parts.append(f"the tray saw {plural(value, 'cat')} fall, {conf}% sure")
    elif kind == "collapse":
        parts.append(f"the tray asks how many fell ({value} or more?)" if value
                     else "the tray asks how many fell")
    elif kind == "cats":
        parts.append(f"the tray asks how many cats are on it ({value}?)")
    lean = tray.get("lean")
    if lean:
        parts.append(f"lean {lean_words(lean)}")
    if tray.get("fault"):
        parts.append(f"tray: {tray['fault']}")
    return "; ".join(parts) or None


def lean_words(lean: list) -> str:
    """[r, x, y] (thousandths of the way to the edge of the support, x to
    the right, y to the back) as "36% to the right-front"."""
    r, x, y = lean
    if r < 50:
        return "centred"
    side = "right" if 3 * x > r else "left" if 3 * x < -r else ""
    end = "back" if 3 * y > r else "front" if 3 * y < -r else ""
    edge = " (past the edge)" if r > 1000 else ""
    return f"{r // 10}% to the {'-'.join(w for w in (side, end) if w)}{edge}"


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
    keeper = Keeper(Link(port), store, notify=mirror.note)
    keeper.on_frame = named(mirror, keeper)
    piped = not console.is_terminal

    def line(text: str) -> None:
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}", file=console.file, flush=True)

    def status(text: str) -> None:
        # Said when it changes, not at every retry: a log left running with
        # no table gets one line, not five a second.
        text = text if text != "connected" else \
            f"connected to {port or 'the Pico'}, storing in {store.path}"
        if text == mirror.status:
            return
        mirror.status = text
        mirror.changed = True
        if piped:
            line(text)

    told: list[dict] = []  # the hello whose build was told

    def tell_build() -> None:
        if keeper.hello and (not told or told[-1] is not keeper.hello):
            told.append(keeper.hello)
            mirror.table_build(keeper.hello)

    if piped:
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
