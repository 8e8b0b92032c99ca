"""Who sat where: the table knows its seats as P1, P2, ..., or by the names
a laptop sent it (`catnip names`), which its games carry; a person names
seats once per session here (over the table's names), and merges two names
that are one person ("Ali" and "Alice"). Every export and stat reads names
through here.

A seat nobody named is "S3 P1" (session 3's P1): unnamed seats of different
evenings are different people until someone says otherwise.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from catnip import wire
from catnip_host.store import fields_of

MAX_NAME = 40
# Exports join names with "; " (CSV) and quote them; these would break that.
FORBIDDEN = set(';"=')
# Invisible characters that reorder or split text for whoever reads it next
# (a spreadsheet, a line-based reader): bidi controls, and the zero-width
# characters that join nothing.
BIDI = set("\u061c\u200e\u200f") | {chr(c) for c in range(0x202A, 0x202F)} \
    | {chr(c) for c in range(0x2066, 0x206A)}
ZERO_WIDTH = set("\u200b\u2060\ufeff")
JOINERS = set("\u200c\u200d")  # fine between two letters (Persian, emoji), not alone
UNNAMED = re.compile(r"S[0-9]+ P[0-9]+")


class PlayerError(ValueError):
    """A name or seat that cannot be used; the message says what to do."""


@dataclass
class Names:
    seats: dict[tuple[int, int], str]  # (session, seat) -> name as given
    aliases: dict[str, str]  # merged name -> the name it was merged into

    def of(self, session: int, seat: int) -> str:
        return self.canonical(self.seats.get((session, seat)) or unnamed(session, seat))

    def canonical(self, name: str) -> str:
        """The name a person is counted as: merges followed to their end
        (each merge is kept as made, so undoing one restores the one before)."""
        name = unicodedata.normalize("NFC", name)
        seen = {name}
        while name in self.aliases and self.aliases[name] not in seen:
            name = self.aliases[name]
            seen.add(name)
        return name


def unnamed(session: int, seat: int) -> str:
    return f"S{session} P{seat + 1}"


def is_unnamed(name: str) -> bool:
    return UNNAMED.fullmatch(name) is not None


def load(store) -> Names:
    nfc = _nfc
    rows = store.query("SELECT session, seat, name FROM seat_names")
    seats = {**table_names(store), **{(session, seat): nfc(name) for session, seat, name in rows}}
    aliases = {nfc(a): nfc(n) for a, n in store.query("SELECT alias, name FROM aliases")}
    return Names(seats, aliases)


def table_names(store) -> dict[tuple[int, int], str]:
    """{(session, seat): name} from the names the table's games carry: a
    game begun in the session (its "begin" frame) over one only pulled in it
    (the journal's header in its "game" frame). A name that is not one this
    store takes is left out: that seat stays unnamed."""
    out: dict[tuple[int, int], str] = {}
    for kind in (wire.GAME, wire.BEGIN):
        rows = store.query("SELECT session, raw FROM frames WHERE kind = ? ORDER BY id", (kind,))
        for session, raw in rows:
            f = _readable(raw)
            given = f.get("names") if kind == wire.BEGIN else _part(f, "header").get("names")
            for seat, name in enumerate(given if isinstance(given, list) else ()):
                try:
                    if isinstance(name, str) and name:
                        out[(session, seat)] = check_name(name, person=True)
                except PlayerError:
                    continue
    return out


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def check_name(name: str, person: bool = False) -> str:
    """The name as it is stored (NFC, trimmed), or a PlayerError saying why
    not. `person`: a name given to someone, so not a seat's label."""
    if any(0xD800 <= ord(c) < 0xE000 for c in name):
        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise PlayerError(f"{shown!r} is not UTF-8 text (the terminal sent it in another "
                          "encoding): set the terminal to UTF-8 and type the name again")
    name = _nfc(name.strip())
    if not name:
        raise PlayerError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise PlayerError(f"{name[:20]}... is {len(name)} characters; keep names to {MAX_NAME}")
    bad = sorted(c for c in set(name) if c in FORBIDDEN or c in BIDI or c in ZERO_WIDTH
                 or unicodedata.category(c) in ("Cc", "Zl", "Zp"))
    bad += [c for k, c in enumerate(name) if c in JOINERS and not _between_letters(name, k)]
    if bad:
        codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" if not c.isprintable() or c in JOINERS
                                        else repr(c) for c in bad))
        raise PlayerError(f"{_shown(name)!r} holds {codes}; names "
                          "cannot hold semicolons, quotes, '=', control characters, line "
                          "breaks or invisible characters")
    if person and is_unnamed(name):
        raise PlayerError(f"{name!r} is how catnip shows a seat nobody named; give a "
                          "person's name")
    return name


def _shown(name: str) -> str:
    return "".join(c if c.isprintable() and c not in JOINERS else f"\\u{ord(c):04x}"
                   for c in name)


def _between_letters(name: str, k: int) -> bool:
    return 0 < k < len(name) - 1 and not name[k - 1].isspace() and not name[k + 1].isspace() \
        and name[k - 1] not in JOINERS and name[k + 1] not in JOINERS


def seat_count(store, session: int) -> int:
    """How many seats the session's games had (the most of any game)."""
    store.info(session)  # a StoreError names the sessions there are
    rows = store.query("SELECT raw FROM frames WHERE session = ? AND kind IN ('begin', 'game')",
                       (session,))
    counts = (_part(_part(_readable(raw), "header"), "config").get("players", 0)
              for (raw,) in rows)
    return max((n for n in counts if type(n) is int and 0 <= n <= 64), default=0)


def _readable(raw: object) -> dict:
    """A stored frame's fields, or {} for one damaged in the store (its
    names and seats are then not known; `replay --verify` names the damage)."""
    try:
        f = fields_of(raw) if isinstance(raw, str | bytes) else None
    except ValueError:
        return {}
    return f if isinstance(f, dict) else {}


def _part(fields: dict, name: str) -> dict:
    """fields[name] where it is an object, else {}."""
    part = fields.get(name)
    return part if isinstance(part, dict) else {}


def parse_pairs(pairs: list[str], seats: int, session: int) -> dict[int, str]:
    """{seat: name} from ["P1=Alice", "2=Bob", ...]."""
    out: dict[int, str] = {}
    for pair in pairs:
        seat_text, sep, name = pair.partition("=")
        digits = seat_text.strip().upper().removeprefix("P")
        if not sep or not (digits.isascii() and digits.isdigit()):
            raise PlayerError(f"{_shown(pair)!r} is not SEAT=NAME; write P1=Alice (or 1=Alice), "
                              "the seat in digits 0-9")
        seat = int(digits) - 1
        if not 0 <= seat < seats:
            have = f"its seats are P1-P{seats}" if seats else "it has no games yet"
            raise PlayerError(f"session {session} has no seat P{seat + 1}: {have}")
        if seat in out:
            raise PlayerError(f"P{seat + 1} is named twice")
        out[seat] = check_name(name, person=True)
    return out


def name_seats(store, session: int, pairs: list[str]) -> dict[int, str]:
    """Name seats of one session; all or nothing."""
    named = parse_pairs(pairs, seat_count(store, session), session)
    names = load(store)
    after = replace(names, seats={**names.seats, **{(session, k): n for k, n in named.items()}})
    _refuse_twice_in_a_game(store, after, [session])
    with store._transaction():
        for seat, name in named.items():
            store.db.execute("INSERT OR REPLACE INTO seat_names (session, seat, name) "
                             "VALUES (?, ?, ?)", (session, seat, name))
        store.renamed += 1
    return named


def _refuse_twice_in_a_game(store, names: Names, sessions: list[int]) -> None:
    """A person sits in one seat of a game: refuse names that would put one
    in two seats of a session (whose seats are the same people game to game)."""
    for session in sessions:
        seats: dict[str, list[int]] = {}
        for seat in range(seat_count(store, session)):
            seats.setdefault(names.of(session, seat), []).append(seat)
        for name, twice in seats.items():
            if len(twice) > 1:
                where = " and ".join(f"P{k + 1}" for k in twice)
                raise PlayerError(f"that would make {name!r} both {where} of session "
                                  f"{session}; one person sits in one seat (give the other "
                                  "seat its own name)")


def known(store) -> set[str]:
    """Every name in use: given to a seat, an unnamed seat's, or merged into."""
    names = load(store)
    found = {names.canonical(n) for n in names.seats.values()}
    found |= {names.canonical(n) for n in names.aliases.values()}
    for session, players in seated(store):
        found |= {names.of(session, p) for p in range(players)}
    return found


def seated(store) -> list[tuple[int, int]]:
    return [(s.id, seat_count(store, s.id)) for s in store.sessions()]


def merge(store, alias: str, into: str) -> None:
    """From now on `alias` is `into`, everywhere (names that were merged into
    `alias` follow it). Into a name nobody has yet, it renames a person."""
    alias, into = check_name(alias), check_name(into)
    names = load(store)
    if names.canonical(alias) == names.canonical(into):
        raise PlayerError(f"{alias!r} and {into!r} are already one name")
    if alias not in known(store) and alias not in names.aliases.values():
        raise PlayerError(f"nobody is called {alias!r}; `catnip players list` shows the names")
    if alias in names.aliases:
        raise PlayerError(f"{alias!r} was already merged into {names.aliases[alias]!r}")
    if is_unnamed(into) and not is_unnamed(alias):
        raise PlayerError(f"{into!r} is a seat nobody named; merge it into the person instead: "
                          f"catnip players merge {into!r} {alias!r}")
    after = replace(names, aliases={**names.aliases, alias: into})
    _refuse_twice_in_a_game(store, after, [s.id for s in store.sessions()])
    store.db.execute("INSERT INTO aliases (alias, name) VALUES (?, ?)", (alias, into))
    store.renamed += 1


def unmerge(store, alias: str) -> str:
    """Undo a merge; returns the name it had been merged into."""
    names = load(store)
    alias = _nfc(alias.strip())
    if alias not in names.aliases:
        merged = ", ".join(sorted(names.aliases)) or "none"
        raise PlayerError(f"{alias!r} was never merged (merged names: {merged})")
    store.db.execute("DELETE FROM aliases WHERE alias = ?", (alias,))
    store.renamed += 1
    return names.aliases[alias]
