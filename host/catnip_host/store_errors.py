"""What the session store's SQLite errors mean for the person: StoreError,
whose message says what happened and what to do (busy, a full disk,
read-only, damaged: the one that means "move it aside"), and the guard that
turns every Store method's SQLite errors into one.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from pathlib import Path


class StoreError(Exception):
    """The store cannot be used; the message says why and what to do."""


def explained(e: sqlite3.Error, path: Path) -> StoreError:
    """What an SQLite error means for the person, and what to do."""
    name = getattr(e, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(e):
        why = (f"the session store {path} is busy: another catnip (a monitor, a sessions pull) "
               "is writing to it. Let it finish or stop it, then try again")
    elif name.startswith("SQLITE_FULL") or "disk is full" in str(e):
        why = (f"the disk holding the session store {path} is full: free some space, then run "
               "it again (what was stored is kept; a table keeps its games until they are "
               "pulled)")
    elif name.startswith("SQLITE_READONLY") or "readonly" in str(e):
        why = (f"the session store {path} is read-only (its file's or folder's permissions, or "
               "a read-only disk): make it writable, or pass --store PATH for another")
    elif name.startswith("SQLITE_CANTOPEN"):
        why = (f"the session store {path} cannot be opened (a missing folder, or no permission "
               "to it): pass --store PATH to put it elsewhere")
    elif name.startswith("SQLITE_IOERR"):
        why = (f"the disk failed while reading or writing the session store {path}: check the "
               "disk, then try again")
    else:  # SQLITE_CORRUPT, SQLITE_NOTADB, a schema or a row no catnip wrote
        why = (f"the session store {path} is damaged: move it aside (rename it) to start a new "
               "one, and keep the old file, which SQLite's .recover may still read")
    return StoreError(f"{why} ({e})")


def _guarded(method):
    """A Store method whose SQLite errors come out as StoreError."""
    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def rows(self, *args, **kwargs):
            try:
                yield from method(self, *args, **kwargs)
            except (sqlite3.Error, UnicodeDecodeError) as e:
                raise _as_store_error(e, self.path) from e
        return rows

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.Error, UnicodeDecodeError) as e:
            raise _as_store_error(e, self.path) from e
    return call


def _as_store_error(e: Exception, path: Path) -> StoreError:
    if isinstance(e, sqlite3.Error):
        return explained(e, path)
    return StoreError(f"the session store {path} is damaged: a row holds bytes no catnip "
                      "wrote; move it aside (rename it) to start a new one")


def every_method_guarded(cls):
    for name, member in list(vars(cls).items()):
        if inspect.isfunction(member) and not name.startswith("__"):
            setattr(cls, name, _guarded(member))
    return cls
