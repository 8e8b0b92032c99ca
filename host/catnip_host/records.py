"""The plays in the session store: every game pulled from a table, rebuilt
with the shared rules (catnip.rules.replay) from its revealed seed and moves,
with who sat where (catnip_host.players) and when it was played.

Nothing here scores a game: scores, ranks and winners are read from the
rules' own result() and public state. Export, stats and charts all start
from load().
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from catnip import rules
from catnip.rules import TITLES
from catnip.rules.about import about, applies
from catnip.rules.engine import Game, RuleError
from catnip_host import players as seating
from catnip_host import verify

READS = ("begin", "end", "game", "entry", "page")  # a game's frames that say when, and what was played
VIRTUAL_TABLE = "ca7f000d5e110001"  # devsim/machine.py's unique_id(): `catnip sim`'s table


@dataclass(frozen=True)
class Play:
    """One pulled game, as the rules replay it."""

    table: str  # the table's unique id
    gid: int  # the table's journal number for it
    session: int  # where it began (or was pulled, if played while no laptop listened)
    began: float | None  # Unix time it began; None when nobody knows
    ended: float | None  # Unix time its end was announced live; None if not seen
    record: dict  # the rules' record: game, config, seed_commit, seed, salt, log, finished
    result: dict | None  # the rules' result(); None for an abandoned game
    players: tuple[str, ...]  # a name per seat (catnip players)
    played_ms: int | None = None  # its length by the table's own ticks, when one run of them
    # Where `began` comes from: live, table (its clock), uptime (its ticks, read
    # back at the pull in the same power-up), person, approximate (the pull's
    # time: played before it), unknown.
    dated: str = "live"

    @property
    def approximate(self) -> str | None:
        """Why its date is only approximate, or None when it is not."""
        if self.dated != "approximate":
            return None
        return ("approximate: played before the table was pulled, on an earlier power-up "
                "of it that no laptop saw and without a clock module")

    @property
    def name(self) -> str:
        return self.record["game"]

    @property
    def title(self) -> str:
        """The game's name, with the choices that make a game of their own
        where they are not the first (Stack O' Cats' modes: each scores
        differently)."""
        apart = [name for o, name in self._chosen() if o.get("apart") and o["choices"].index(
            self.record["config"][o["key"]])]
        return ": ".join([TITLES[self.name], *apart])

    @property
    def game(self) -> str:
        """The published game this is a play of (BGG and BG Stats know one
        Stack O' Cats; the mode is the play's variant)."""
        return TITLES[self.name]

    @property
    def variant(self) -> str:
        """How it was played, in the words of the rulebooks: the names the
        game's description gives its settings' choices (Stack O' Cats' mode
        and the Black Cat variant, Meow Heist's original edition); "" for the
        standard game."""
        return ", ".join(name for _, name in self._chosen() if name)

    def _chosen(self) -> list[tuple[dict, str]]:
        """(option, the name of its choice) for each option of the game's
        description that applies to this play's settings."""
        config, d = self.record["config"], about(self.name)
        return [(o, o["names"][o["choices"].index(config[o["key"]])])
                for o in d["options"] if o["key"] in config and applies(d, o["key"], config)]

    @property
    def virtual(self) -> bool:
        """Played on the virtual table (catnip sim), not a real one."""
        return self.table == VIRTUAL_TABLE

    def anonymous(self, seat: int) -> bool:
        """Nobody named this seat (it is still "S3 P1")."""
        return seating.is_unnamed(self.players[seat])

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def clowder(self) -> bool:
        """Its seats played as one team for one score (the Clowder)."""
        return self.result is not None and bool(self.result["together"])

    @property
    def lower_wins(self) -> bool:
        return self.result is not None and bool(self.result["fewest"])

    @property
    def date(self) -> dt.datetime | None:
        """When it began, in local time; None when nobody knows."""
        return None if self.began is None else dt.datetime.fromtimestamp(self.began).astimezone()

    @property
    def end(self) -> dt.datetime | None:
        return None if self.ended is None else dt.datetime.fromtimestamp(self.ended).astimezone()

    @property
    def minutes(self) -> int | None:
        """Whole minutes from its beginning to its end, by the clocks, else
        by the table's ticks (a game nobody dated still has a length)."""
        if self.ended is not None and self.began is not None:
            return max(0, round((self.ended - self.began) / 60))
        return None if self.played_ms is None else round(self.played_ms / 60000)

    @property
    def start_player(self) -> int | None:
        return self.record["config"].get("start")

    @property
    def actions(self) -> list[list]:
        return self.record["log"]

    def scores(self) -> list[int]:
        """Each seat's final score as the rules' result gives it."""
        return list(self.final()["scores"])

    def final(self) -> dict:
        """The rules' result, which only a finished game has."""
        if self.result is None:
            raise ValueError(f"game {self.gid} of session {self.session} has no result: "
                             "it was abandoned")
        return self.result

    def winners(self) -> list[int]:
        """Seats that won. The Clowder plays as one team for a high score
        and has no winner."""
        return [] if self.result is None else list(self.result["winners"])


def standing(game) -> list[int]:
    """Each seat's score in a game being replayed, as the rules count it
    now (in Meow Heist the loot behind the shields too)."""
    return game.standing()


@dataclass
class Filter:
    """Which plays: any of these sessions, from `since` to `until` (local
    dates, both included), one game (heist, stack or purrfect) and one
    player (a name, after merges). Empty fields do not filter."""

    sessions: tuple[int, ...] = ()
    since: dt.date | None = None
    until: dt.date | None = None
    game: str | None = None
    player: str | None = None

    def keeps(self, play: Play) -> bool:
        day = play.date and play.date.date()  # a game of unknown date is in no range
        return ((not self.sessions or play.session in self.sessions)
                and (self.since is None or (day is not None and day >= self.since))
                and (self.until is None or (day is not None and day <= self.until))
                and (self.game is None or play.name == self.game)
                and (self.player is None or self.player in play.players))


@dataclass
class Loaded:
    plays: list[Play]
    waiting: int = 0  # games heard live but not pulled yet
    broken: list[str] = field(default_factory=list)  # games the rules refuse, and why


def load(store, keep: Filter | None = None) -> Loaded:
    """Every pulled game in the store that `keep` keeps, oldest first (games
    of unknown date last)."""
    keep = keep or Filter()
    names = seating.load(store)
    given = {(uid, gid, commit): at for uid, gid, commit, at in
             store.query("SELECT uid, gid, seed_commit, began FROM game_dates")}
    out = Loaded([])
    for uid in store.tables():
        for g in verify.stored_games(store, uid, READS).values():
            if g.header is None:
                out.waiting += 1
                continue
            try:
                play = _play(uid, g, g.header, names, given.get((uid, g.gid, g.seed_commit)))
            except (RuleError, KeyError, TypeError, ValueError) as e:
                out.broken.append(f"game {g.gid} of session {min(g.sessions)}: {e} "
                                  f"(catnip replay {min(g.sessions)} --verify says more)")
                continue
            if keep.keeps(play):
                out.plays.append(play)
    out.plays.sort(key=lambda p: (p.began is None, p.began or 0, p.table, p.gid))
    return out


def _play(uid: str, g: verify.Game, h: dict, names: seating.Names, given: float | None
          ) -> Play:
    journal = g.journal()
    record = {"game": h["game"], "config": h["config"], "seed_commit": h["seed_commit"],
              "seed": h["seed"], "salt": h["salt"],
              "log": [[e[1], list(e[2])] for e in journal if e[0] == "action"],
              "finished": g.status == "finished"}
    game = rules.replay(record)
    session = min(g.sessions)
    seats = tuple(names.of(session, p) for p in range(game.players()))
    began, ended, played_ms, dated = when(g, journal, given)
    return Play(uid, g.gid, session, began, ended, record, game.result(), seats, played_ms,
                dated)


TICKS = 1 << 30  # MicroPython's ticks_ms() wraps at this


def when(g: verify.Game, journal: list[list], given: float | None
         ) -> tuple[float | None, float | None, int | None, str]:
    """(began, ended, played_ms, dated): the laptop's own times when it
    watched live, else the table's clock notes, else the date a person gave
    (catnip sessions date), else unknown; the length by the table's ticks
    when it ran from beginning to end without a power cut."""
    clock: dict[str, dict] = {}  # the table's clock notes by what they mark
    for e in journal:
        if e[0] == "note" and isinstance(e[1], dict) and "clock" in e[1]:
            clock.setdefault(e[1]["clock"], e[1])
    played_ms = None
    if "began" in clock and "ended" in clock and "resumed" not in clock:
        played_ms = (clock["ended"]["ms"] - clock["began"]["ms"]) % TICKS
    table_began = clock.get("began", {}).get("at")
    table_ended = clock.get("ended", {}).get("at")
    uptime = _by_uptime(g, clock.get("began"))
    if given is not None:
        began, dated = given, "person"
    elif g.live_from is not None and g.began is not None:
        began, dated = g.began, "live"
    elif table_began is not None:
        began, dated = float(table_began), "table"
    elif uptime is not None:
        began, dated = uptime, "uptime"
    elif g.began is not None and g.header is not None:  # before the pull, at the latest
        began, dated = g.began - (played_ms or 0) / 1000, "approximate"
    else:
        return None, None, played_ms, "unknown"
    ended = g.ended if g.ended is not None and dated == "live" else \
        float(table_ended) if table_ended is not None and dated != "person" else \
        began + played_ms / 1000 if played_ms is not None else None
    return began, ended, played_ms, dated


def _by_uptime(g: verify.Game, began: dict | None) -> float | None:
    """When a game the table could not date began, from its ticks: the pull
    (when the laptop stored its first frame, g.began) came in the same
    power-up (the same boot token) this many ms of ticks after it. None when
    it was another power-up or the ticks may have wrapped since."""
    page = g.page or {}
    if began is None or g.began is None or not isinstance(page.get("ms"), int) \
            or not isinstance(began.get("ms"), int) or began.get("boot") is None \
            or began.get("boot") != page.get("boot"):
        return None
    since = (page["ms"] - began["ms"]) % TICKS
    return g.began - since / 1000 if since < TICKS // 2 else None


def opening(play: Play) -> Game:
    """The game as it stood before its first move."""
    return rules.replay(dict(play.record, log=[], finished=False))


def steps(play: Play) -> Iterator[tuple[int, tuple, list, Game]]:
    """(player, action, public events, game) move by move: the record
    replayed by the rules from its start."""
    game = opening(play)
    for player, action in play.actions:
        events = game.act(player, tuple(action))
        yield player, tuple(action), events, game


def warn_about(loaded: Loaded, say: Callable[[str], None]) -> None:
    """Tell the person which games were left out and why."""
    if loaded.waiting:
        say(f"{loaded.waiting} game(s) not pulled from the table yet are left out "
            "(still in play, or connect the table: catnip sessions pull)")
    for why in loaded.broken:
        say(f"left out {why}")
    rough = [p for p in loaded.plays if p.approximate]
    if rough:
        which = ", ".join(f"session {p.session} game {p.gid}" for p in rough[:5])
        say(f"{len(rough)} game(s) are dated only approximately, at their pull ({which}"
            f"{' ...' if len(rough) > 5 else ''}): played on a power-up of the table that no "
            "laptop saw, without a clock module; `catnip sessions date SESSION GID "
            "YYYY-MM-DD` sets the date")
    undated = [p for p in loaded.plays if p.began is None]
    if undated:
        which = ", ".join(f"session {p.session} game {p.gid}" for p in undated[:5])
        say(f"{len(undated)} game(s) have no known date ({which}{' ...' if len(undated) > 5 else ''}"
            "): played while the table had no clock and no laptop listened; "
            "`catnip sessions date SESSION GID YYYY-MM-DD` sets one")
