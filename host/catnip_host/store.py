"""The session store: every frame a table sent, kept in SQLite on the laptop.

One row per frame, exactly as it came over the wire; nothing is ever updated
or deleted (triggers refuse it). WAL with synchronous=FULL: each frame is its
own committed transaction, so a laptop that crashes or loses power mid-game
loses at most the frame it was writing. A session is one power-up of one
table (its unique id and boot token, from "hello"); a host that restarts
carries on the same session. Games pulled from the table's journal are stored
in one transaction with a `pulls` row, so each is stored exactly once.

The schema is versioned with SQLite's user_version; MIGRATIONS[i] takes a
store from version i to i + 1, and opening a store runs whatever it lacks,
reading the version inside the same transaction (two catnips opening a new
store at once migrate it once). Commands that only read open the store
read-only. Every SQLite error becomes a StoreError that says what happened
and what to do: busy, a full disk, read-only, damaged (the one that means
"move it aside").
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import orjson
import platformdirs

from catnip import wire
from catnip_host import readable
from catnip_host.store_errors import StoreError, every_method_guarded, explained
from catnip_host.store_schema import MIGRATIONS, SCHEMA_VERSION, statements

__all__ = ["SCHEMA_VERSION", "Frame", "SessionInfo", "Store", "StoreError", "default_path",
           "explained", "fields_of", "frame_fields"]


def default_path() -> Path:
    return Path(platformdirs.user_data_dir("catnip", appauthor=False)) / "sessions.sqlite3"


@dataclass(frozen=True)
class Frame:
    id: int
    session: int
    at: float
    seq: int
    kind: str
    gid: int | None
    raw: str

    def fields(self) -> dict:
        return readable.decode(self.raw.encode())[2]


@dataclass(frozen=True)
class SessionInfo:
    id: int
    uid: str
    boot: str
    board: str
    firmware: str
    opened: float
    frames: int
    games: list[int]
    pulled: list[int]
    gaps: int


SQLITE_INTEGER = range(-(2**63), 2**63)
BUSY_S = 10.0  # how long a write waits for another catnip's to end

# The frames whose fields carry names for the seats (catnip_host.players.table_names).
NAMING = frozenset((wire.BEGIN, wire.GAME))


@every_method_guarded
class Store:
    def __init__(self, path: Path | str | None = None, readonly: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        self.renamed = 0  # our own writes that can change a seat's name: see names_version()
        try:
            self.db = self._connect()
        except sqlite3.Error as e:
            raise explained(e, self.path) from e
        except OSError as e:
            raise StoreError(f"cannot create the session store at {self.path} ({e}); "
                             "pass --store PATH to put it elsewhere") from e

    def _connect(self) -> sqlite3.Connection:
        if self.readonly and not self.path.exists():
            db = sqlite3.connect(":memory:", isolation_level=None)  # nothing stored yet
            self.db = db
            self._migrate()
            return db
        if self.readonly:
            db = sqlite3.connect(f"file:{quote(str(self.path))}?mode=ro", uri=True,
                                 isolation_level=None, timeout=BUSY_S)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            self._newer(version)
            if version < SCHEMA_VERSION:  # an older store: brought up to date once, writably
                db.close()
                Store(self.path).close()
                return self._connect()
            return db
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = self.db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_S)
        _patiently(db, "PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        return db

    def _migrate(self) -> None:
        with self._transaction():  # the version read and changed in one transaction
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            self._newer(version)
            for step in range(version, SCHEMA_VERSION):
                for statement in statements(MIGRATIONS[step]):
                    self.db.execute(statement)
            if version < SCHEMA_VERSION:
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _newer(self, version: int) -> None:
        """StoreError unless this catnip knows the store's schema version."""
        if version < 0:
            raise StoreError(f"the session store {self.path} is damaged: its schema version is "
                             f"{version}, which no catnip wrote; move it aside (rename it) to "
                             "start a new one")
        if version > SCHEMA_VERSION:
            raise StoreError(f"the session store {self.path} is schema {version}, newer than "
                             f"this catnip knows ({SCHEMA_VERSION}): update catnip")

    def _transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        self.db.close()

    # ---- writing ------------------------------------------------------------

    def session(self, uid: str, boot: str, board: str, firmware: str) -> int:
        """The session of this power-up of this table, opened if new."""
        row = self.db.execute("SELECT id FROM sessions WHERE uid = ? AND boot = ?",
                              (uid, boot)).fetchone()
        if row is not None:
            return row[0]
        cur = self.db.execute(
            "INSERT INTO sessions (uid, boot, board, firmware, opened) VALUES (?, ?, ?, ?, ?)",
            (uid, boot, board, firmware, time.time()))
        return _inserted(cur)

    def frame(self, session: int, seq: int, kind: str, gid: int | None, raw: bytes) -> int:
        cur = self.db.execute(
            "INSERT INTO frames (session, at, seq, kind, gid, raw) VALUES (?, ?, ?, ?, ?, ?)",
            (session, time.time(), seq, kind, gid, raw.decode()))
        if kind in NAMING:
            self.renamed += 1
        return _inserted(cur)

    def names_version(self) -> tuple[int, int]:
        """Differs from the last answer whenever the names seats go by may
        have changed: another connection committed (SQLite's data_version), or
        this one stored a frame that carries names or a name itself
        (catnip_host.players counts those in `renamed`). Equal answers, equal
        names: a reader of every frame need not read every name again."""
        return self.db.execute("PRAGMA data_version").fetchone()[0], self.renamed

    def pulled_game(self, session: int, uid: str, gid: int, seed_commit: str,
                    frames: list[tuple[str, bytes]]) -> None:
        """A game pulled from the journal: its frames ("game", "entry"s, the
        last "page") and the row saying it is stored, in one transaction."""
        with self._transaction():
            ids = [self.frame(session, 0, kind, gid, raw) for kind, raw in frames]
            self.db.execute(
                "INSERT INTO pulls (uid, gid, seed_commit, session, first_frame, last_frame, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (uid, gid, seed_commit, session, ids[0], ids[-1], time.time()))

    def gap(self, session: int, first: int, last: int, why: str) -> None:
        self.db.execute("INSERT INTO gaps (session, first, last, at, why) VALUES (?, ?, ?, ?, ?)",
                        (session, first, last, time.time(), why))

    def noise(self, session: int | None, kind: str, text: str) -> None:
        self.db.execute("INSERT INTO noise (session, at, kind, text) VALUES (?, ?, ?, ?)",
                        (session, time.time(), kind, text))

    # ---- reading ------------------------------------------------------------

    def last_seq(self, session: int) -> int:
        row = self.db.execute("SELECT MAX(seq) FROM frames WHERE session = ?", (session,))
        found = row.fetchone()[0]
        gap = self.db.execute("SELECT MAX(last) FROM gaps WHERE session = ?",
                              (session,)).fetchone()[0]
        return max(found or 0, gap or 0)

    def last_move(self, uid: str, gid: int, seed_commit: str) -> int:
        """The newest move announced live of one table's game (0 if none):
        the act frames stored since that game's newest begin."""
        begun = self.db.execute(
            "SELECT MAX(frames.id) FROM frames JOIN sessions ON sessions.id = frames.session "
            "WHERE sessions.uid = ? AND frames.kind = 'begin' AND frames.gid = ? AND "
            "instr(frames.raw, ?) > 0", (uid, gid, f'"seed_commit":"{seed_commit}"')).fetchone()[0]
        if begun is None:
            return 0
        row = self.db.execute(
            "SELECT frames.raw FROM frames JOIN sessions ON sessions.id = frames.session "
            "WHERE sessions.uid = ? AND frames.kind = 'act' AND frames.gid = ? AND frames.id > ? "
            "ORDER BY frames.id DESC LIMIT 1", (uid, gid, begun)).fetchone()
        if row is None:
            return 0
        n = fields_of(row[0]).get("n")
        return n if type(n) is int else 0

    def has_pulled(self, uid: str, gid: int, seed_commit: str) -> bool:
        return self.db.execute("SELECT 1 FROM pulls WHERE uid = ? AND gid = ? AND seed_commit = ?",
                               (uid, gid, seed_commit)).fetchone() is not None

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of a query of another module, inside this store's error
        handling like every method's."""
        return self.db.execute(sql, params).fetchall()

    def frames(self, session: int | None = None, uid: str | None = None) -> Iterator[Frame]:
        """Frames in the order they were stored, of one session or of every
        session of one table."""
        if session is not None:
            rows = self.db.execute("SELECT * FROM frames WHERE session = ? ORDER BY id",
                                   (session,))
        else:
            rows = self.db.execute(
                "SELECT frames.* FROM frames JOIN sessions ON sessions.id = frames.session "
                "WHERE sessions.uid = ? ORDER BY frames.id", (uid,))
        for row in rows:
            frame = Frame(*row)
            if not isinstance(frame.raw, str) or not isinstance(frame.kind, str):
                raise StoreError(f"the session store {self.path} is damaged: a row of its frames "
                                 "holds no frame; move it aside (rename it) to start a new one")
            yield frame

    def game_frames(self, uid: str, kinds: tuple[str, ...]
                    ) -> Iterator[tuple[int, str, int | None, bytes, float | None]]:
        """(session, kind, gid, raw, at) of every frame of these kinds from one
        table, in the order stored, the frame as the bytes that came over the
        wire (`at`, when it was stored, for all but acts and entries): what
        replay --verify and the records read and parse. The cursor itself, for
        speed: an SQLite error while reading it is the caller's to explain
        (store_errors.explained)."""
        marks = ", ".join("?" * len(kinds))
        # Read in the table's own (id) order: through an index, SQLite would
        # sort every row, text and all, to give that order back. The time is
        # read only where gather() uses it: a float for every act and entry
        # would cost a tenth of the query.
        return self.db.execute(
            "SELECT session, kind, gid, CAST(raw AS BLOB), "
            "CASE WHEN kind IN ('act', 'entry') THEN NULL ELSE at END "
            "FROM frames WHERE +session IN "
            f"(SELECT id FROM sessions WHERE uid = ?) AND kind IN ({marks}) ORDER BY id",
            (uid, *kinds))

    def tables(self) -> list[str]:
        """The unique id of every table heard, in the order first heard."""
        return [r[0] for r in self.db.execute("SELECT uid FROM sessions GROUP BY uid ORDER BY "
                                              "MIN(id)")]

    def gaps(self, session: int) -> list[tuple[int, int, str]]:
        return self.db.execute("SELECT first, last, why FROM gaps WHERE session = ? ORDER BY id",
                               (session,)).fetchall()

    def noise_lines(self, session: int) -> list[tuple[str, str]]:
        return self.db.execute("SELECT kind, text FROM noise WHERE session = ? ORDER BY id",
                               (session,)).fetchall()

    def sessions(self) -> list[SessionInfo]:
        return [self.info(row[0]) for row in
                self.db.execute("SELECT id FROM sessions ORDER BY id")]

    def info(self, session: int) -> SessionInfo:
        row = self._session_row(session)
        q = self.db.execute
        frames = q("SELECT COUNT(*) FROM frames WHERE session = ?", (session,)).fetchone()[0]
        games = [r[0] for r in q("SELECT DISTINCT gid FROM frames WHERE session = ? AND "
                                 "kind = 'begin' ORDER BY gid", (session,))]
        pulled = [r[0] for r in q("SELECT gid FROM pulls WHERE session = ? ORDER BY at",
                                  (session,))]
        gaps = q("SELECT COUNT(*) FROM gaps WHERE session = ?", (session,)).fetchone()[0]
        return SessionInfo(*row, frames=frames, games=games, pulled=pulled, gaps=gaps)

    def uid(self, session: int) -> str:
        """The unique id of the table that `session` is a power-up of."""
        return self._session_row(session)[1]

    def _session_row(self, session: int) -> tuple[int, str, str, str, str, float]:
        row = self.db.execute("SELECT * FROM sessions WHERE id = ?", (session,)).fetchone() \
            if session in SQLITE_INTEGER else None
        if row is None:
            known = [r[0] for r in self.db.execute("SELECT id FROM sessions ORDER BY id")]
            raise StoreError(f"no session {session} in {self.path}; "
                             + (f"sessions are {_ranges(known)}" if known else
                                "it has none yet: `catnip monitor` records them"))
        return row


def _inserted(cur: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just added (sqlite3 gives one for every INSERT)."""
    if cur.lastrowid is None:
        raise StoreError("the store added a row without an id")
    return cur.lastrowid


def _patiently(db: sqlite3.Connection, statement: str) -> None:
    """Run `statement`, waiting up to BUSY_S while another connection holds
    the lock: SQLite answers a change of journal mode "locked" at once
    instead of waiting (two catnips opening a new store together)."""
    deadline = time.monotonic() + BUSY_S
    while True:
        try:
            db.execute(statement)
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _ranges(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:20])) + (" ..." if len(ids) > 20 else "")


def fields_of(frame: bytes | str) -> dict:
    """A stored frame's fields, parsed."""
    return orjson.loads(frame_fields(frame.encode() if isinstance(frame, str) else frame))


def frame_fields(frame: bytes) -> bytes:
    """A frame's fields as JSON: from the "{" after its kind to its CRC (which
    was checked when it arrived)."""
    return frame.rstrip(b"\r\n")[frame.find(b"{"):-9]
