"""The session store's schema: MIGRATIONS[i] takes a store from version i to
i + 1 (SQLite's user_version), SCHEMA_VERSION is the newest, and the frames'
tables refuse every update and delete (triggers).
"""

from __future__ import annotations

import sqlite3

_APPEND_ONLY = """
CREATE TRIGGER {t}_no_update BEFORE UPDATE ON {t}
BEGIN SELECT RAISE(ABORT, 'the session store is append-only'); END;
CREATE TRIGGER {t}_no_delete BEFORE DELETE ON {t}
BEGIN SELECT RAISE(ABORT, 'the session store is append-only'); END;
"""

MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL,          -- the table's unique id (machine.unique_id)
        boot TEXT NOT NULL,         -- a token the table draws at every power-up
        board TEXT NOT NULL,
        firmware TEXT NOT NULL,
        opened REAL NOT NULL,       -- when this laptop first heard it (Unix time)
        UNIQUE (uid, boot)
    );
    CREATE TABLE frames (
        id INTEGER PRIMARY KEY,
        session INTEGER NOT NULL REFERENCES sessions (id),
        at REAL NOT NULL,
        seq INTEGER NOT NULL,       -- the stream number, 0 for an answer
        kind TEXT NOT NULL,
        gid INTEGER,                -- the journal's game number, when the frame has one
        raw TEXT NOT NULL           -- the frame as sent, marker to CRC
    );
    CREATE UNIQUE INDEX frames_stream ON frames (session, seq) WHERE seq > 0;
    CREATE INDEX frames_game ON frames (session, gid);
    CREATE TABLE pulls (
        uid TEXT NOT NULL,
        gid INTEGER NOT NULL,
        seed_commit TEXT NOT NULL,
        session INTEGER NOT NULL REFERENCES sessions (id),
        first_frame INTEGER NOT NULL,
        last_frame INTEGER NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (uid, gid, seed_commit)
    );
    CREATE TABLE gaps (
        id INTEGER PRIMARY KEY,
        session INTEGER NOT NULL REFERENCES sessions (id),
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        at REAL NOT NULL,
        why TEXT NOT NULL
    );
    CREATE TABLE noise (
        id INTEGER PRIMARY KEY,
        session INTEGER REFERENCES sessions (id),
        at REAL NOT NULL,
        kind TEXT NOT NULL,         -- "noise" (not ours) or "bad" (a damaged frame)
        text TEXT NOT NULL
    );
    """ + "".join(_APPEND_ONLY.format(t=t) for t in ("sessions", "frames", "pulls", "gaps", "noise")),
    # 1 -> 2: who sat where (catnip players). Names are the people's to change,
    # so these two tables, unlike the frames, take updates.
    """
    CREATE TABLE seat_names (
        session INTEGER NOT NULL REFERENCES sessions (id),
        seat INTEGER NOT NULL,      -- 0 is the table's P1
        name TEXT NOT NULL,
        PRIMARY KEY (session, seat)
    );
    CREATE TABLE aliases (
        alias TEXT PRIMARY KEY,     -- a name merged into another
        name TEXT NOT NULL
    );
    """,
    # 2 -> 3: when a game was played, as a person says (catnip sessions date), for a
    # game the table could not date (no clock, no laptop listening). Theirs to change.
    """
    CREATE TABLE game_dates (
        uid TEXT NOT NULL,
        gid INTEGER NOT NULL,
        seed_commit TEXT NOT NULL,
        began REAL NOT NULL,        -- Unix time
        PRIMARY KEY (uid, gid, seed_commit)
    );
    """,
    # 3 -> 4: each table's public key, pinned at first sight (signatures.py): the
    # first key heard of a table is its pinned one; a later, different key is kept
    # beside it, never in its place.
    """
    CREATE TABLE table_keys (
        uid TEXT NOT NULL,
        key TEXT NOT NULL,          -- Ed25519 public key, hex
        first_seen REAL NOT NULL,   -- Unix time
        last_seen REAL NOT NULL,
        PRIMARY KEY (uid, key)
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """A migration's statements, one by one (triggers keep their inner ';')."""
    out, part = [], ""
    for piece in script.split(";"):
        part += piece
        if sqlite3.complete_statement(part + ";"):
            if part.strip():
                out.append(part.strip())
            part = ""
        else:
            part += ";"
    return out
