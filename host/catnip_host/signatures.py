"""The tables' signatures on their games (docs/records.md, "Signatures").

Each table makes an Ed25519 key at its first power-up and signs every game
it finishes (catnip.table.seal). The laptop pins a table's public key the
first time it hears it, as SSH pins a host's key (the store's `table_keys`),
and says loudly when a known table speaks with another key. A pulled game's
signature is checked with `cryptography` against the pinned key over
catnip.record_digest's digest of the game as stored: a record rewritten
in the store, however consistently, no longer matches unless whoever wrote
it holds the table's secret key. The laptop keeps its own pins too, outside
every store (LaptopPins), so a store swapped in with other pins is checked
against the keys this laptop heard.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import platformdirs
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from catnip import record_digest
from catnip_host.game_frames import Game
from catnip_host.replay import DISAGREES, Check
from catnip_host.store_errors import every_method_guarded

SIGNED, UNSIGNED, FORGED = "signed", "unsigned", "forged"


@every_method_guarded
class Keys:
    """The keys heard of each table, in the store's `table_keys` (schema 4):
    the first heard of a table is its pinned key; a later, different key is
    kept beside it, never in its place. A store that does not read raises
    StoreError, as the store's own methods do."""

    def __init__(self, store) -> None:
        self.db = store.db
        self.path = store.path

    def heard(self, uid: str, key: str) -> str:
        """A table's public key (hex) heard now: kept, or its last sighting
        moved on. Returns the key pinned for the table."""
        now = time.time()
        self.db.execute("INSERT INTO table_keys (uid, key, first_seen, last_seen) VALUES "
                        "(?, ?, ?, ?) ON CONFLICT (uid, key) DO UPDATE SET last_seen = ?",
                        (uid, key, now, now, now))
        return str(self.pinned(uid))

    def pinned(self, uid: str) -> str | None:
        row = self.db.execute("SELECT key FROM table_keys WHERE uid = ? ORDER BY first_seen, "
                              "rowid LIMIT 1", (uid,)).fetchone()
        return None if row is None else row[0]

    def all(self) -> list[tuple[str, str, float, float]]:
        """(uid, key, first seen, last seen) of every key heard, each table's
        pinned one first."""
        return self.db.execute("SELECT uid, key, first_seen, last_seen FROM table_keys "
                               "ORDER BY uid, first_seen, rowid").fetchall()


class LaptopPins:
    """The key this laptop pinned for each table, kept outside every store
    (`table_keys.json` in the user config folder: {uid: key hex}), so that
    whoever holds a store cannot move the laptop's pins with it. The first
    pin stays; a file that does not read is left as it is, never written
    over."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or Path(platformdirs.user_config_dir("catnip", appauthor=False)) \
            / "table_keys.json"

    def all(self) -> dict[str, str]:
        return self._read() or {}

    def pin(self, uid: str, key: str) -> str:
        """`key` pinned for table `uid` unless one is already; the key pinned."""
        pins = self._read()
        if pins is None or uid in pins:
            return key if pins is None else pins[uid]
        pins[uid] = key
        new = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            new.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(new, self.path)  # all or nothing
        except OSError:
            pass  # a read-only config folder: the store's pins still hold
        return key

    def _read(self) -> dict[str, str] | None:
        """The pins; {} when there is no file yet, None when it does not read."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def pinned_key(store, uid: str) -> tuple[str | None, str | None]:
    """(the key a table's games are checked against, a problem or None): the
    laptop's own pin when it has one, else the store's; a problem when the
    two differ (the store's keys were rewritten, or it holds another table
    that claims this one's id)."""
    kept = Keys(store).pinned(uid)
    mine = LaptopPins().all().get(uid)
    if mine is not None and kept is not None and mine != kept:
        return mine, (f"the store pins the key {fingerprint(kept)} for table {uid}, but this "
                      f"laptop pinned {fingerprint(mine)} when it first heard it: the store's "
                      "keys were altered, or another table speaks for it")
    return mine or kept, None


def fingerprint(key_hex: str) -> str:
    """The short fingerprint the table shows beside its key."""
    return record_digest.fingerprint(bytes.fromhex(key_hex))


def pin(store, uid: str, key_hex: str | None, notify: Callable[[str], None]) -> None:
    """The table's key, in its hello or a signed game's last page: pinned at
    first sight, a different one said loudly (through `notify`)."""
    warning = heard(store, uid, key_hex)
    if warning is not None:
        notify(warning)


def heard(store, uid: str, key_hex: str | None) -> str | None:
    """A hello's key: pinned when the table is new, its sighting kept; a
    warning to say loudly when it is not the key pinned for that table."""
    if key_hex is None:
        return None
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex))
    except ValueError:
        return f"table {uid} sent a public key that is not one ({key_hex[:16]}...)"
    pinned = LaptopPins().pin(uid, Keys(store).heard(uid, key_hex))
    if pinned == key_hex:
        return None
    return (f"WARNING: table {uid} now signs with the key {fingerprint(key_hex)}, not the "
            f"{fingerprint(pinned)} this laptop pinned when it first heard it. Its games "
            "signed with the new key do not verify. If its flash was erased or its Pico "
            "replaced, that is why; otherwise someone else's key speaks for it.")


def check(g: Game, uid: str, pinned: str | None) -> tuple[str, str | None]:
    """(SIGNED, UNSIGNED or FORGED, the problem or None) for a pulled game:
    FORGED when it carries a signature that the table's pinned key does not
    make over the record as stored, or when a finished game that its table
    said it signs carries none."""
    sig = (g.page or {}).get("sig") if g.header is not None else None
    if sig is None:
        if g.status == "finished" and g.live_signs:  # its live end said so
            return FORGED, ("its table said as it ended that it would sign it, but it carries "
                            "no signature: the record was altered")
        if pinned is not None and g.status == "finished" and g.page is not None \
                and "ms" in g.page:  # pulled from a table that signs: its signature was cut off
            return FORGED, ("it was pulled from a table that signs its games, but carries no "
                            "signature: the record was altered")
        return UNSIGNED, None
    if pinned is None:
        return FORGED, (f"it is signed, but no key is pinned for table {uid}: the store's "
                        "keys were altered")
    try:
        digest = record_digest.digest(uid, g.gid, "finished", g.header, g.journal())
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(pinned)).verify(
            bytes.fromhex(sig), digest)
    except (InvalidSignature, ValueError, TypeError):
        return FORGED, (f"its signature is not the table's (key {fingerprint(pinned)}) over "
                        "the record as stored: the record was altered, or signed with "
                        "another key")
    return SIGNED, None


def sealed(c: Check, g: Game, uid: str, key: str | None) -> Check:
    """A game's check with its signature checked too: labelled signed,
    unsigned or forged; a forged one does not verify, whatever else held."""
    verdict, problem = check(g, uid, key)
    c.signature = {SIGNED: f"signed by table {uid} (key {fingerprint(key)})" if key else "",
                   UNSIGNED: "unsigned (no signature from the table)",
                   FORGED: "SIGNATURE DOES NOT MATCH"}[verdict]
    if problem is not None:
        c.problems.append(problem)
        c.status = DISAGREES
    return c
