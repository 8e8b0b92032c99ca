"""The laptop's words for what the table makes public: each event of every
game in a line, the end of a game and its standings, in players' words.

`catnip monitor`, `catnip serve`'s live page and its replays all say things
through here, so the terminal and the browser read alike. Seats are P1, P2,
... or the names given to them (`catnip players name`); the rules number them
from 0, in events and in the reasons of a result (codes with seats, worded
here by reason()).

Only what a frame carries is worded: nothing here looks at a game's state.
A field shaped otherwise (a newer table) is said as its name and value,
never as a Python repr.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from catnip_host import players as seating
from catnip_host.results import common, in_events

GEMS = ("red", "yellow", "blue")
# Fields that hold a seat, in the events of every game.
SEATED = ("player", "from", "by", "winner", "declarer", "start")
# How a game ended, by the code of its reason (catnip.rules.engine.Game.result).
ENDINGS = {"bag empty": "the bag is empty", "collapse": "the tower collapsed"}
STEPS = {"base": "report a cat of the base", "out": "report the cat set out of play",
         "take": "take a cat from the table", "draw": "draw a cat", "drew": "report the cat drawn",
         "place": "report where the cat stands, or a collapse"}


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def gems(counts: Sequence[int]) -> str:
    """[red, yellow, blue] or loot with black rocks last, in words."""
    said = [f"{n} {colour}" for n, colour in zip(counts, GEMS) if n]
    if len(counts) > 3 and counts[3]:
        said.append(plural(counts[3], "black rock"))
    return ", ".join(said) or "nothing"


def kind(ev: dict) -> str:
    """What an event is: its "type" (an older table's Stack O' Cats: "event")."""
    return str(ev.get("type") or ev.get("event") or "")


def a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def given(store, session: int) -> tuple[str, ...]:
    """The names given so far to the session's seats, "" where none was."""
    names = seating.load(store)
    seats = [seat for s, seat in names.seats if s == session]
    return tuple(names.of(session, p) if (session, p) in names.seats else ""
                 for p in range(max(seats, default=-1) + 1))


class Words:
    """Everything said about one table's seats, named by `names` (a name
    per seat; "" or missing: P1, P2, ...)."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.names = tuple(names)

    def seat(self, p: object) -> str:
        if type(p) is not int or p < 0:
            return f"seat {plain(p)}"
        return self.names[p] if p < len(self.names) and self.names[p] else f"P{p + 1}"

    def seats(self, ps: Sequence[int]) -> str:
        said = [self.seat(p) for p in ps]
        return ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else "".join(said)

    def labels(self, n: int) -> list[str]:
        return [self.seat(p) for p in range(n)]

    def reason(self, r: object) -> str:
        """One reason of a result or an end event (a code with its seats and
        numbers) in a sentence; one shaped otherwise is said field by field."""
        try:
            return self._reason(r)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return plain(r)

    def _reason(self, r: dict) -> str:
        why = r["why"]
        if why in ENDINGS:
            return ENDINGS[why]
        if why == "first":
            return f"first to {plural(r['goal'], 'pawprint')}"
        if why == "most":
            return (f"most pawprints ({r['pawprints']}) of the players with {r['goal']} "
                    "or more")
        if why != "tie":
            return plain(r)
        tied = self.seats(r["seats"])
        if r["by"] == "declarer":
            return (f"{tied} tied at {plural(r['pawprints'], 'pawprint')}; "
                    f"{self.seat(r['declarer'])} won this round's two pawprints")
        if r["by"] == "rocks":
            rocks = ", ".join(f"{self.seat(p)} {n}" for p, n in zip(r["seats"], r["rocks"],
                                                                     strict=True))
            return (f"{tied} tied on {plural(r['points'], 'point')}; fewer black rocks "
                    f"ranks higher ({rocks})")
        said = f"{tied} share rank {r['rank']}: tied on {plural(r['points'], 'point')}"
        if "rocks" in r:
            return said + f" and {plural(r['rocks'], 'black rock')}"
        return said + ", and the rulebook has no tie-breaker"

    def per_seat(self, counts: Sequence[int]) -> str:
        return ", ".join(f"{self.seat(p)} {n}" for p, n in enumerate(counts))

    # ---- events ---------------------------------------------------------------

    def event(self, ev: dict) -> str:
        """One public event (an act frame's) in a line; an older table's
        event is read as today's first (catnip_host.results)."""
        ev = in_events([ev])[0]
        say = EVENTS.get(kind(ev))
        if say is not None:
            try:
                return say(self, ev)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                pass  # shaped otherwise: said field by field below
        rest = ", ".join(f"{k} {self.seat(v) if k in SEATED else plain(v)}"
                         for k, v in sorted(ev.items()) if k not in ("type", "event"))
        return (kind(ev) or "something happened") + (f": {rest}" if rest else "")

    # ---- the end ----------------------------------------------------------------

    def end(self, game: str | None, result: dict) -> str:
        """Who won and how, in a sentence."""
        try:
            return self._end(game, result)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return "the game is over"

    def _end(self, game: str | None, r: dict) -> str:
        r = common(r)
        why = [self.reason(w) for w in r["reasons"]]
        if r["together"]:
            return f"everyone scores {plural(r['scores'][0], r['unit'][:-1])} together" + (
                f" ({'; '.join(why)})" if why else "")
        first = r["winners"]
        verb = "wins" if len(first) == 1 else "share first place"
        said = f"{self.seats(first)} {verb} with {plural(r['scores'][first[0]], r['unit'][:-1])}"
        if r["fewest"]:
            why.insert(0, f"fewest {r['unit']} wins")
        return said + (f" ({'; '.join(why)})" if why else "")

    def standings(self, game: str | None, result: dict) -> tuple[list[str], list[list[str]]]:
        """(column heads, rows best first): rank, player, the score the rules
        give (pawprints in Purrfect), and the loot behind each Meow Heist
        shield."""
        result = common(result)
        ranks, scores = result["ranks"], result["scores"]
        order = sorted(range(len(ranks)), key=lambda p: (ranks[p], p))
        head = ["rank", "player", result["unit"]]
        rows = [[str(ranks[p]), self.seat(p), str(scores[p])] for p in order]
        if "shields" in result:
            head.append("gems")
            for row, p in zip(rows, order):
                row.append(gems(result["shields"][p]))
        return head, rows


def plain(v: object) -> str:
    """A field of a frame the words below do not know, as plain text."""
    if isinstance(v, (list, tuple)):
        return "/".join(plain(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {plain(x)}" for k, x in sorted(v.items(), key=str)) or "none"
    if v is None or isinstance(v, bool):
        return {None: "none", True: "yes", False: "no"}[v]
    return str(v)


def _points(e: dict) -> str:
    """A placement's or collapse's points and where they leave the score."""
    points = f"{e['points']:+d}" if e["points"] else "no points"
    if "team" in e:
        return f"{points}; the Clowder has {e['team']}"
    return f"{points}, {e['score']} in all"


Say = Callable[[Words, dict], str]


def _cards(n: int) -> str:
    return "a card" if n == 1 else plural(n, "card")

EVENTS: dict[str, Say] = {
    # Meow Heist
    "safe": lambda w, e: f"Round {e['round']}: safe card {e['card']}, {w.seat(e['start'])} starts",
    "draw": lambda w, e: f"In the safe: {gems(e['gems'])}",
    "play": lambda w, e: f"{w.seat(e['player'])} plays {_cards(e['cards'])} face down",
    "take": lambda w, e: f"{w.seat(e['player'])} reveals the {e['card']} and takes "
                         f"{gems(e['loot'])} from the safe",
    "steal": lambda w, e: f"{w.seat(e['player'])} reveals the {e['card']} too and steals "
                          f"{gems(e['loot'])} from {w.seat(e['from'])}",
    "collect": lambda w, e: f"Round {e['round']} ends: the loot goes behind the shields" + (
        f"; {gems(e['removed'])} left in the safe leave the game" if any(e["removed"]) else ""),
    "end": lambda w, e: "No safe card is left: the shields are opened",
    "unlock": lambda w, e: f"{w.seat(e['player'])} takes back {_cards(e['cards'])} "
                           "to choose again",
    # Any game: the last result taken back by its player, to be given again
    "correct": lambda w, e: f"{w.seat(e['player'])} takes back their last result "
                            "to give it again",
    # Stack O' Cats
    "join": lambda w, e: f"{plural(e['black_cats'], 'black cat')} join the bag",
    "base": lambda w, e: f"{a(e['colour']).capitalize()} cat is wedged into the base",
    "out": lambda w, e: f"{a(e['colour']).capitalize()} cat is set out of play",
    "drew": lambda w, e: f"{w.seat(e['player'])} draws {a(e['colour'])} cat",
    "took": lambda w, e: f"{w.seat(e['player'])} takes {a(e['colour'])} cat from the table",
    "placed": lambda w, e: f"{w.seat(e['player'])} places the {e['colour']} cat at height "
                           f"{e['height']}" + (f", touching {plural(e['black'], 'black cat')}"
                                               if e["black"] else "") + f": {_points(e)}",
    "collapse": lambda w, e: f"The tower falls on {w.seat(e['player'])}: "
                             f"{plural(e['fallen'], 'cat')} down"
                             + (f" ({e['black']} black)" if e["black"] else "")
                             + f", {_points(e)}",
    "over": lambda w, e: f"The game ends: {w.reason(e['reason'])}",
    # Purrfect
    "offer": lambda w, e: f"{w.seat(e['player'])} offers “{e['meow']}” (offer {e['offer']})",
    "withdraw": lambda w, e: f"{w.seat(e['player'])} withdraws offer {e['offer']} "
                             f"(“{e['meow']}”)",
    "swap": lambda w, e: f"{w.seat(e['by'])} takes {w.seat(e['player'])}’s offer {e['offer']}, "
                         f"answering “{e['meow']}”",
    "false declaration": lambda w, e: f"{w.seat(e['player'])} declares, but the hand is not "
                                      "nine of one cat",
    "round over": lambda w, e: f"Round {e['round']} goes to {w.seat(e['declarer'])}, best hand "
                               f"{w.seats(e['best'])}" + (
        f" (counted: {w.per_seat(e['counts'])})" if "counts" in e else "")
        + f"; pawprints {w.per_seat(e['pawprints'])}",
    "game over": lambda w, e: f"{w.seat(e['winner'])} wins" + (
        f": {w.reason(e['reason'])}" if e["reason"] is not None else ""),
    "deal": lambda w, e: f"Round {e['round']}: new hands are dealt",
}
