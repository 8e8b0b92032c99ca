"""Who sat where: the table knows its seats only as P1, P2, ...; a person
names them once per session, and merges two names that are one person
("Ali" and "Alice"). Every export and stat reads names through here.

A seat nobody named is "S3 P1" (session 3's P1): unnamed seats of different
evenings are different people until someone says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from catnip_host.verify import fields_of

MAX_NAME = 40
# Exports join names with "; " (CSV) and quote them; these would break that.
FORBIDDEN = set(';"=') | {chr(c) for c in range(32)} | {"\x7f"}


class PlayerError(ValueError):
    """A name or seat that cannot be used; the message says what to do."""


@dataclass
class Names:
    seats: dict[tuple[int, int], str]  # (session, seat) -> name as given
    aliases: dict[str, str]  # merged name -> the name it became

    def of(self, session: int, seat: int) -> str:
        return self.canonical(self.seats.get((session, seat)) or unnamed(session, seat))

    def canonical(self, name: str) -> str:
        return self.aliases.get(name, name)


def unnamed(session: int, seat: int) -> str:
    return f"S{session} P{seat + 1}"


def load(store) -> Names:
    rows = store.db.execute("SELECT session, seat, name FROM seat_names")
    seats = {(session, seat): name for session, seat, name in rows}
    return Names(seats, dict(store.db.execute("SELECT alias, name FROM aliases").fetchall()))


def check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise PlayerError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise PlayerError(f"{name[:20]}... is {len(name)} characters; keep names to {MAX_NAME}")
    bad = sorted(set(name) & FORBIDDEN)
    if bad:
        raise PlayerError(f"{name!r} holds {', '.join(map(repr, bad))}; names cannot hold "
                         "semicolons, quotes, '=' or control characters")
    return name


def seat_count(store, session: int) -> int:
    """How many seats the session's games had (the most of any game)."""
    store.info(session)  # a StoreError names the sessions there are
    rows = store.db.execute("SELECT raw FROM frames WHERE session = ? AND kind IN "
                            "('begin', 'game')", (session,))
    return max((fields_of(raw)["header"]["config"].get("players", 0) for (raw,) in rows), default=0)


def parse_pairs(pairs: list[str], seats: int, session: int) -> dict[int, str]:
    """{seat: name} from ["P1=Alice", "2=Bob", ...]."""
    out: dict[int, str] = {}
    for pair in pairs:
        seat_text, sep, name = pair.partition("=")
        digits = seat_text.strip().upper().removeprefix("P")
        if not sep or not digits.isdigit():
            raise PlayerError(f"{pair!r} is not SEAT=NAME; write P1=Alice (or 1=Alice)")
        seat = int(digits) - 1
        if not 0 <= seat < seats:
            have = f"its seats are P1-P{seats}" if seats else "it has no games yet"
            raise PlayerError(f"session {session} has no seat P{seat + 1}: {have}")
        if seat in out:
            raise PlayerError(f"P{seat + 1} is named twice")
        out[seat] = check_name(name)
    return out


def name_seats(store, session: int, pairs: list[str]) -> dict[int, str]:
    """Name seats of one session; all or nothing."""
    named = parse_pairs(pairs, seat_count(store, session), session)
    with store._transaction():
        for seat, name in named.items():
            store.db.execute("INSERT OR REPLACE INTO seat_names (session, seat, name) "
                             "VALUES (?, ?, ?)", (session, seat, name))
    return named


def known(store) -> set[str]:
    """Every name in use: given to a seat, an unnamed seat's, or merged into."""
    names = load(store)
    found = {names.canonical(n) for n in names.seats.values()} | set(names.aliases.values())
    for session, players in seated(store):
        found |= {names.of(session, p) for p in range(players)}
    return found


def seated(store) -> list[tuple[int, int]]:
    return [(s.id, seat_count(store, s.id)) for s in store.sessions()]


def merge(store, alias: str, into: str) -> None:
    """From now on `alias` is `into`, everywhere (names that were merged into
    `alias` follow it)."""
    alias, into = check_name(alias), check_name(into)
    names = load(store)
    target = names.canonical(into)
    if names.canonical(alias) == target:
        raise PlayerError(f"{alias!r} and {into!r} are already one name")
    if alias not in known(store):
        raise PlayerError(f"nobody is called {alias!r}; `catnip players list` shows the names")
    if alias in names.aliases:
        raise PlayerError(f"{alias!r} was already merged into {names.aliases[alias]!r}")
    with store._transaction():
        store.db.execute("UPDATE aliases SET name = ? WHERE name = ?", (target, alias))
        store.db.execute("INSERT INTO aliases (alias, name) VALUES (?, ?)", (alias, target))


def unmerge(store, alias: str) -> str:
    """Undo a merge; returns the name it had been merged into."""
    names = load(store)
    if alias not in names.aliases:
        merged = ", ".join(sorted(names.aliases)) or "none"
        raise PlayerError(f"{alias!r} was never merged (merged names: {merged})")
    store.db.execute("DELETE FROM aliases WHERE alias = ?", (alias,))
    return names.aliases[alias]
